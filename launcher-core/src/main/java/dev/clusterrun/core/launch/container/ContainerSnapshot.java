package dev.clusterrun.core.launch.container;

import dev.clusterrun.core.AtomicFiles;
import dev.clusterrun.core.enroot.EnrootArgs;
import dev.clusterrun.core.launch.plan.NodeContainers;
import dev.clusterrun.core.launch.plan.Plan;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Locale;

/**
 * A named container's snapshot: {@code enroot export} of the container into the workspace, which
 * every node but the head starts directly ({@code enroot start SNAPSHOT.sqsh}: squashfuse and an
 * overlay in the node's runtime path, with a rootfs lock of its own), so the nodes never queue on
 * the container's one lock (docs/scale.md). Taken again only when the container changed: the record
 * beside it names the container's image record it was taken of, and a writable run of the container
 * removes it when it ends.
 */
final class ContainerSnapshot {
  /** The head's commands the snapshot needs: a command that must succeed, a line for people. */
  interface Head {
    void mustRun(List<String> argv, String what)
        throws IOException, InterruptedException, PrepareException;

    void say(String line);
  }

  private ContainerSnapshot() {}

  /** The record beside a snapshot: what the container was (its image record) when it was taken. */
  static Path record(Path snapshot) {
    return snapshot.resolveSibling(snapshot.getFileName() + ".of");
  }

  /** Whether the plan takes a snapshot (a named container's). */
  static boolean planned(Plan plan) {
    return plan.prepare().stream().anyMatch(s -> s.action() == Plan.Step.Action.SNAPSHOT);
  }

  /**
   * The snapshot, taken again ({@code enroot export} under a temporary name, then renamed) unless
   * the one there was taken of the container as it is. Runs under the container's lock, after the
   * container was made ready.
   *
   * @param containerRecord the container's image record, or null when clusterrun did not make it
   * @param created whether the container was just made
   */
  static void take(
      Head head,
      Path workspace,
      String name,
      String containerRecord,
      boolean created,
      List<String> actions)
      throws IOException, InterruptedException, PrepareException {
    Path snap = NodeContainers.snapshotOf(workspace, name);
    Path rec = record(snap);
    String of = containerRecord == null ? "made outside clusterrun" : containerRecord;
    if (created) {
      Files.deleteIfExists(rec);
    }
    if (Files.isRegularFile(snap) && of.equals(read(rec))) {
      actions.add("the other nodes start the snapshot " + snap + " of container " + name);
      return;
    }
    Files.createDirectories(snap.getParent());
    Path tmp = snap.resolveSibling(name + ".part-" + ProcessHandle.current().pid() + ".sqsh");
    Files.deleteIfExists(tmp);
    long t = System.nanoTime();
    head.say("taking a snapshot of container " + name + " for the other nodes: " + snap);
    head.mustRun(EnrootArgs.export(name, tmp.toString()), "export container " + name);
    Files.deleteIfExists(rec);
    Files.move(tmp, snap, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    AtomicFiles.write(rec, of + "\n");
    actions.add(
        "took a snapshot of container "
            + name
            + " into "
            + snap
            + String.format(Locale.ROOT, " in %.1f s", (System.nanoTime() - t) / 1e9)
            + "; the other nodes start it");
  }

  /**
   * The job is over: when it could write into its named container ({@code --container-writable}),
   * the snapshot no longer counts as the container's copy, and the next run takes it again.
   */
  static void finished(Plan plan, Path workspace) throws IOException {
    if (plan.namedContainer()
        && "y".equals(plan.launchEnv().get("ENROOT_ROOTFS_WRITABLE"))
        && planned(plan)) {
      Files.deleteIfExists(record(NodeContainers.snapshotOf(workspace, plan.containerName())));
    }
  }

  private static String read(Path record) throws IOException {
    if (!Files.isRegularFile(record)) {
      return null;
    }
    String s = Files.readString(record, StandardCharsets.UTF_8).strip();
    return s.isEmpty() ? null : s;
  }
}
