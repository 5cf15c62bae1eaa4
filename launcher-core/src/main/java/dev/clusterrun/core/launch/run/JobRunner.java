package dev.clusterrun.core.launch.run;

import dev.clusterrun.core.AtomicFiles;
import dev.clusterrun.core.ExitCode;
import dev.clusterrun.core.launch.cleanup.Lifeline;
import dev.clusterrun.core.launch.cleanup.RemoteReaper;
import dev.clusterrun.core.launch.container.ContainerPreparer;
import dev.clusterrun.core.launch.container.PrepareException;
import dev.clusterrun.core.launch.head.HeadCommands;
import dev.clusterrun.core.launch.head.Signals;
import dev.clusterrun.core.launch.job.SaveTarget;
import dev.clusterrun.core.launch.plan.Plan;
import dev.clusterrun.core.launch.plan.SettingsTable;
import dev.clusterrun.core.output.ClosedReader;
import dev.clusterrun.core.session.Console;
import dev.clusterrun.core.session.Deadline;
import dev.clusterrun.core.session.NodeWatch;
import dev.clusterrun.core.session.Session;
import dev.clusterrun.core.spec.TimeLimit;
import java.io.IOException;
import java.nio.file.Files;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.IntSupplier;

/**
 * Runs a planned job: the container ready in the shared data path, then the {@link Launcher} (which
 * starts the job and waits for it); afterwards every node is searched for leftovers of the run,
 * which are killed by PID and reported, the plan's after-job steps run, and {@code summary.json} is
 * written. Never prints: people hear through the console's progress, the job's output goes to the
 * console's streams.
 */
public final class JobRunner {
  /**
   * @param plan the plan the run starts from (the launcher may settle it)
   * @param workspace the shared workspace (locks and records of the containers)
   * @param jobFile the job file's text, kept in the run directory (null when given by flags)
   */
  public record Request(
      Plan plan,
      String workspace,
      String jobFile,
      String clusterrunVersion,
      Launcher launcher,
      double checksSeconds) {
    /** A run whose checks took no time of its own (or were measured elsewhere). */
    public Request(
        Plan plan, String workspace, String jobFile, String clusterrunVersion, Launcher launcher) {
      this(plan, workspace, jobFile, clusterrunVersion, launcher, -1);
    }
  }

  /**
   * The file of the run directory that says when the run's time limit passes (an ISO-8601 instant,
   * written at the run's start when it has one): what {@code ps} shows as the time left.
   */
  public static final String TIME_LIMIT_FILE = "time-limit";

  private final HeadCommands head;
  private final Session session;
  private final Console console;
  private volatile Launcher launcher;
  private volatile boolean interrupted;
  private volatile int signal = Signals.SIGINT;
  private Duration nodeTimeout;
  private String headDataPath;
  private volatile NodeWatch watch;
  private long imageCacheLimit = -1;
  private ContainerPreparer preparer;
  private Duration timeLimit = Duration.ZERO;
  private long timeStart;
  private volatile boolean timedOut;
  private IntSupplier plansMade;

  public JobRunner(HeadCommands head, Session session, Console console) {
    this.head = head;
    this.session = session;
    this.console = console;
  }

  /**
   * Watches every node while the job runs; one silent for {@code timeout} stops the job, which ends
   * {@link RunEnd#NODE_LOST} (null: no watch).
   */
  public JobRunner watchNodes(Duration timeout) {
    nodeTimeout = timeout;
    return this;
  }

  /**
   * Stops the job as Ctrl-C stops it once {@code limit} has passed since {@code startNanos} ({@link
   * System#nanoTime}, clusterrun's start): the run ends {@link RunEnd#TIME_LIMIT}, exit 124, the
   * stop said on standard error. Zero: no limit.
   */
  public JobRunner timeLimit(Duration limit, long startNanos) {
    timeLimit = limit == null ? Duration.ZERO : limit;
    timeStart = startNanos;
    return this;
  }

  /** Says the limit passed and stops the run, unless it is stopping already. */
  private void timeUp(RunContext run) {
    if (interrupted) {
      return;
    }
    timedOut = true;
    run.say(
        "time limit "
            + TimeLimit.display(timeLimit)
            + " (--time) reached: stopping the job on every node");
    interrupt();
  }

