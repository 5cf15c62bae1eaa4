package dev.clusterrun.core.bench;

import dev.clusterrun.core.BadInputException;
import dev.clusterrun.core.ExitCode;
import dev.clusterrun.core.ExitException;
import dev.clusterrun.core.check.CheckReport;
import dev.clusterrun.core.check.Facts;
import dev.clusterrun.core.cluster.Hostfile;
import dev.clusterrun.core.enroot.EnrootArgs;
import dev.clusterrun.core.launch.Launch;
import dev.clusterrun.core.launch.LaunchFlow;
import dev.clusterrun.core.launch.LaunchOutcome;
import dev.clusterrun.core.launch.container.ContainerPreparer;
import dev.clusterrun.core.launch.container.PrepareException;
import dev.clusterrun.core.launch.head.HeadCommands;
import dev.clusterrun.core.launch.job.CanaryMode;
import dev.clusterrun.core.launch.job.LaunchOptions;
import dev.clusterrun.core.launch.job.ResolvedJob;
import dev.clusterrun.core.launch.job.Source;
import dev.clusterrun.core.launch.plan.Plan;
import dev.clusterrun.core.launch.plan.PlanRenderer;
import dev.clusterrun.core.launch.run.RunSummary;
import dev.clusterrun.core.remote.ExecResult;
import dev.clusterrun.core.session.Console;
import dev.clusterrun.core.session.Session;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The flow of {@code hpl} and {@code bench PRESET}: the preset's job ({@link BenchJob}) finished on
 * the head once the checks passed (hpl.sh and the sample dat file found in the container, hpcc's
 * input written into the run directory), run by {@link LaunchFlow}, then its output parsed into a
 * result that is reported, written to {@code results.json}, appended to the workspace's results
 * log, optionally written as JUnit XML and held against a baseline and references.
 */
public final class BenchFlow {
  /** Where the x86_64 image keeps hpl.sh and the sample dat files; shown by a dry run only. */
  static final String DRY_RUN_HPL_SH = BenchPreset.HpcBenchmarks.HPL_SH;

  static final String DRY_RUN_SAMPLE_DIR = "/workspace/hpl-linux-x86_64/sample-dat/";

  private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(30);

  private final BenchJob job;
  private final BenchSettings settings;
  private final LaunchOptions launch;
  private final Console console;

  BenchFlow(BenchRequest rq, Hostfile hostfile, String runId, Console console) {
    this.job = new BenchJob(rq, hostfile, runId);
    this.settings = rq.settings();
    this.launch = rq.launch();
    this.console = console;
  }

  /** Runs (or with {@code --dry-run}, plans) one preset. */
  public static BenchOutcome run(BenchRequest rq, Console console)
      throws IOException, InterruptedException {
    BenchPreset preset = rq.preset();
    BenchSettings.Reporting reporting = rq.settings().reporting();
    rq.settings().validate(preset, rq.input().flags());
    Hostfile hostfile = rq.input().readHostfile();
    BenchResult baseline =
        reporting.baseline() == null ? null : ResultsJson.read(reporting.baseline());
    BaselineGate gate = baseline == null ? null : rq.settings().gate();
    References references =
        reporting.references() == null ? null : References.read(reporting.references());
    String cluster = References.clusterName(reporting.cluster(), rq.input().hostfile());
    String runId = LaunchFlow.newRunId(preset.id());
    BenchFlow flow = new BenchFlow(rq, hostfile, runId, console);
    ResolvedJob first = flow.job.resolve(List.of(preset.id()), null);
    flow.job.requireContainer(first);
    if (references != null) {
      Integer ranks = first.np().value();
      String problem =
          references.cannotFit(
              cluster,
              preset.id(),
              new References.Size(
                  hostfile.hosts().size(), ranks, preset == BenchPreset.HPCC ? null : ranks, null));
      if (problem != null) {
        throw new BadInputException("--references", problem);
      }
    }
    String logProblem = ResultsLog.inWorkspace(Path.of(first.workspacePath().value())).problem();
    if (logProblem != null) {
      // Found now, not after the benchmark ran: the result could not be appended.
      var ws = first.workspacePath();
      throw new BadInputException(
          ws.source() == Source.DEFAULT ? "workspace" : ws.origin(), logProblem);
    }
    if (rq.settings().dryRun()) {
      return flow.dryRun(first);
    }
    LaunchOutcome out =
        LaunchFlow.launch(
            new Launch(hostfile, first, runId, null, rq.launch(), rq.clusterrunVersion()),
            (session, report, j) -> flow.finish(j, session, report),
            console);
    return flow.report(first, out, new Gates(baseline, gate, references, cluster));
  }

