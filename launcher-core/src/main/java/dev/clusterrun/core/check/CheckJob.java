package dev.clusterrun.core.check;

import dev.clusterrun.core.image.ImagePin;
import dev.clusterrun.core.spec.ContainerSpec;
import dev.clusterrun.core.spec.Mount;
import java.util.List;

/**
 * What the checks need to know about the job, when one is given.
 *
 * @param containerName the named container, or {@code null}
 * @param mounts the job's mounts
 * @param mountHome the job's mount-home choice, or {@code null} to follow enroot's configuration
 * @param startsImage the job starts its {@code .sqsh} image directly on every node (squashfuse)
 * @param image the job's registry image, resolved once on the head by the {@code image} check, or
 *     {@code null} when the job has none
 * @param othersStartImage every node but the head starts a {@code .sqsh} directly (a named
 *     container's snapshot, or the image of the run's own container: docs/scale.md), so they need
 *     squashfuse too
 */
public record CheckJob(
    String containerName,
    List<Mount> mounts,
    Boolean mountHome,
    boolean startsImage,
    ImagePin image,
    boolean othersStartImage) {
  public static final CheckJob NONE = new CheckJob(null, List.of(), null);

  public CheckJob(
      String containerName, List<Mount> mounts, Boolean mountHome, boolean startsImage) {
    this(containerName, mounts, mountHome, startsImage, null, startsImage);
  }

  /** A job that starts a container (named, or none at all). */
  public CheckJob(String containerName, List<Mount> mounts, Boolean mountHome) {
    this(containerName, mounts, mountHome, false);
  }

  public CheckJob {
    mounts = mounts == null ? List.of() : List.copyOf(mounts);
  }

  public static CheckJob of(ContainerSpec c) {
    if (c == null) {
      return NONE;
    }
    return new CheckJob(
        c.name(),
        c.mounts(),
        c.mountHome(),
        c.name() == null && c.image() != null && c.save() == null,
        ImagePin.of(c.image(), null),
        c.name() != null || c.image() != null);
  }

  public List<String> containerNames() {
    return containerName == null ? List.of() : List.of(containerName);
  }
}