  /**
   * The head's ENROOT_DATA_PATH from its facts, or null: see {@link ContainerPreparer#dataPath}.
   */
  public JobRunner headDataPath(String path) {
    headDataPath = path;
    return this;
  }

  /**
   * The size the workspace's image cache is brought under after an import (least recently used
   * images not in use go); negative: not limited.
   */
  public JobRunner imageCacheLimit(long bytes) {
    imageCacheLimit = bytes;
    return this;
  }

  /**
   * How many plans the run made, asked when {@code summary.json} is written (null: not counted).
   */
  public JobRunner countingPlans(IntSupplier made) {
    plansMade = made;
    return this;
  }

  /**
   * Stops the run on signal {@code signal} (SIGINT, SIGTERM, SIGHUP: each the same orderly stop):
   * the launcher stops the job; {@link #run} then cleans up and returns 128 + {@code signal}.
   */
  public void interrupt(int signal) {
    if (!interrupted) {
      this.signal = signal;
      if (signal == ClosedReader.SIGPIPE) {
        console
            .progress()
            .note(
                "the reader of clusterrun's output went away (EPIPE): stopping the job on every"
                    + " node, as SIGPIPE would stop mpirun");
      }
    }
    interrupt();
  }

  /** {@link #interrupt(int)} for an interrupt without a signal (as Ctrl-C: 130). */
  public void interrupt() {
    interrupted = true;
    Launcher l = launcher;
    if (l != null) {
      l.interrupt();
    }
  }

  public RunSummary run(Request rq) throws IOException {
    launcher = rq.launcher();
    if (interrupted) {
      launcher.interrupt();
    }
    RunContext run =
        new RunContext(session, console, head, rq.plan(), rq.jobFile(), rq.clusterrunVersion());
    if (rq.checksSeconds() >= 0) {
      run.tookChecks(rq.checksSeconds());
    }
    Files.createDirectories(run.runDir());
    // Whatever ends clusterrun from here on, even SIGKILL, ends the run's processes with it. Left
    // tied when this throws: the watchers then act at clusterrun's exit.
    Lifeline lifeline =
        Lifeline.tie(
            launcher.tiesEveryNode()
                ? session.shells()
                : session.headShell() == null
                    ? Map.of()
                    : Map.of(session.head(), session.headShell()),
            session.head(),
            rq.plan().runId(),
            run.runDir());
    console.progress().runStarted(rq.plan().runId(), run.runDir());
    Ending end;
    boolean threadInterrupted = false;
    Deadline time = Deadline.after(timeLimit, timeStart, () -> timeUp(run));
    if (!timeLimit.isZero()) {
      long left = timeStart + timeLimit.toNanos() - System.nanoTime();
      AtomicFiles.write(
          run.runDir().resolve(TIME_LIMIT_FILE), Instant.now().plusNanos(left).toString() + "\n");
    }
    try {
      end = execute(run, rq);
    } catch (InterruptedException e) {
      // Remembered, not re-raised yet: the clean-up below must still reach every node.
      threadInterrupted = true;
      interrupt();
      end = Ending.of(RunEnd.INTERRUPTED);
    } finally {
      time.close();
    }
    if (timedOut && end.end() != RunEnd.SUCCEEDED && end.end() != RunEnd.FAILED) {
      end = Ending.of(RunEnd.TIME_LIMIT);
      run.endedBy(RunEnd.TIME_LIMIT.label());
    } else if (timedOut) {
      // The job ended by itself as the limit passed: its own end stands.
      timedOut = false;
    }
    if (end.end() == RunEnd.INTERRUPTED) {
      end = new Ending(RunEnd.INTERRUPTED, ExitCode.bySignal(signal));
      run.endedBy(Signals.name(signal));
    }
    if (end.end() != RunEnd.PREPARE_FAILED) {
      cleanUp(run);
    }
    lifeline.close();
    if (preparer != null) {
      if (end.end() != RunEnd.PREPARE_FAILED) {
        try {
          preparer.finished(rq.plan(), rq.workspace());
        } catch (IOException e) {
          run.note("could not mark the container's snapshot as outdated: " + e.getMessage());
        }
      }
      // The job no longer uses its image: eviction may take it from now on.
      preparer.release();
    }
    // No node is asked anything more: the head's masters end while the summary is written.
    session.release();
    if (threadInterrupted) {
      Thread.currentThread().interrupt();
    }
    if (plansMade != null) {
      run.plansMade(plansMade.getAsInt());
    }
    return run.finish(end);
  }