  // ---------------------------------------------------------------------------------------------
  // Dry run

  BenchOutcome dryRun(ResolvedJob first) {
    PresetOptions o = job.options();
    String hpccWorkdir = null;
    List<String> notes = new ArrayList<>();
    if (job.preset() == BenchPreset.HPL) {
      notes.add(
          "hpl.sh: shown as "
              + DRY_RUN_HPL_SH
              + "; a run looks it up in the container (its path differs between releases)");
      o = dryRunDat(first, o, notes);
    } else if (job.preset() == BenchPreset.HPCC) {
      HpccInput in = hpccInput(first);
      notes.add(HpccInput.FILE_NAME + " is written into the run directory: " + in.describe());
      hpccWorkdir = job.runDirInContainer(first);
      o = o.withHpccInput(in);
    }
    ResolvedJob j = job.resolve(job.preset().command(o), hpccWorkdir);
    Plan plan = ContainerPreparer.lookUp(job.plan(j), j.workspacePath().value());
    for (String n : notes) {
      say(n);
    }
    say("dry run; no node was touched");
    return BenchOutcome.dryRun(PlanRenderer.text(plan));
  }

  private PresetOptions dryRunDat(ResolvedJob first, PresetOptions o, List<String> notes) {
    HplDat dat = settings.hpl().datOrAuto();
    if (!dat.auto()) {
      String inContainer = job.runDirInContainer(first) + "/" + Path.of(dat.file()).getFileName();
      notes.add("--dat: " + dat.file() + " is copied into the run directory as " + inContainer);
      return o.withDat(inContainer);
    }
    int gpus = first.np().value();
    String model = settings.hpl().gpuModel();
    String name = DatPicker.expectedName(model, gpus);
    if (name != null) {
      notes.add(
          "--dat auto: "
              + name
              + " is NVIDIA's sample for "
              + gpus
              + " "
              + model
              + " GPUs (one per rank); a run picks among the files in the container");
      return o.withDat(DRY_RUN_SAMPLE_DIR + name);
    }
    notes.add(
        "--dat auto is resolved at run time from the GPU model (nvidia-smi -L) and "
            + gpus
            + " GPUs; give --gpu-model to see the file here");
    return o.withDat("<auto: " + gpus + " GPUs>");
  }

  private HpccInput hpccInput(ResolvedJob first) {
    return HpccInput.forRun(settings.hpcc(), first.np().value(), job.hostfile().hosts().size());
  }

  // ---------------------------------------------------------------------------------------------
  // Run: finishing the job on the head once the checks passed

  ResolvedJob finish(ResolvedJob first, Session session, CheckReport report)
      throws IOException, InterruptedException {
    Plan plan0 = job.plan(first);
    Path runDir = Path.of(plan0.runDir());
    Files.createDirectories(runDir);
    PresetOptions o = job.options();
    String hpccWorkdir = null;
    if (job.preset() == BenchPreset.HPL) {
      o = finishHpl(first, plan0, runDir, session, report, o);
    } else if (job.preset() == BenchPreset.HPCC) {
      HpccInput in = hpccInput(first);
      for (Map.Entry<String, String> f : job.preset().inputFiles(o.withHpccInput(in)).entrySet()) {
        Files.writeString(runDir.resolve(f.getKey()), f.getValue(), StandardCharsets.UTF_8);
      }
      say(HpccInput.FILE_NAME + ": " + in.describe() + " in " + runDir);
      o = o.withHpccInput(in);
      hpccWorkdir = job.runDirInContainer(first);
    }
    // The command is finished from the preset's layers again; the image stays the one the run
    // pinned (its registry tag resolved to a digest).
    return job.resolve(job.preset().command(o), hpccWorkdir).withImage(first.image());
  }

