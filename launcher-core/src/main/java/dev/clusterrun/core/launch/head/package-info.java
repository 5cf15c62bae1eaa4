/** The head's processes of a run: their output spooled, their process group signalled. */
package dev.clusterrun.core.launch.head;
