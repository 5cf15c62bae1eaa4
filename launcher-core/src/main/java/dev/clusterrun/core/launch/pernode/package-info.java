/** The per-node launcher ({@code --launcher=per-node}): one container and process per node. */
package dev.clusterrun.core.launch.pernode;