  private PresetOptions finishHpl(
      ResolvedJob first,
      Plan plan0,
      Path runDir,
      Session session,
      CheckReport report,
      PresetOptions o)
      throws IOException, InterruptedException {
    // The container must exist to look inside; the run finds it ready afterwards.
    try {
      for (String a :
          new ContainerPreparer(HeadCommands.LOCAL, console.err())
              .prepare(plan0, first.workspacePath().value())
              .actions()) {
        say(a);
      }
    } catch (PrepareException e) {
      throw new ExitException(ExitCode.SETUP_FAILED, job.preset().id() + ": " + e.getMessage());
    }
    HplDat dat = settings.hpl().datOrAuto();
    HplProbe probe = probe(plan0.containerName(), dat.auto());
    HplScriptLocator.Pick script = HplScriptLocator.pick(probe.scripts(), probe.arch());
    if (!script.found()) {
      boolean byName =
          first.image().source() == Source.DEFAULT
              && first.containerName().source() != Source.DEFAULT;
      throw new BadInputException(
          byName ? "--container-name" : "--container-image",
          script.reason()
              + (byName
                  ? "; was container "
                      + plan0.containerName()
                      + " made from NVIDIA's hpc-benchmarks?"
                  : "; is this NVIDIA's hpc-benchmarks image?"));
    }
    say("hpl.sh: " + script.reason());
    o = o.withHplScript(script.path());
    if (!dat.auto()) {
      Path copy = stageDat(Path.of(dat.file()), runDir);
      String inContainer = job.runDirInContainer(first) + "/" + copy.getFileName();
      say(
          "--dat: copied "
              + dat.file()
              + " to "
              + copy
              + " ("
              + inContainer
              + " in the container)");
      return o.withDat(inContainer);
    }
    return o.withDat(pickDat(first, probe, session, report));
  }

  /** Looks inside the container: hpl.sh candidates, sample dat files, the architecture. */
  private HplProbe probe(String container, boolean dats) throws IOException, InterruptedException {
    HeadCommands.Captured c =
        HeadCommands.LOCAL.capture(
            EnrootArgs.start(
                new EnrootArgs.ContainerFlags(false, false, List.of(), Map.of()),
                List.of(),
                container,
                List.of("sh", "-c", HplProbe.script(dats))),
            Map.of());
    HplProbe probe = HplProbe.parse(c.stdout());
    if (c.exitCode() != 0 && probe.scripts().isEmpty()) {
      throw new ExitException(
          ExitCode.SETUP_FAILED,
          job.preset().id()
              + ": cannot look inside container "
              + container
              + ": "
              + c.stderr().strip());
    }
    return probe;
  }

  /** {@code --dat auto}: NVIDIA's sample for the GPU model and count. */
  private String pickDat(ResolvedJob first, HplProbe probe, Session session, CheckReport report)
      throws InterruptedException {
    String given = settings.hpl().gpuModel();
    Gpus gpus = given != null ? null : gpus(session, report);
    String model = given != null ? given : gpus.model();
    int ranks = first.np().value();
    if (gpus != null && gpus.total() > 0 && gpus.total() != ranks) {
      say(
          "the nodes have "
              + gpus.total()
              + " GPUs but the run has "
              + ranks
              + " ranks (one GPU each): choosing the sample for "
              + ranks
              + " GPUs");
    }
    List<String> candidates = probe.datsForArch();
    DatPicker.Pick pick = DatPicker.pick(candidates, model, ranks);
    if (!pick.found()) {
      throw new BadInputException(
          "--dat auto",
          pick.reason()
              + (candidates.isEmpty()
                  ? ""
                  : "; candidates: "
                      + String.join(
                          ", ",
                          candidates.stream()
                              .map(x -> x.substring(x.lastIndexOf('/') + 1))
                              .toList())));
    }
    say("--dat auto: chose " + pick.file() + ": " + pick.reason());
    return pick.file();
  }

  /** Copies a local dat file into the run directory; returns the copy. */
  static Path stageDat(Path source, Path runDir) throws IOException {
    Files.createDirectories(runDir);
    Path target = runDir.resolve(source.getFileName().toString());
    try {
      Files.copy(source, target, StandardCopyOption.REPLACE_EXISTING);
    } catch (NoSuchFileException e) {
      throw new BadInputException("--dat", "no such file: " + source);
    }
    return target;
  }

  /** The GPUs: from the checks' facts, or (checks skipped) nvidia-smi on every node. */
  private Gpus gpus(Session session, CheckReport report) throws InterruptedException {
    List<String> nodes = job.hostfile().names();
    if (report != null) {
      String model = null;
      int total = 0;
      for (String n : nodes) {
        Facts f = report.facts().get(n);
        if (f == null) {
          continue;
        }
        total += f.gpus().count() == null ? 0 : f.gpus().count();
        if (model == null && f.gpus().model() != null) {
          model = f.gpus().model();
        }
      }
      return new Gpus(model, total);
    }
    List<String> reachable = nodes.stream().filter(n -> session.shells().containsKey(n)).toList();
    Map<String, String> lists =
        session
            .fanOut()
            .byNode(
                reachable,
                n -> {
                  try {
                    ExecResult r = session.shells().get(n).run("nvidia-smi -L", PROBE_TIMEOUT);
                    return r.ok() ? r.stdout() : "";
                  } catch (RuntimeException e) {
                    return "";
                  }
                });
    return Gpus.fromSmi(lists.values());
  }

