package dev.clusterrun.core.screen;

import dev.clusterrun.core.AtomicFiles;
import dev.clusterrun.core.BadInputException;
import dev.clusterrun.core.ExitCode;
import dev.clusterrun.core.Sha256;
import dev.clusterrun.core.bench.References;
import dev.clusterrun.core.cluster.Hostfile;
import dev.clusterrun.core.launch.Launch;
import dev.clusterrun.core.launch.LaunchFlow;
import dev.clusterrun.core.launch.LaunchOutcome;
import dev.clusterrun.core.launch.job.JobResolver;
import dev.clusterrun.core.launch.job.LaunchOptions;
import dev.clusterrun.core.launch.job.ResolvedJob;
import dev.clusterrun.core.launch.job.Setting;
import dev.clusterrun.core.launch.job.Source;
import dev.clusterrun.core.launch.run.RunEnd;
import dev.clusterrun.core.launch.run.RunSummary;
import dev.clusterrun.core.remote.ShellScript;
import dev.clusterrun.core.session.Console;
import dev.clusterrun.core.spec.ContainerSpec;
import dev.clusterrun.core.spec.ImageRef;
import dev.clusterrun.core.spec.JobSpec;
import dev.clusterrun.core.spec.MpiSpec;
import dev.clusterrun.core.spec.SshSpec;
import dev.clusterrun.core.spec.WorkspaceSpec;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The flow of {@code screen}: one mpirun across every node of the hostfile, one rank per slot, each
 * rank in the job's container, run by {@link LaunchFlow} like any job. The program ({@code
 * screen.c}) measures each node alone (all nodes at once), then the nodes in pairs ({@link
 * PairRounds}: every pair of a round at once, the rounds one after the other), each measurement
 * {@code --repeat} times; the best of each is judged against the run's median ({@link
 * ScreenJudge}). The program ships as C source and is compiled by the container's {@code mpicc} on
 * the first use of an image, then kept in the workspace under a name made from the source and the
 * image's identity.
 */
public final class ScreenFlow {
  static final String SOURCE_RESOURCE = "screen.c";

  /**
   * What each rank runs ({@code screen-run.sh}): the program compiled once (rank 0; the others wait
   * for it), then run as a child, the signals that stop a job passed on.
   */
  static final String SCRIPT = ShellScript.code(ScreenFlow.class, "screen-run.sh");

  /**
   * mpirun's words: no binding. Open MPI binds a job of one or two ranks to cores, the same core
   * numbers on every node; nodes that share a machine (virtual machines, the local test cluster)
   * would then share one core.
   */
  static final List<String> MPIRUN_ARGS = List.of("--bind-to", "none");

  /**
   * A rank waiting for its peer yields the CPU while it polls: where nodes share a machine the peer
   * may need it; on a real node it costs a fraction of a microsecond, alike for every pair.
   */
  static final Map<String, String> MCA = Map.of("mpi_yield_when_idle", "1");

  private final ScreenRequest rq;
  private final String source;
  private final Console quiet;
  private Path workspace;

  /** The image the first run pinned; the second look runs in it. */
  private Setting<ImageRef> pinnedImage;

  /** The GPUs each node's facts counted (nvidia-smi -L) in the first run's checks, node → count. */
  private final Map<String, Integer> gpus = new LinkedHashMap<>();

  private ScreenFlow(ScreenRequest rq, String source, Console quiet) {
    this.rq = rq;
    this.source = source;
    this.quiet = quiet;
  }

