package dev.clusterrun.core.launch.mpirun;

import dev.clusterrun.core.enroot.LaunchAgent;
import dev.clusterrun.core.image.ImageCache;
import dev.clusterrun.core.launch.head.HeadProcess;
import dev.clusterrun.core.launch.job.CanaryMode;
import dev.clusterrun.core.launch.job.LaunchOptions;
import dev.clusterrun.core.launch.job.ResolvedJob;
import dev.clusterrun.core.launch.plan.Plan;
import dev.clusterrun.core.output.Spool;
import dev.clusterrun.core.remote.ExecResult;
import dev.clusterrun.core.remote.NodeShell;
import dev.clusterrun.core.remote.ShellQuote;
import dev.clusterrun.core.remote.ShellScript;
import dev.clusterrun.core.remote.SshMasters;
import dev.clusterrun.core.session.FanOut;
import dev.clusterrun.core.session.InputPump;
import dev.clusterrun.core.spec.LauncherKind;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.Charset;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The head's {@code enroot start} begun while the checks still run, the job's command held: what
 * the container runs first is a shell that waits for one line on its standard input. Once the
 * checks passed, {@link Slot#go} sends the job's command on that line (the same words the plan
 * shows, quoted by {@link ShellQuote}) and the shell {@code exec}s it: mpirun, with the process id
 * clusterrun signals. Nothing of the job starts before that line, on any node: mpirun itself has
 * not started. Anything else ends the wait without running anything: the input's end (checks
 * failed, Ctrl-C, clusterrun gone, even killed) makes the shell exit, and enroot start takes its
 * container down as after any command.
 *
 * <p>The container's start ({@code enroot start}'s mounts and hooks, most of a small job's time on
 * the head) then overlaps the logins to the other nodes. It is begun only when the plan's words
 * before the command can be known from the head's own facts: the same container as is (a named one
 * that exists, used without an image, or an image file started directly), the Open MPI daemon
 * remembered for its contents, no file of the run mounted. When the checks' plan differs in those
 * words or the environment, the early start is stopped and the job starts as it always did.
 */
public final class EarlyStart implements WarmStart.Start {
  /** The shell variable that holds a newline while the held shell reads its line. */
  static final String NEWLINE = "cr_nl";

  /**
   * What the held container runs ({@code early-gate.sh}): one line read, run only when it is an
   * {@code exec}; the end of the input (or anything else) exits 125 without running anything.
   */
  static final String GATE = ShellScript.code(EarlyStart.class, "early-gate.sh");

  /**
   * Where the head's processes of a run write their output ({@link Spool}), in the run directory:
   * what a held start prints before the go (enroot's warnings) is shown with the job's.
   */
  static final String SPOOL_DIR = ".spool";

  /** How long a stopped start may take to take its container down before it is killed. */
  static final Duration STOP_WAIT = Duration.ofSeconds(10);

  private final List<String> prefix;
  private final Map<String, String> env;
  private final HeadProcess process;
  private final long begunAt = System.nanoTime();
  private boolean settled;

  private EarlyStart(List<String> prefix, Map<String, String> env, HeadProcess process) {
    this.prefix = prefix;
    this.env = env;
    this.process = process;
  }

  /** How long the held start has run, in seconds. */
  @Override
  public double seconds() {
    return (System.nanoTime() - begunAt) / 1e9;
  }

  /** Whether the held container is up: its process switched its root (after the hooks). */
  @Override
  public boolean up() {
    return process.rootSwitched();
  }

  @Override
  public boolean alive() {
    return process.isAlive();
  }

  /**
   * What the head's first answer makes of the run: the plan its job would start with, the daemon
   * that plan assumes (null: not known, neither given nor remembered for the container's contents),
   * the head's ENROOT_DATA_PATH, and whether the job's network is {@code auto}.
   */
  public record Candidate(
      Plan plan, LaunchAgent.Daemon daemon, String dataPath, boolean networkAuto) {}

  /** The candidate from the head's first answer, or null when the answer does not make one. */
  @FunctionalInterface
  public interface Candidates {
    Candidate at(String head, ExecResult answer) throws IOException, InterruptedException;
  }