  private void say(String line) {
    console.progress().note(job.preset().id() + ": " + line);
  }

  // ---------------------------------------------------------------------------------------------
  // After the run

  BenchOutcome report(ResolvedJob first, LaunchOutcome out, Gates gates) throws IOException {
    RunSummary s = out.summary();
    boolean canaryOnly = launch.canary() == CanaryMode.ONLY;
    if (s == null || canaryOnly || !s.jobRan()) {
      Path junit = settings.reporting().junit();
      if (junit != null && !canaryOnly) {
        String why =
            s == null
                ? "checks failed"
                : s.outcome() + (s.message() == null ? "" : ": " + s.message());
        BenchResult notRun =
            BenchResult.parseError(job.preset().id(), "the benchmark did not run: " + why);
        JUnitReport.write(junit, List.of(new JUnitReport.Case(notRun)), Instant.now());
      }
      return new BenchOutcome(out.exitCode(), out, null, List.of());
    }
    Path runDir = Path.of(s.runDir());
    BenchResult result =
        parse(job.preset(), runDir)
            .withRun(
                s.nodes(),
                s.ranks(),
                job.preset() == BenchPreset.HPCC ? null : s.ranks(),
                ContainerPreparer.imageOfRun(first, s.image(), s.container()),
                instant(s.startedAt()),
                instant(s.endedAt()))
            .withOrigin(gates.cluster(), s.runId(), s.runDir());
    ResultsJson.write(runDir.resolve(ResultsJson.FILE_NAME), result);
    ResultsLog log = ResultsLog.inWorkspace(Path.of(first.workspacePath().value()));
    log.append(result);
    say("wrote " + runDir.resolve(ResultsJson.FILE_NAME) + "; appended to " + log.file());
    int code = judge(result, out.exitCode(), gates);
    return new BenchOutcome(code, out, result, SummaryTable.lines(result));
  }

  /** The result against the gates, said and written as JUnit XML; returns the exit code. */
  private int judge(BenchResult result, int jobExit, Gates gates) throws IOException {
    BenchSettings.Reporting reporting = settings.reporting();
    Gates.Judged judged = gates.judge(result);
    GateResult g = judged.baseline();
    if (g != null) {
      say("baseline " + reporting.baseline() + ": " + g.message());
    }
    References.Judgement refs = judged.references();
    if (refs != null) {
      say("references " + reporting.references() + ": " + refs.message());
    }
    if (reporting.junit() != null) {
      JUnitReport.write(
          reporting.junit(), List.of(new JUnitReport.Case(result, g, refs)), Instant.now());
      say("wrote JUnit report " + reporting.junit());
    }
    int code = verdict(jobExit, result, g, refs);
    if (code == ExitCode.RESULT_FAILED.value()) {
      say(
          !result.passed()
              ? "the benchmark " + result.verdict() + ": " + result.reason()
              : g != null && !g.passed()
                  ? "the result fell below the baseline"
                  : "the result lies outside its reference");
    }
    return code;
  }

  /**
   * The exit code of a benchmark run: the job's own code when it failed; else {@link
   * ExitCode#RESULT_FAILED} when the result is not PASSED (FAILED residual, unreadable output) or
   * the gate failed; else 0.
   */
  static int verdict(int jobExit, BenchResult result, GateResult gate) {
    return verdict(jobExit, result, gate, null);
  }

  /** As above, and {@link ExitCode#RESULT_FAILED} when a metric lies outside its reference. */
  static int verdict(
      int jobExit, BenchResult result, GateResult gate, References.Judgement references) {
    int failed = ExitCode.RESULT_FAILED.value();
    if (references != null && !references.passed() && jobExit == 0) {
      return failed;
    }
    if (jobExit != 0) {
      return jobExit;
    }
    if (result == null || !result.passed()) {
      return failed;
    }
    if (gate != null && !gate.passed()) {
      return failed;
    }
    return ExitCode.OK.value();
  }

  /** Parses the preset's output in a run directory; a missing output is a parse error. */
  static BenchResult parse(BenchPreset preset, Path runDir) throws IOException {
    String file = preset.outputFile().orElse("stdout.log");
    Path p = runDir.resolve(file);
    if (!Files.isRegularFile(p)) {
      return BenchResult.parseError(preset.id(), "no output: " + p + " is missing");
    }
    // Benchmarks may print stray bytes; decode leniently rather than fail the run on them.
    return preset.parser().parse(new String(Files.readAllBytes(p), StandardCharsets.UTF_8));
  }

  private static Instant instant(String s) {
    try {
      return s == null ? null : Instant.parse(s);
    } catch (DateTimeParseException e) {
      return null;
    }
  }
}