  /** Screens the hostfile's nodes. */
  public static ScreenOutcome run(ScreenRequest rq, Console console)
      throws IOException, InterruptedException {
    if (rq.input().flags().mpi().np() != null) {
      throw new BadInputException("--np", "screen runs one rank on each slot of every node");
    }
    Hostfile hf = rq.input().readHostfile();
    if (hf.hosts().size() < 2) {
      throw new BadInputException(
          hf.source(), "a screen needs at least two nodes (it measures them in pairs)");
    }
    // A references file that does not read or fit is bad input before any node is touched.
    String cluster = References.clusterName(rq.judging().cluster(), rq.input().hostfile());
    Map<ScreenJudge.Metric, ScreenJudge.Expected> expected =
        rq.judging().references() == null
            ? Map.of()
            : ScreenReferences.read(rq.judging().references(), cluster, hf.hosts().size());
    // The program's lines go to the run's stdout.log; stdout carries the screen's report.
    Console quiet =
        new Console(
            console.progress(),
            OutputStream.nullOutputStream(),
            console.err(),
            console.interrupts(),
            null);
    ScreenFlow flow =
        new ScreenFlow(rq, ShellScript.text(ScreenFlow.class, SOURCE_RESOURCE), quiet);
    List<List<PairRounds.Pair>> rounds = PairRounds.rounds(hf.hosts().size());
    console
        .progress()
        .note(
            "screen: "
                + hf.hosts().size()
                + " nodes alone, then in pairs in "
                + rounds.size()
                + (rounds.size() == 1 ? " round" : " rounds")
                + " ("
                + describe(hf, rounds)
                + "); each measurement "
                + rq.repeat()
                + (rq.repeat() == 1 ? " time" : " times, the best kept"));
    LaunchOutcome out = flow.launch(hf, rounds, false);
    RunSummary s = out.summary();
    if (s == null || !s.jobRan()) {
      return new ScreenOutcome(out.exitCode(), null, out, Map.of(), List.of());
    }
    ScreenFigures f = figures(hf, rounds, s);
    if (!f.missing().isEmpty()) {
      List<String> notes = flow.writeJUnit(null, f.missing());
      return new ScreenOutcome(ExitCode.CHECK_FAILED.value(), null, null, f.missing(), notes);
    }
    ScreenJudge.Verdict v =
        ScreenJudge.judge(
            hf.names(), f.nodes(), f.pairs(), rq.judging().tolerances(), expected, f.spreads());
    List<String> notes = new ArrayList<>();
    String gpuNote = gpuNote(flow.gpus);
    if (gpuNote != null) {
      notes.add(gpuNote);
    }
    SecondLook look = SecondLook.of(v);
    if (look != null) {
      Hostfile sub = look.hostfile(hf);
      LaunchOutcome again = flow.launchSecondLook(sub, look, v, console);
      RunSummary s2 = again.summary();
      if (s2 != null && s2.outcome() == RunEnd.INTERRUPTED) {
        // stopped by a signal (Ctrl-C, a hang-up): the screen ends there, as a run would
        return new ScreenOutcome(again.exitCode(), null, again, Map.of(), List.of());
      }
      v = flow.judgeAgain(sub, look, f, v, again, notes);
    }
    notes.addAll(flow.writeJUnit(v, Map.of()));
    if (rq.writeHostfile() != null) {
      ScreenHostfile.write(
          hf.origin().equals(hf.source()) ? rq.input().hostfile() : null,
          hf,
          v.flaggedNodes(),
          rq.writeHostfile());
      notes.add(
          "wrote "
              + rq.writeHostfile()
              + " without "
              + (v.flaggedNodes().isEmpty()
                  ? "any node (none flagged)"
                  : String.join(", ", v.flaggedNodes())));
    }
    notes.add(ScreenRecord.append(v, s, cluster, flow.workspace));
    return new ScreenOutcome(
        v.clean() ? ExitCode.OK.value() : ExitCode.RESULT_FAILED.value(), v, null, Map.of(), notes);
  }

  /**
   * Runs the second look ({@link SecondLook}) at what {@code v} flagged on its nodes ({@code sub}),
   * with the image the first run pinned and no checks (they just passed on these nodes).
   */
  private LaunchOutcome launchSecondLook(
      Hostfile sub, SecondLook look, ScreenJudge.Verdict v, Console console)
      throws IOException, InterruptedException {
    console
        .progress()
        .note(
            "screen: "
                + ScreenReport.verdictLine(v)
                + "; a second look before reporting: "
                + look.describe());
    return launch(sub, look.rounds(sub), true);
  }

