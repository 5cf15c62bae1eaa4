/** What a run leaves on its nodes: found by the run id, ended with clusterrun or after it. */
package dev.clusterrun.core.launch.cleanup;
