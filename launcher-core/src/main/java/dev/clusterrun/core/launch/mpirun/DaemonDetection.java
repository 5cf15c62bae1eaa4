package dev.clusterrun.core.launch.mpirun;

import dev.clusterrun.core.AtomicFiles;
import dev.clusterrun.core.Sha256;
import dev.clusterrun.core.enroot.EnrootArgs;
import dev.clusterrun.core.enroot.LaunchAgent;
import dev.clusterrun.core.launch.container.ContainerPreparer;
import dev.clusterrun.core.launch.head.HeadCommands;
import dev.clusterrun.core.launch.plan.Plan;
import dev.clusterrun.core.launch.run.RunContext;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The Open MPI daemon of the job's container: {@code mpirun --version} asked inside it, the answer
 * remembered in the workspace per contents that cannot change unseen (an image file, a named
 * container clusterrun made, or one known by its root directory), so that the next run of the same
 * contents starts no extra container and an early start ({@link EarlyStart}) knows it beforehand.
 */
public final class DaemonDetection {
  private DaemonDetection() {}

  /** What {@code mpirun --version} printed in the container (version null when none). */
  record Asked(String version, int exitCode, String stderr) {}

  private static Asked ask(HeadCommands head, String container)
      throws IOException, InterruptedException {
    HeadCommands.Captured v =
        head.capture(
            EnrootArgs.start(
                new EnrootArgs.ContainerFlags(false, false, List.of(), Map.of()),
                List.of(),
                container,
                List.of("mpirun", "--version")),
            Map.of());
    return new Asked(openMpiVersion(v.stdout() + "\n" + v.stderr()), v.exitCode(), v.stderr());
  }

  /**
   * {@code mpirun --version} in the container; null (and why, in the run) when it cannot run. The
   * answer is remembered in the workspace for contents that cannot change unseen: an image file
   * (its path, size and time) or a named container made by clusterrun (its record of the image,
   * rewritten whenever it is made again), so the next run of the same contents starts no extra
   * container.
   */
  static LaunchAgent.Daemon detect(RunContext run, String headDataPath)
      throws IOException, InterruptedException {
    Path ws = workspace(run.plan());
    String key = contentKey(run.plan(), ws, headDataPath);
    String remembered = key == null ? null : remembered(ws, key);
    if (remembered != null) {
      run.version("openmpi", remembered);
      LaunchAgent.Daemon d = daemonFor(remembered);
      run.say(
          "container has Open MPI "
              + remembered
              + " (asked before, same contents): remote daemons start as "
              + d.command());
      return d;
    }
    LaunchAgent.Daemon d = said(run, ask(run.head(), run.plan().containerName()));
    String ver = run.version("openmpi");
    if (d != null && key != null && ver != null && !ver.equals("unknown")) {
      remember(ws, key, ver);
    }
    return d;
  }

