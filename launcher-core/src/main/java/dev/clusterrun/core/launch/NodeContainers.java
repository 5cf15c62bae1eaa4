package dev.clusterrun.core.launch;

import dev.clusterrun.core.spec.Carry;
import java.nio.file.Path;

/**
 * What each node starts (pure, as {@link Planner}): the head starts the job's container; every
 * other node a squashfs file, so no two nodes start one rootfs and none waits on another's rootfs
 * lock, which enroot holds while it runs the hooks (docs/scale.md).
 */
final class NodeContainers {
  private NodeContainers() {}

  /**
   * The container the launch agent starts on every node but the head (with {@code
   * --launcher=per-node}: every node but the first): the image itself when the job starts it
   * directly, the named container's snapshot ({@link ContainerSnapshot#of}), the image of a
   * container made for this run only (it holds what the image holds until the job writes), else the
   * container itself.
   */
  static String agentContainer(ResolvedJob job, Planner.Options options) {
    if (Planner.startsImage(job)) {
      return Planner.squashfs(job);
    }
    if (job.containerName().value() != null) {
      return snapshot(job);
    }
    if (job.image().value() != null && carries(Planner.squashfs(job))) {
      return Planner.squashfs(job);
    }
    return Planner.containerName(job, options);
  }

  /**
   * Whether every node but the head starts a {@code .sqsh} directly ({@link #agentContainer}), so
   * needs squashfuse: the job's image, a named container's snapshot, or a run's container's image.
   */
  static boolean othersStartImage(ResolvedJob job) {
    return Planner.startsImage(job)
        || job.containerName().value() != null
        || (job.image().value() != null && carries(Planner.squashfs(job)));
  }

  /** The named container's snapshot in the workspace, as {@link ContainerSnapshot#of}. */
  static String snapshot(ResolvedJob job) {
    String ws = job.workspacePath().value();
    return ContainerSnapshot.of(Path.of(ws), job.containerName().value()).toString();
  }

  /** Whether the launch agent can carry {@code path} as one word. */
  static boolean carries(String path) {
    try {
      Carry.agentWord(path, "");
      return true;
    } catch (IllegalArgumentException e) {
      return false;
    }
  }
}
