package dev.clusterrun.core.launch.plan;

import dev.clusterrun.core.enroot.EnrootArgs;
import dev.clusterrun.core.image.ImageCache;
import dev.clusterrun.core.launch.job.ResolvedJob;
import dev.clusterrun.core.spec.Carry;
import dev.clusterrun.core.spec.ImageRef;
import java.nio.file.Path;

/**
 * What each node starts (pure, as {@link Planner}): the head starts the job's container; every
 * other node a squashfs file, so no two nodes start one rootfs and none waits on another's rootfs
 * lock, which enroot holds while it runs the hooks (docs/scale.md).
 */
public final class NodeContainers {
  private NodeContainers() {}

  /**
   * The container the launch agent starts on every node but the head (with {@code
   * --launcher=per-node}: every node but the first): the image itself when the job starts it
   * directly, the named container's snapshot ({@link #snapshotOf}), the image of a container made
   * for this run only (it holds what the image holds until the job writes), else the container
   * itself.
   */
  static String agentContainer(ResolvedJob job, PlanOptions options) {
    if (startsImage(job)) {
      return squashfs(job);
    }
    if (job.containerName().value() != null) {
      return snapshot(job);
    }
    if (job.image().value() != null && carries(squashfs(job))) {
      return squashfs(job);
    }
    return containerName(job, options);
  }

  /**
   * Whether every node but the head starts a {@code .sqsh} directly ({@link #agentContainer}), so
   * needs squashfuse: the job's image, a named container's snapshot, or a run's container's image.
   */
  public static boolean othersStartImage(ResolvedJob job) {
    return startsImage(job)
        || job.containerName().value() != null
        || (job.image().value() != null && carries(squashfs(job)));
  }

  /** The named container's snapshot in the workspace, as {@link #snapshotOf}. */
  static String snapshot(ResolvedJob job) {
    String ws = job.workspacePath().value();
    return snapshotOf(Path.of(ws), job.containerName().value()).toString();
  }

  /** Where the named container {@code name}'s snapshot is, in the workspace. */
  public static Path snapshotOf(Path workspace, String name) {
    return workspace.resolve(".clusterrun").resolve("containers").resolve(name + ".sqsh");
  }

  /** The plan's step that takes the snapshot of container {@code name} into {@code path}. */
  static Plan.Step snapshotStep(String name, String path) {
    return new Plan.Step(
        Plan.Step.Action.SNAPSHOT,
        "export the container to a squashfs snapshot, which every other node starts directly"
            + " (squashfuse and an overlay of its own: no rootfs lock shared)",
        EnrootArgs.export(name, path),
        "if the snapshot is missing, or the container was made or re-made, or written by a"
            + " --container-writable run, since it was taken");
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

  /**
   * The name {@code enroot start} is given: the job's container, the run's own, or the image file
   * when the job starts its image directly ({@link #startsImage}).
   */
  public static String containerName(ResolvedJob job, PlanOptions options) {
    if (startsImage(job)) {
      return squashfs(job);
    }
    String named = job.containerName().value();
    return named != null ? named : "clusterrun-" + options.runId();
  }

  /**
   * The squashfs file the job's image is: the file given, or where a registry image is imported in
   * the workspace. An image pinned by digest (the run asked the registry what its tag is now) is
   * kept in the workspace's cache under its digest: a tag pushed again is a new file, never the
   * old.
   */
  public static String squashfs(ResolvedJob job) {
    ImageRef image = job.image().value();
    if (!image.isUri()) {
      return image.value();
    }
    String digest = ImageCache.digestOf(image.value());
    return stripSlash(job.workspacePath().value())
        + "/images/"
        + (digest != null ? ImageCache.fileName(digest) : EnrootArgs.squashfsName(image));
  }

  /**
   * Whether the job starts its image directly rather than a container made from it: an unnamed job
   * with an image, unless it saves the container after the job ({@code enroot export} needs a
   * container).
   */
  public static boolean startsImage(ResolvedJob job) {
    ImageRef image = job.image().value();
    if (job.containerName().value() != null || image == null || job.save().value() != null) {
      return false;
    }
    // The image file is then a word of the launch agent: a path the agent cannot carry (white
    // space, a control character) is made into a container instead, as before.
    return image.isUri() || NodeContainers.carries(image.value());
  }

  static String stripSlash(String p) {
    return p.length() > 1 && p.endsWith("/") ? p.substring(0, p.length() - 1) : p;
  }
}
