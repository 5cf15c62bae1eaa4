package dev.clusterrun.core.check;

/**
 * The {@code squashfuse} check: a job that starts its image directly ({@code enroot start
 * IMAGE.sqsh}, an unnamed job with an image) needs {@code squashfuse} on every node and {@code
 * /dev/fuse} usable by the job user; enroot mounts the image with it, and an overlay in the node's
 * runtime path. A job whose head starts a container (a named one, or one made for the run) needs it
 * on every other node, which starts the container's snapshot or image (docs/scale.md). Other jobs
 * do not need it, so it is skipped for them.
 */
final class ImageStartCheck extends NodeCheck {
  @Override
  CheckResult judge(CheckInput in, Facts f) {
    String n = f.node();
    if (!in.job().startsImage() && !(in.job().othersStartImage() && !n.equals(in.head()))) {
      return skip(
          n,
          in.job().othersStartImage()
              ? "the head starts the container itself; the other nodes start its snapshot"
              : "the job starts no image directly (a named container, or none given)");
    }
    String squashfuse = f.raw().get("squashfuse");
    String fuse = f.host().fuse();
    if (squashfuse == null || squashfuse.isBlank()) {
      return fail(
          n,
          "squashfuse is not in PATH of a non-interactive SSH session: enroot cannot start the"
              + " job's .sqsh image here",
          "install squashfuse on " + n + " (Debian: apt-get install squashfuse)");
    }
    if ("missing".equals(fuse)) {
      return fail(
          n,
          "/dev/fuse does not exist: enroot cannot mount the job's .sqsh image here",
          "load the fuse module on " + n + " (modprobe fuse)");
    }
    if (!"rw".equals(fuse)) {
      return fail(
          n,
          "/dev/fuse is not readable and writable by the job user: enroot cannot mount the"
              + " job's .sqsh image here",
          "make /dev/fuse mode 0666 on "
              + n
              + " (its default), or give the job a name"
              + " (--container-name) so the image is unpacked once instead");
    }
    return pass(n, "squashfuse at " + squashfuse + ", /dev/fuse usable");
  }
}
