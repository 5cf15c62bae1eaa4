package dev.clusterrun.core.spec;

/**
 * The job's directory on the shared filesystem: it holds the hostfile mpirun reads and the run
 * directories, and is mounted into the container.
 *
 * @param path directory on the shared filesystem (host side)
 * @param mount where it appears inside the container
 */
public record WorkspaceSpec(String path, String mount) {
  public static final WorkspaceSpec EMPTY = new WorkspaceSpec(null, null);
}