  /**
   * The key of {@code plan}'s contents before a job that cannot write into its container, for
   * {@link #carryOver} after it; null for a writable job ({@code --rw}) or contents nothing
   * identifies.
   */
  static String keyBeforeJob(Plan plan, String dataPath) {
    try {
      if (plan.launch().subList(0, plan.launchCommandAt()).contains("--rw")) {
        return null;
      }
      return contentKey(plan, workspace(plan), dataPath);
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  /**
   * After a job that could not write into its container ({@link #keyBeforeJob}): its Open MPI is
   * what it was, but enroot may have made mount points in a named container's root directory (the
   * workspace's, on the container's first run), which changes the change time that identifies a
   * container made outside clusterrun. The version this run used ({@code asked}, else the one
   * remembered under the key {@code before} the job) is then remembered under the key as it is now,
   * so that the next run neither starts the container to ask again nor misses its early start.
   */
  static void carryOver(Plan plan, String dataPath, String before, String asked) {
    if (before == null) {
      return;
    }
    try {
      Path ws = workspace(plan);
      String now = contentKey(plan, ws, dataPath);
      String v = asked != null && !asked.equals("unknown") ? asked : remembered(ws, before);
      if (now != null && v != null && remembered(ws, now) == null) {
        remember(ws, now, v);
      }
    } catch (IOException | RuntimeException e) {
      // not carried over: the next run asks again
    }
  }

  /**
   * The daemon remembered for the contents of {@code plan}'s container ({@link #detect}'s record),
   * or null when none is: read only, nothing asked.
   */
  public static LaunchAgent.Daemon rememberedDaemon(Plan plan, String dataPath) throws IOException {
    Path ws = workspace(plan);
    String key = contentKey(plan, ws, dataPath);
    String v = key == null ? null : remembered(ws, key);
    return v == null ? null : daemonFor(v);
  }

  /**
   * What identifies the container's contents, or null when nothing does unseen changes. A named
   * container without clusterrun's record (made outside clusterrun) is known by its root directory
   * under {@code dataPath}: its inode and change time change when it is removed and made again.
   */
  public static String contentKey(Plan plan, Path ws, String dataPath) throws IOException {
    if (plan.prepare().stream().anyMatch(s -> s.action() == Plan.Step.Action.START_IMAGE)) {
      Path f = Path.of(plan.squashfs());
      if (Files.isRegularFile(f)) {
        return "image "
            + f.toAbsolutePath()
            + " "
            + Files.size(f)
            + " "
            + Files.getLastModifiedTime(f).toMillis();
      }
      return null;
    }
    if (plan.namedContainer()) {
      Path rec = ContainerPreparer.containerRecord(ws, plan.containerName());
      if (Files.isRegularFile(rec)) {
        return "container "
            + plan.containerName()
            + " "
            + Files.readString(rec, StandardCharsets.UTF_8).strip()
            + " "
            + Files.getLastModifiedTime(rec).toMillis();
      }
      if (dataPath != null && !dataPath.isEmpty()) {
        Path rootfs = Path.of(dataPath, plan.containerName());
        if (Files.isDirectory(rootfs, LinkOption.NOFOLLOW_LINKS)) {
          Map<String, Object> a =
              Files.readAttributes(rootfs, "unix:ino,ctime", LinkOption.NOFOLLOW_LINKS);
          return "container "
              + plan.containerName()
              + " rootfs "
              + rootfs.toAbsolutePath()
              + " "
              + a.get("ino")
              + " "
              + ((FileTime) a.get("ctime")).to(TimeUnit.NANOSECONDS);
        }
      }
    }
    return null;
  }

  static LaunchAgent.Daemon daemonFor(String openMpiVersion) {
    return openMpiVersion != null && openMpiVersion.startsWith("5")
        ? LaunchAgent.Daemon.PRTED
        : LaunchAgent.Daemon.ORTED;
  }

  public static Path memo(Path ws, String key) {
    return ws.resolve(".clusterrun").resolve("openmpi").resolve(Sha256.hex(key) + ".version");
  }

  /** The workspace of {@code plan}'s run ({@code WORKSPACE/runs/RUN}). */
  private static Path workspace(Plan plan) {
    return Path.of(plan.runDir()).getParent().getParent();
  }

  /** Remembers {@code version} for contents {@code key}: the version, then the key it is for. */
  private static void remember(Path ws, String key, String version) throws IOException {
    AtomicFiles.write(memo(ws, key), version + "\n" + key + "\n");
  }

  /** The Open MPI version remembered for contents {@code key}, or null. */
  private static String remembered(Path ws, String key) throws IOException {
    Path memo = memo(ws, key);
    if (!Files.isRegularFile(memo)) {
      return null;
    }
    String[] lines = Files.readString(memo, StandardCharsets.UTF_8).split("\n");
    if (lines.length >= 2 && lines[1].equals(key) && !lines[0].isBlank()) {
      return lines[0].strip();
    }
    return null;
  }

  /** The daemon for what {@code mpirun --version} said, said in the run; null when it failed. */
  private static LaunchAgent.Daemon said(RunContext run, Asked v) {
    String ver = v.version();
    run.version("openmpi", ver == null ? "unknown" : ver);
    if (v.exitCode() != 0 && ver == null) {
      run.note(
          "could not run `mpirun --version` in the container: "
              + ContainerPreparer.firstLine(v.stderr()));
      return null;
    }
    LaunchAgent.Daemon d = daemonFor(ver);
    run.say(
        "container has Open MPI "
            + run.version("openmpi")
            + ": remote daemons start as "
            + d.command());
    return d;
  }

  public static String openMpiVersion(String text) {
    Matcher m = Pattern.compile("\\(Open MPI\\)\\s+([0-9][0-9.a-z]*)").matcher(text);
    return m.find() ? m.group(1) : null;
  }
}
