/**
 * The job's input and its ranks' output: {@code --stdin}, {@code --label}, {@code
 * --output-per-rank}.
 */
package dev.clusterrun.core.launch.io;