  /**
   * The verdict on the better of each figure's two measurements, or {@code v} when the second look
   * could not run.
   */
  private ScreenJudge.Verdict judgeAgain(
      Hostfile sub,
      SecondLook look,
      ScreenFigures first,
      ScreenJudge.Verdict v,
      LaunchOutcome again,
      List<String> notes)
      throws IOException {
    RunSummary s = again.summary();
    if (s == null || !s.jobRan()) {
      notes.add(
          "the second look could not run (exit "
              + again.exitCode()
              + "); the first measurement stands");
      return v;
    }
    List<String> all = v.nodes().stream().map(ScreenJudge.NodeRow::node).toList();
    SecondLook.Merged m = look.merge(all, first, figures(sub, look.rounds(sub), s));
    return ScreenJudge.again(v, m.figures(), rq.judging().tolerances(), m.rechecks());
  }

  private static ScreenFigures figures(
      Hostfile hf, List<List<PairRounds.Pair>> rounds, RunSummary s) throws IOException {
    Path log = Path.of(s.runDir()).resolve("stdout.log");
    String text =
        Files.isRegularFile(log) ? new String(Files.readAllBytes(log), StandardCharsets.UTF_8) : "";
    String why =
        "run " + s.runId() + " " + s.outcome() + ", exit " + s.exitCode() + "; see " + s.runDir();
    List<PairRounds.Pair> pairs = rounds.stream().flatMap(List::stream).toList();
    return ScreenFigures.of(ScreenParser.parse(text), hf.names(), pairs, why);
  }

  private List<String> writeJUnit(ScreenJudge.Verdict v, Map<String, String> notRun)
      throws IOException {
    if (rq.junit() == null) {
      return List.of();
    }
    AtomicFiles.write(rq.junit(), ScreenReport.junit(v, notRun, Instant.now()));
    return List.of("wrote " + rq.junit());
  }

  private static String describe(Hostfile hf, List<List<PairRounds.Pair>> rounds) {
    List<String> out = new ArrayList<>();
    for (List<PairRounds.Pair> round : rounds) {
      List<String> pairs = new ArrayList<>();
      for (PairRounds.Pair p : round) {
        pairs.add(hf.hosts().get(p.a()).name() + "-" + hf.hosts().get(p.b()).name());
      }
      out.add(String.join(" ", pairs));
    }
    return String.join(", then ", out);
  }

  /**
   * One run of the program on {@code hf}'s nodes; {@code again}: the second look, in the image the
   * first run pinned and without the checks.
   */
  private LaunchOutcome launch(Hostfile hf, List<List<PairRounds.Pair>> rounds, boolean again)
      throws IOException, InterruptedException {
    ResolvedJob first = resolve(hf, List.of("true"));
    if (again && pinnedImage != null) {
      first = first.withImage(pinnedImage);
    }
    if (first.image().value() == null && first.containerName().source() == Source.DEFAULT) {
      throw new BadInputException(
          "--container-image",
          "screen needs the job's container: an enroot URI or a .sqsh file with Open MPI and"
              + " mpicc, or --container-name of an existing container");
    }
    workspace = Path.of(first.workspacePath().value());
    Path dir = workspace.resolve("screen");
    Files.createDirectories(dir.resolve("bin"));
    String srcName = "screen-" + Sha256.hex(source).substring(0, 12) + ".c";
    Path src = dir.resolve(srcName);
    if (!Files.isRegularFile(src)) {
      AtomicFiles.write(src, source);
    }
    List<String> words =
        List.of(
            Integer.toString(rq.repeat()),
            Integer.toString(hf.hosts().size()),
            PairRounds.argument(rounds));
    LaunchOptions o = again ? rq.launch().withoutChecks() : rq.launch();
    Launch launch =
        new Launch(hf, first, LaunchFlow.newRunId("screen"), null, o, rq.clusterrunVersion());
    return LaunchFlow.launch(
        launch,
        (session, report, job) -> {
          if (report != null && !again) {
            // in hostfile order: the note names nodes as the hostfile does (the facts are
            // unordered)
            for (String node : hf.names()) {
              var facts = report.facts().get(node);
              if (facts != null) {
                gpus.put(node, facts.gpus().count());
              }
            }
          }
          return withProgram(hf, job, srcName, words);
        },
        quiet);
  }

