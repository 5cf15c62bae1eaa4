/** The job as resolved, each setting with where it came from, and the options of its run. */
package dev.clusterrun.core.launch.job;
