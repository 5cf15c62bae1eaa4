/** The proof that every node's daemon runs inside the job's container, and the canary. */
package dev.clusterrun.core.launch.proof;
