/** The mpirun launcher: the early start, the daemon found, the canary, the proof at launch. */
package dev.clusterrun.core.launch.mpirun;