  /**
   * What a verdict does not cover on GPU nodes, or null when no node has a GPU: the program
   * measures the CPUs, the memory and the host network, not the GPUs. {@code gpus}: node → the GPUs
   * its facts counted (null: none seen).
   */
  static String gpuNote(Map<String, Integer> gpus) {
    TreeMap<Integer, List<String>> byCount = new TreeMap<>();
    gpus.forEach(
        (node, n) -> {
          if (n != null && n > 0) {
            byCount.computeIfAbsent(n, k -> new ArrayList<>()).add(node);
          }
        });
    if (byCount.isEmpty()) {
      return null;
    }
    int nodes = byCount.values().stream().mapToInt(List::size).sum();
    List<String> counts = new ArrayList<>();
    byCount
        .descendingMap()
        .forEach(
            (n, names) ->
                counts.add(
                    n
                        + (n == 1 ? " GPU" : " GPUs")
                        + (byCount.size() == 1
                            ? " each"
                            : " on "
                                + (names.size() <= 3
                                    ? String.join(", ", names)
                                    : names.size() + " nodes"))));
    return "GPUs not screened: "
        + nodes
        + (nodes == 1 ? " node has" : " nodes have")
        + " NVIDIA GPUs ("
        + String.join("; ", counts)
        + "); this screen measured CPUs, memory and the host network, not the GPUs, NVLink or"
        + " the GPUs' network adapters (docs/screen.md, \"Not built yet\")";
  }

  /** The job with its command, once the image is pinned (its identity names the binary). */
  private ResolvedJob withProgram(
      Hostfile hf, ResolvedJob pinned, String srcName, List<String> words) throws IOException {
    pinnedImage = pinned.image();
    String key = Sha256.hex(source + "\n" + imageIdentity(pinned)).substring(0, 16);
    String m = pinned.workspaceMount().value();
    String inContainer =
        (m.endsWith("/") && m.length() > 1 ? m.substring(0, m.length() - 1) : m) + "/screen/";
    return resolve(hf, command(inContainer + srcName, inContainer + "bin/screen-" + key, words))
        .withImage(pinned.image());
  }

  /** What each rank runs: {@link #SCRIPT} with the source, the binary and the program's words. */
  static List<String> command(String source, String binary, List<String> words) {
    List<String> command = new ArrayList<>(List.of("sh", "-c", SCRIPT, "clusterrun-screen"));
    command.add(source);
    command.add(binary);
    command.addAll(words);
    return command;
  }

  /**
   * What identifies the container's contents: the pinned URI, the file, or the container's name.
   */
  static String imageIdentity(ResolvedJob job) throws IOException {
    ImageRef img = job.image().value();
    if (img == null) {
      return "container " + job.containerName().value();
    }
    if (img.isUri()) {
      return "image " + img.value();
    }
    Path f = Path.of(img.value()).toAbsolutePath();
    return "file "
        + f
        + " "
        + Files.size(f)
        + " "
        + Files.getLastModifiedTime(f).toMillis()
        + " "
        + job.containerName().value();
  }

  private ResolvedJob resolve(Hostfile hf, List<String> command) {
    JobResolver r = new JobResolver();
    r.layer(rq.input().flags(), Source.FLAG, "flags");
    r.layer(
        new JobSpec(
            "screen",
            ContainerSpec.EMPTY,
            WorkspaceSpec.EMPTY,
            new MpiSpec(null, null, MCA, null, MPIRUN_ARGS, null),
            command,
            SshSpec.EMPTY,
            "screen"),
        Source.DEFAULT,
        "screen: one rank on each slot, no binding");
    r.environment(rq.input().env());
    return r.resolve(hf, rq.input().home(), rq.input().cwd());
  }
}