  /**
   * The run's early start, or null: every condition it needs, in one place. Before any node
   * answers: the mpirun launcher, no canary (it runs before the job), the checks on (they are what
   * the job's command waits for), the head's OpenSSH masters (whose head answer begins it) and no
   * finisher (the job's command known before the checks). At the head's answer: the daemon known,
   * not PRRTE with the network {@code auto} (PRRTE's network settings are enroot start's variables,
   * known after every node's facts), and the container started as it is ({@link #startsAsIs}).
   * Whatever fails on the way leaves the job to start after the checks; whether the start still
   * fits the run's plan is judged when the job goes ({@link #fits}).
   *
   * @param finisher whether a finisher may change the job after the checks
   */
  public static Slot consider(
      ResolvedJob job,
      LaunchOptions options,
      boolean checks,
      boolean finisher,
      SshMasters masters,
      Candidates candidates) {
    if (job.launcher().value() == LauncherKind.PER_NODE
        || options.canary() != CanaryMode.OFF
        || !checks
        || masters == null
        || finisher) {
      return null;
    }
    Slot slot = new Slot();
    masters.onHeadAnswer(
        (head, answer) -> {
          try {
            Candidate c = candidates.at(head, answer);
            if (c != null) {
              slot.daemon = c.daemon();
            }
            if (c == null
                || c.daemon() == null
                || (c.daemon() == LaunchAgent.Daemon.PRTED && c.networkAuto())
                || !startsAsIs(c.plan(), c.dataPath())) {
              return;
            }
            slot.begin(c.plan());
          } catch (IOException | RuntimeException e) {
            // no early start: the job starts after the checks
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        });
    return slot;
  }

  /** The words that start the container of {@code plan}, before its command. */
  public static List<String> containerWords(Plan plan) {
    return List.copyOf(plan.launch().subList(0, plan.launchCommandAt()));
  }

  /** The command the container of {@code plan} runs. */
  static List<String> command(Plan plan) {
    return List.copyOf(plan.launch().subList(plan.launchCommandAt(), plan.launch().size()));
  }

  /**
   * Whether {@code plan}'s container can start before the checks end: an image file started
   * directly (no import, or a registry image's digest the cache holds already) or a named container
   * that exists under {@code dataPath}, used as it is (no image given), and no file of the run in
   * the words that start it (the run's files are written after the checks).
   */
  public static boolean startsAsIs(Plan plan, String dataPath) {
    if (plan.launch() == null || plan.launchCommandAt() <= 0 || plan.isPerNode()) {
      return false;
    }
    for (String w : containerWords(plan)) {
      if (w.contains(plan.runDir())) {
        return false;
      }
    }
    boolean direct = false;
    for (Plan.Step s : plan.prepare()) {
      switch (s.action()) {
        case START_IMAGE -> direct = true;
        case IMPORT -> {
          if (!cachedDigest(plan)) {
            return false;
          }
        }
        case CREATE -> {
          return false;
        }
        default -> {}
      }
    }
    if (direct) {
      return plan.squashfs() != null && Files.isRegularFile(Path.of(plan.squashfs()));
    }
    return plan.namedContainer()
        && plan.image() == null
        && dataPath != null
        && !dataPath.isEmpty()
        && Files.isDirectory(Path.of(dataPath, plan.containerName()));
  }

  /**
   * Whether {@code plan}'s image is a registry image pinned to a digest whose import the
   * workspace's cache holds already: its import step is then skipped (each digest is imported once,
   * under a temporary name renamed when whole), and the file can be started before the checks end.
   */
  private static boolean cachedDigest(Plan plan) {
    return plan.image() != null
        && ImageCache.digestOf(plan.image()) != null
        && plan.squashfs() != null
        && Files.isRegularFile(Path.of(plan.squashfs()));
  }

  /** Starts {@code plan}'s container on the head with its command held. */
  static EarlyStart begin(Plan plan) throws IOException {
    List<String> words = containerWords(plan);
    List<String> argv = new ArrayList<>(words);
    argv.addAll(List.of("sh", "-c", GATE, "sh"));
    Spool spool = Spool.create(Path.of(plan.runDir()).resolve(SPOOL_DIR).resolve("early"));
    try {
      HeadProcess p =
          HeadProcess.startSpooled(
              argv, plan.launchEnv(), spool, OutputStream.nullOutputStream(), true);
      return new EarlyStart(words, Map.copyOf(plan.launchEnv()), p);
    } catch (IOException | RuntimeException e) {
      spool.close();
      throw e;
    }
  }

  /** Whether {@code plan} starts the same container the same way (its command aside). */
  boolean fits(Plan plan) {
    return plan.launchCommandAt() > 0
        && prefix.equals(containerWords(plan))
        && env.equals(Map.copyOf(plan.launchEnv()));
  }

  /**
   * Runs {@code plan}'s command in the held container, its output (and what the start printed
   * before) in the start's {@link HeadProcess#spool}; null, with the start stopped, when it does
   * not fit or has ended already. After the line, {@code input} (the job's standard input, null for
   * none) is copied into the same standard input: the held shell reads its line byte by byte (as
   * {@code read} does on a pipe), so none of the input is taken before mpirun runs.
   */
  synchronized HeadProcess go(Plan plan, InputStream input) throws InterruptedException {
    if (settled) {
      return null;
    }
    if (!fits(plan) || !process.isAlive()) {
      stop();
      return null;
    }
    String line = "exec " + ShellQuote.joinOnOneLine(command(plan), NEWLINE) + "\n";
    try {
      OutputStream in = process.stdin();
      in.write(line.getBytes(charset()));
      in.flush();
      if (input == null) {
        in.close();
      } else {
        InputPump.start(input, in);
      }
    } catch (IOException e) {
      // Ended meanwhile: the job starts as it always did.
      stop();
      return null;
    }
    settled = true;
    return process;
  }

  /**
   * Stops the held start without running anything, and waits until its container is down (killed
   * after {@link #STOP_WAIT}). Does nothing once the job went.
   */
  synchronized void stop() throws InterruptedException {
    if (settled) {
      return;
    }
    settled = true;
    try {
      process.stdin().close();
    } catch (IOException e) {
      // ended already
    }
    if (!process.waitFor(STOP_WAIT)) {
      process.killTree();
      process.waitFor(STOP_WAIT);
    }
    process.spool().close();
    // A start that never went leaves no run directory behind: the checks failed (nothing was
    // started), or the run's plan did not fit and the run makes its own.
    try {
      Files.deleteIfExists(process.spool().dir().getParent().getParent());
    } catch (DirectoryNotEmptyException e) {
      // the run's own files are there
    } catch (IOException e) {
      // left behind, empty
    }
  }

  /** The charset the JVM gives process arguments in: the line must reach the shell the same way. */
  private static Charset charset() {
    String jnu = System.getProperty("sun.jnu.encoding");
    try {
      return jnu == null ? Charset.defaultCharset() : Charset.forName(jnu);
    } catch (RuntimeException e) {
      return Charset.defaultCharset();
    }
  }

  /**
   * Whether the other nodes share the head's processors: some node's kernel boot id is the head's
   * (the local test cluster's namespaces), or the head's or some node's is unknown. Only then does
   * a busy head ({@link WarmStart#saturated}) say anything about the other nodes' starts; on a
   * cluster each node starts on processors of its own, and a slow start is worth beginning early
   * however busy the head is.
   */
  public static boolean sharesProcessors(String headBoot, Collection<String> otherBoots) {
    return headBoot == null || otherBoots.stream().anyMatch(b -> b == null || b.equals(headBoot));
  }

  /**
   * Where an early start lives between the head's facts and the job: set by the thread that began
   * it, taken by the launcher, stopped by whoever ends the run otherwise.
   */
  public static final class Slot {
    private final AtomicReference<EarlyStart> held = new AtomicReference<>();
    private volatile boolean closed;
    private volatile LaunchAgent.Daemon daemon;
    private volatile Plan begun;
    private WarmStart others = WarmStart.NONE;

    /**
     * The daemon the head's first answer made the candidate for (given, or remembered for the
     * container's contents), whether or not it began; null before that answer or when none is
     * known.
     */
    public LaunchAgent.Daemon daemon() {
      return daemon;
    }

    /**
     * Begins every other node's container with the plan the head's began with ({@link WarmStart}),
     * when it began and the slot is not closed; the slot ends them with its own stop, once the
     * launcher is done. Not before: enroot ties a started image's fuse mounts to the container's
     * first process (an orphaned process group, {@code runtime::_mount_rootfs}), so a daemon that
     * joined the container loses its root filesystem when that process ends. How long the head's
     * start took is remembered in {@code workspace} ({@link StartTimes}). A busy head holds them
     * back only when {@code sharedProcessors} ({@link EarlyStart#sharesProcessors}).
     */
    public void beginOthers(
        Map<String, NodeShell> shells,
        String head,
        FanOut fanOut,
        Path workspace,
        boolean sharedProcessors) {
      Plan plan = begun;
      if (closed || plan == null || plan.held() == null) {
        return;
      }
      // Beside the checks, on the session's pool: until the head's start is up, or has ended.
      String key = plan.held().key();
      EarlyStart start = held.get();
      if (start == null) {
        return;
      }
      fanOut.beside(
          () -> {
            try {
              double took =
                  WarmStart.watch(
                      StartTimes.remembered(workspace, key),
                      sharedProcessors && WarmStart.saturated(),
                      start,
                      () -> beginNow(plan, shells, head));
              if (!Double.isNaN(took)) {
                StartTimes.remember(workspace, key, took);
              }
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            }
            return null;
          });
    }

    private synchronized void beginNow(Plan plan, Map<String, NodeShell> shells, String head) {
      if (!closed && others == WarmStart.NONE) {
        others = WarmStart.begin(plan, shells, head);
      }
    }

    /** Begins {@code plan}'s container unless the slot is closed or holds one already. */
    void begin(Plan plan) throws IOException, InterruptedException {
      if (closed || held.get() != null) {
        return;
      }
      EarlyStart e = EarlyStart.begin(plan);
      if (!held.compareAndSet(null, e) || closed) {
        e.stop();
      } else {
        begun = plan;
      }
    }

    /**
     * The held start running {@code plan}'s command ({@link EarlyStart#go}) with {@code input}, or
     * null: none held, or it did not fit (stopped then).
     */
    HeadProcess go(Plan plan, InputStream input) throws InterruptedException {
      EarlyStart e = held.getAndSet(null);
      return e == null ? null : e.go(plan, input);
    }

    /** Stops a start still held; no start begins afterwards. */
    public void stop() throws InterruptedException {
      closed = true;
      synchronized (this) {
        others.close();
      }
      EarlyStart e = held.getAndSet(null);
      if (e != null) {
        e.stop();
      }
    }
  }
}
