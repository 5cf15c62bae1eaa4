/** One run around its launcher: the run directory, the clean-up, {@code summary.json}. */
package dev.clusterrun.core.launch.run;