  /** The container, then the launcher; returns early, with the reason noted, when one fails. */
  private Ending execute(RunContext run, Request rq) throws IOException, InterruptedException {
    Plan plan = run.plan();
    boolean direct =
        plan.prepare().stream().anyMatch(s -> s.action() == Plan.Step.Action.START_IMAGE);
    run.say(
        direct
            ? "image "
                + plan.image()
                + ": started directly on every node (squashfuse and an overlay of its own)"
            : "container "
                + plan.containerName()
                + (plan.image() == null
                    ? ": using the existing container (no image given)"
                    : ": making sure it exists and matches " + plan.image()));
    preparer =
        new ContainerPreparer(head, console.err())
            .dataPath(headDataPath)
            .forRun(plan.runId())
            .cacheLimit(imageCacheLimit);
    try {
      ContainerPreparer.Prepared p = preparer.prepare(plan, rq.workspace());
      if (p.importSeconds() >= 0) {
        run.tookSeconds("import", p.importSeconds());
      }
      run.prepared(p.actions());
    } catch (PrepareException e) {
      run.tookPreparing();
      run.note(e.getMessage());
      return Ending.of(RunEnd.PREPARE_FAILED);
    }
    for (String a : run.prepared()) {
      run.say(a);
    }
    if (nodeTimeout == null) {
      return rq.launcher().launch(run);
    }
    NodeWatch w =
        NodeWatch.start(
            session,
            nodeTimeout,
            lost -> {
              interrupted = true;
              session.nodeLost(lost.node());
              rq.launcher().nodeLost(lost.node());
            });
    watch = w;
    try {
      Ending end = rq.launcher().launch(run);
      List<String> lost = w.lost();
      if (lost.isEmpty()) {
        return end;
      }
      run.lostNodes(lost);
      run.note(
          String.join(", ", lost)
              + " stopped answering for "
              + SettingsTable.display(Duration.ofSeconds(w.silence().toSeconds()))
              + " (--node-timeout "
              + SettingsTable.display(nodeTimeout)
              + "): the job was stopped on the other nodes");
      return Ending.of(RunEnd.NODE_LOST);
    } finally {
      w.close();
    }
  }

  private List<String> lostNodes() {
    NodeWatch w = watch;
    return w == null ? List.of() : w.lost();
  }

  /** Nothing of the run may stay behind on any node; then the plan's after-job steps. */
  private void cleanUp(RunContext run) {
    long t = System.nanoTime();
    try {
      String runId = run.plan().runId();
      Map<String, RemoteReaper.Reaped> r =
          session.onEveryShellExcept(
              lostNodes(), s -> RemoteReaper.reap(s, runId, Duration.ofSeconds(30)));
      run.leftovers(new ArrayList<>(r.values()));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      run.note("the search for leftovers on the nodes was interrupted");
      return;
    }
    List<Plan.Step> steps = run.plan().cleanup();
    for (Plan.Step s : steps) {
      try {
        if (s.isSave()) {
          // Never over a directory or a file clusterrun did not save: decided again right now.
          String problem =
              SaveTarget.save(
                  s.argv(),
                  run.plan().runId(),
                  argv -> head.run(argv, Map.of(), console.err(), console.err()));
          if (problem != null) {
            run.note(problem);
          }
          continue;
        }
        int code = head.run(s.argv(), Map.of(), console.err(), console.err());
        if (code != 0) {
          run.note(s.what() + " failed (exit " + code + ")");
        }
      } catch (IOException e) {
        run.note(s.what() + " failed: " + e.getMessage());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
    }
    run.took("cleanup", t);
  }
}
