package dev.clusterrun.core.spec;

/**
 * The job's directory on the shared filesystem: it holds the hostfile mpirun reads, the run
 * directories and the image cache, and is mounted into the container.
 *
 * @param path directory on the shared filesystem (host side)
 * @param mount where it appears inside the container
 * @param imageCacheLimit how much the image cache ({@code <path>/images}) may hold
 */
public record WorkspaceSpec(String path, String mount, ByteSize imageCacheLimit) {
  public static final WorkspaceSpec EMPTY = new WorkspaceSpec(null, null);

  /** A layer that does not say how large the image cache may grow. */
  public WorkspaceSpec(String path, String mount) {
    this(path, mount, null);
  }
}
