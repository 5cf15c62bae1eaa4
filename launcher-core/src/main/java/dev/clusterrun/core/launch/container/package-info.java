/** The job's container made ready on the head before the job, and its snapshot. */
package dev.clusterrun.core.launch.container;
