package dev.clusterrun.cli;

import dev.clusterrun.core.BadInputException;
import dev.clusterrun.core.bench.BaselineGate;
import dev.clusterrun.core.bench.BenchPreset;
import dev.clusterrun.core.bench.BenchResult;
import dev.clusterrun.core.bench.DatPicker;
import dev.clusterrun.core.bench.GateResult;
import dev.clusterrun.core.bench.HpccInput;
import dev.clusterrun.core.bench.HplScriptLocator;
import dev.clusterrun.core.bench.JUnitReport;
import dev.clusterrun.core.bench.PresetOptions;
import dev.clusterrun.core.bench.ResultsJson;
import dev.clusterrun.core.bench.ResultsLog;
import dev.clusterrun.core.bench.SummaryTable;
import dev.clusterrun.core.check.CheckReport;
import dev.clusterrun.core.check.Facts;
import dev.clusterrun.core.cluster.Hostfile;
import dev.clusterrun.core.cluster.HostfileParser;
import dev.clusterrun.core.enroot.EnrootArgs;
import dev.clusterrun.core.enroot.LaunchAgent;
import dev.clusterrun.core.launch.ContainerPreparer;
import dev.clusterrun.core.launch.HeadCommands;
import dev.clusterrun.core.launch.JobResolver;
import dev.clusterrun.core.launch.Plan;
import dev.clusterrun.core.launch.PlanRenderer;
import dev.clusterrun.core.launch.Planner;
import dev.clusterrun.core.launch.ResolvedJob;
import dev.clusterrun.core.launch.RunSummary;
import dev.clusterrun.core.launch.Source;
import dev.clusterrun.core.remote.ExecResult;
import dev.clusterrun.core.remote.NodeShell;
import dev.clusterrun.core.spec.ContainerSpec;
import dev.clusterrun.core.spec.ImageRef;
import dev.clusterrun.core.spec.JobSpec;
import dev.clusterrun.core.spec.MpiSpec;
import dev.clusterrun.core.spec.SshSpec;
import dev.clusterrun.core.spec.WorkspaceSpec;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The flow of {@code hpl} and {@code bench PRESET}: the preset's job (image, named container,
 * workspace, command) resolved under the user's flags and environment, finished on the head once
 * the checks passed (hpl.sh and the sample dat file found in the container, hpcc's input written
 * into the run directory), run by {@link JobLaunch}, then its output parsed into a result that is
 * printed, written to {@code results.json}, appended to the workspace's results log, optionally
 * written as JUnit XML and compared with a baseline.
 */
final class BenchFlow {
  /** Where the workspace appears in the container: not /workspace, where NVIDIA's scripts live. */
  static final String WORKSPACE_MOUNT = "/app";

  /** The named container NVIDIA HPC-Benchmarks presets share, reused across runs. */
  static final String HPC_BENCHMARKS_CONTAINER = "hpc-benchmarks";

  // Measured with 3 ranks on a 2-core VM (hpcc sizes its RandomAccess table from N too): N=4032
  // 70 s and N=2016 11 s on a quiet machine; under a load average of 8, N=1920 took 167 s and
  // N=960 9.5 s. The default keeps a CI run well under a minute on a busy machine.
  static final long DEFAULT_HPCC_MAX_N = 1000;
  static final double DEFAULT_MAX_REGRESSION = 5;

  /** Exit code of a benchmark that ran but FAILED, could not be read, or regressed. */
  static final int BENCH_FAILED = 1;

  /** Where the x86_64 image keeps hpl.sh and the sample dat files; shown by a dry run only. */
  static final String DRY_RUN_HPL_SH = BenchPreset.HpcBenchmarks.HPL_SH;

  static final String DRY_RUN_SAMPLE_DIR = "/workspace/hpl-linux-x86_64/sample-dat/";

  private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(30);

  private final RootCommand root;
  private final BenchPreset preset;
  private final Hostfile hostfile;
  private final JobOptions job;
  private final BenchOptions bench;
  private final List<String> extraArgs;
  private final String runId;

  BenchFlow(
      RootCommand root,
      BenchPreset preset,
      Hostfile hostfile,
      JobOptions job,
      BenchOptions bench,
      List<String> extraArgs,
      String runId) {
    this.root = root;
    this.preset = preset;
    this.hostfile = hostfile;
    this.job = job;
    this.bench = bench;
    this.extraArgs = extraArgs == null ? List.of() : List.copyOf(extraArgs);
    this.runId = runId;
  }

  /** Runs (or with --dry-run, plans) one preset; returns the exit code. */
  static int run(
      RootCommand root,
      BenchPreset preset,
      Path nodes,
      JobOptions job,
      RunOptions runOpts,
      SshOptions ssh,
      BenchOptions bench,
      List<String> extraArgs)
      throws IOException, InterruptedException {
    validate(preset, job, bench);
    Hostfile hostfile = HostfileParser.read(nodes);
    BenchResult baseline = bench.baseline == null ? null : ResultsJson.read(bench.baseline);
    BaselineGate gate = baseline == null ? null : gate(bench);
    String runId = Planner.newRunId(preset.id(), Instant.now(), new SecureRandom());
    BenchFlow flow = new BenchFlow(root, preset, hostfile, job, bench, extraArgs, runId);
    ResolvedJob first = flow.resolve(List.of(preset.id()), null);
    flow.requireContainer(first);
    if (bench.dryRun) {
      return flow.dryRun(first);
    }
    JobLaunch.Outcome out =
        JobLaunch.run(
            root,
            hostfile,
            first,
            ssh,
            runOpts,
            !job.noHook,
            runId,
            null,
            (session, report) -> flow.finish(first, session, report));
    return flow.report(first, out, runOpts, baseline, gate);
  }

  // ---------------------------------------------------------------------------------------------
  // Input

  static void validate(BenchPreset preset, JobOptions job, BenchOptions b) {
    String id = preset.id();
    if (preset != BenchPreset.HPL) {
      only(b.dat != null, "--dat", id, "hpl");
      only(b.gpuModel != null, "--gpu-model", id, "hpl");
      only(b.nvshmem, "--nvshmem", id, "hpl");
    }
    if (preset == BenchPreset.NCCL || preset == BenchPreset.HPCC) {
      String scripts = "hpl, hpl-mxp, hpcg and stream (NVIDIA's launcher scripts)";
      only(b.cpuAffinity != null, "--cpu-affinity", id, scripts);
      only(b.memAffinity != null, "--mem-affinity", id, scripts);
      only(b.gpuAffinity != null, "--gpu-affinity", id, scripts);
      only(b.scriptArgs != null, "--hpl-arg", id, scripts);
    }
    if (preset != BenchPreset.HPCC) {
      only(b.hpccN != null, "--hpcc-n", id, "hpcc");
      only(b.hpccMaxN != DEFAULT_HPCC_MAX_N, "--hpcc-max-n", id, "hpcc");
      only(b.memoryFraction != HpccInput.DEFAULT_MEMORY_FRACTION, "--memory-fraction", id, "hpcc");
    } else {
      if (job.workdir != null) {
        throw new BadInputException(
            "--container-workdir",
            "hpcc runs in its run directory (it reads hpccinf.txt and writes hpccoutf.txt there);"
                + " leave it out");
      }
      if (b.hpccN != null && b.hpccN < 1) {
        throw new BadInputException("--hpcc-n", "must be at least 1, got " + b.hpccN);
      }
      if (b.hpccMaxN < 0) {
        throw new BadInputException("--hpcc-max-n", "must be 0 (no cap) or more");
      }
      if (!(b.memoryFraction > 0 && b.memoryFraction <= 1)) {
        throw new BadInputException("--memory-fraction", "must be in (0, 1]");
      }
    }
    if (b.maxRegression != null && b.baseline == null) {
      throw new BadInputException(
          "--max-regression", "needs --baseline FILE (the results.json to compare with)");
    }
    if (b.junit != null && Files.isDirectory(b.junit)) {
      throw new BadInputException("--junit", b.junit + " is a directory; give a file name");
    }
    if (b.dat != null && !b.dat.equals("auto")) {
      Path p = Path.of(b.dat);
      if (!Files.isRegularFile(p)) {
        throw new BadInputException(
            "--dat", "no such file: " + b.dat + " (give an HPL.dat file or `auto`)");
      }
      if (!Files.isReadable(p)) {
        throw new BadInputException("--dat", "cannot read " + b.dat);
      }
    }
  }

  private static void only(boolean given, String flag, String preset, String forWhat) {
    if (given) {
      throw new BadInputException(flag, "only for " + forWhat + ", not " + preset);
    }
  }

  static BaselineGate gate(BenchOptions b) {
    double pct = b.maxRegression == null ? DEFAULT_MAX_REGRESSION : b.maxRegression;
    try {
      return new BaselineGate(pct);
    } catch (IllegalArgumentException e) {
      throw new BadInputException("--max-regression", e.getMessage());
    }
  }

  /**
   * The job: the user's flags and {@code CLUSTERRUN_*} environment over the preset's defaults
   * (image, named container, workspace mount, NVSHMEM environment, the command).
   */
  ResolvedJob resolve(List<String> command, String hpccWorkdir) {
    JobResolver r = new JobResolver();
    r.layer(job.toLayer(null), Source.FLAG, "flags");
    if (bench.mpiArgs != null) {
      r.layer(
          new JobSpec(
              null,
              ContainerSpec.EMPTY,
              WorkspaceSpec.EMPTY,
              new MpiSpec(null, null, null, null, List.copyOf(bench.mpiArgs), null),
              null,
              SshSpec.EMPTY,
              "--mpi-arg"),
          Source.FLAG,
          "--mpi-arg");
    }
    if (hpccWorkdir != null) {
      // Above the environment: hpcc must run where its input is, whatever the variables say.
      r.layer(
          new JobSpec(
              null,
              new ContainerSpec(null, null, null, hpccWorkdir, null, null, null, null, null, null),
              WorkspaceSpec.EMPTY,
              MpiSpec.EMPTY,
              null,
              SshSpec.EMPTY,
              "hpcc"),
          Source.DEFAULT,
          "hpcc preset: the run directory");
    }
    r.environment(root.env);
    Map<String, String> env = preset.environment(options());
    Map<String, String> mca = new LinkedHashMap<>();
    if (!env.isEmpty()) {
      List<String> pairs = new ArrayList<>();
      env.forEach((k, v) -> pairs.add(k + "=" + v));
      // Open MPI sets these in every rank's environment, on every node (the seed's recipe).
      mca.put("mca_base_env_list", String.join(";", pairs));
    }
    String defaultImage = preset.defaultImage().orElse(null);
    r.layer(
        new JobSpec(
            preset.id(),
            new ContainerSpec(
                defaultImage == null ? null : ImageRef.parse(defaultImage),
                defaultContainerName(preset),
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null),
            new WorkspaceSpec(null, WORKSPACE_MOUNT),
            new MpiSpec(null, null, mca.isEmpty() ? null : mca, null, null, null),
            command,
            SshSpec.EMPTY,
            preset.id() + " preset"),
        Source.DEFAULT,
        preset.id() + " preset");
    String home = root.env.getOrDefault("HOME", System.getProperty("user.home"));
    return r.resolve(hostfile, home);
  }

  static String defaultContainerName(BenchPreset p) {
    return p.defaultImage().isPresent() ? HPC_BENCHMARKS_CONTAINER : "clusterrun-" + p.id();
  }

  /** Presets with no default image need one (or an existing container the user names). */
  void requireContainer(ResolvedJob resolved) {
    if (resolved.image().value() == null && resolved.containerName().source() == Source.DEFAULT) {
      String what =
          preset == BenchPreset.HPCC
              ? "an enroot URI or a .sqsh file with Debian's hpcc and Open MPI"
              : "an enroot URI or a .sqsh file with nccl-tests' all_reduce_perf";
      throw new BadInputException(
          "--container-image",
          preset.id()
              + " has no default image; give one ("
              + what
              + ") or --container-name of an existing container");
    }
  }

  private PresetOptions options() {
    List<String> pt = new ArrayList<>();
    if (bench.cpuAffinity != null) {
      pt.add("--cpu-affinity");
      pt.add(bench.cpuAffinity);
    }
    if (bench.memAffinity != null) {
      pt.add("--mem-affinity");
      pt.add(bench.memAffinity);
    }
    if (bench.gpuAffinity != null) {
      pt.add("--gpu-affinity");
      pt.add(bench.gpuAffinity);
    }
    if (bench.scriptArgs != null) {
      pt.addAll(bench.scriptArgs);
    }
    return PresetOptions.defaults()
        .withNvshmem(bench.nvshmem)
        .withPassThrough(pt)
        .withExtraArgs(extraArgs);
  }

  private String datChoice() {
    return bench.dat == null ? "auto" : bench.dat;
  }

  /** The run directory as the ranks see it. */
  String runDirInContainer(ResolvedJob j) {
    String m = j.workspaceMount().value();
    return (m.endsWith("/") && m.length() > 1 ? m.substring(0, m.length() - 1) : m)
        + "/runs/"
        + runId;
  }

  private Plan plan(ResolvedJob j, boolean hook) {
    return Planner.plan(j, hostfile, new Planner.Options(runId, LaunchAgent.Daemon.ORTED, hook));
  }

  // ---------------------------------------------------------------------------------------------
  // Dry run

  int dryRun(ResolvedJob first) {
    PresetOptions o = options();
    String hpccWorkdir = null;
    List<String> notes = new ArrayList<>();
    if (preset == BenchPreset.HPL) {
      notes.add(
          "hpl.sh: shown as "
              + DRY_RUN_HPL_SH
              + "; a run looks it up in the container (its path differs between releases)");
      String dat = datChoice();
      if (!dat.equals("auto")) {
        String inContainer = runDirInContainer(first) + "/" + Path.of(dat).getFileName();
        notes.add("--dat: " + dat + " is copied into the run directory as " + inContainer);
        o = o.withDat(inContainer);
      } else {
        int gpus = first.np().value();
        String name = DatPicker.expectedName(bench.gpuModel, gpus);
        if (name != null) {
          notes.add(
              "--dat auto: "
                  + name
                  + " is NVIDIA's sample for "
                  + gpus
                  + " "
                  + bench.gpuModel
                  + " GPUs (one per rank); a run picks among the files in the container");
          o = o.withDat(DRY_RUN_SAMPLE_DIR + name);
        } else {
          notes.add(
              "--dat auto is resolved at run time from the GPU model (nvidia-smi -L) and "
                  + gpus
                  + " GPUs; give --gpu-model to see the file here");
          o = o.withDat("<auto: " + gpus + " GPUs>");
        }
      }
    } else if (preset == BenchPreset.HPCC) {
      HpccInput in = hpccInput(first.np().value());
      notes.add(
          HpccInput.FILE_NAME
              + " is written into the run directory: N="
              + in.n()
              + " NB="
              + in.nb()
              + " P x Q="
              + in.p()
              + " x "
              + in.q());
      hpccWorkdir = runDirInContainer(first);
      o = o.withHpccInput(in);
    }
    ResolvedJob j = resolve(preset.command(o), hpccWorkdir);
    Plan plan = plan(j, !job.noHook);
    root.out.print(PlanRenderer.text(plan));
    root.out.flush();
    for (String n : notes) {
      root.err.println("clusterrun: " + preset.id() + ": " + n);
    }
    root.err.println("clusterrun: " + preset.id() + ": dry run; no node was touched");
    return ExitCodes.OK;
  }

  // ---------------------------------------------------------------------------------------------
  // Run: finishing the job on the head once the checks passed

  ResolvedJob finish(ResolvedJob first, ClusterSession session, CheckReport report)
      throws IOException, InterruptedException {
    Plan plan0 = plan(first, !job.noHook);
    Path runDir = Path.of(plan0.runDir());
    Files.createDirectories(runDir);
    PresetOptions o = options();
    String hpccWorkdir = null;
    if (preset == BenchPreset.HPL) {
      o = finishHpl(first, plan0, runDir, session, report, o);
    } else if (preset == BenchPreset.HPCC) {
      HpccInput in = hpccInput(first.np().value());
      for (Map.Entry<String, String> f : preset.inputFiles(o.withHpccInput(in)).entrySet()) {
        Files.writeString(runDir.resolve(f.getKey()), f.getValue(), StandardCharsets.UTF_8);
      }
      say(
          HpccInput.FILE_NAME
              + ": N="
              + in.n()
              + " NB="
              + in.nb()
              + " P x Q="
              + in.p()
              + " x "
              + in.q()
              + " in "
              + runDir);
      o = o.withHpccInput(in);
      hpccWorkdir = runDirInContainer(first);
    }
    return resolve(preset.command(o), hpccWorkdir);
  }

  private PresetOptions finishHpl(
      ResolvedJob first,
      Plan plan0,
      Path runDir,
      ClusterSession session,
      CheckReport report,
      PresetOptions o)
      throws IOException, InterruptedException {
    // The container must exist to look inside; JobRunner finds it ready afterwards.
    try {
      for (String a :
          new ContainerPreparer(HeadCommands.LOCAL, root.rawErr)
              .prepare(plan0, first.workspacePath().value())
              .actions()) {
        say(a);
      }
    } catch (ContainerPreparer.PrepareException e) {
      throw new UserFacingException(preset.id() + ": " + e.getMessage(), ExitCodes.SETUP_FAILED);
    }
    String dat = datChoice();
    boolean auto = dat.equals("auto");
    HeadCommands.Captured c =
        HeadCommands.LOCAL.capture(
            EnrootArgs.start(
                new EnrootArgs.ContainerFlags(false, false, List.of(), Map.of()),
                List.of(),
                plan0.containerName(),
                List.of("sh", "-c", probeScript(auto))),
            Map.of());
    Probe probe = Probe.parse(c.stdout());
    if (c.exitCode() != 0 && probe.scripts().isEmpty()) {
      throw new UserFacingException(
          preset.id()
              + ": cannot look inside container "
              + plan0.containerName()
              + ": "
              + c.stderr().strip(),
          ExitCodes.SETUP_FAILED);
    }
    HplScriptLocator.Pick script = HplScriptLocator.pick(probe.scripts(), probe.arch());
    if (!script.found()) {
      throw new BadInputException(
          "--container-image", script.reason() + "; is this NVIDIA's hpc-benchmarks image?");
    }
    say("hpl.sh: " + script.reason());
    o = o.withHplScript(script.path());
    if (!auto) {
      Path copy = stageDat(Path.of(dat), runDir);
      String inContainer = runDirInContainer(first) + "/" + copy.getFileName();
      say("--dat: copied " + dat + " to " + copy + " (" + inContainer + " in the container)");
      return o.withDat(inContainer);
    }
    Gpus gpus = bench.gpuModel != null ? null : gpus(session, report);
    String model = bench.gpuModel != null ? bench.gpuModel : gpus.model();
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
    List<String> candidates = forArch(probe.dats(), probe.arch());
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
    return o.withDat(pick.file());
  }

  /** Lists hpl.sh candidates, sample dat files (when asked) and the architecture. */
  static String probeScript(boolean dats) {
    return "ls -d "
        + String.join(" ", HplScriptLocator.SEARCH_PATHS)
        + " 2>/dev/null; echo @@dat; "
        + (dats
            ? "find /workspace /opt/nvidia -path '*sample-dat*' -name '*.dat' 2>/dev/null; "
            : "")
        + "echo @@arch; uname -m; true";
  }

  /** What the probe printed. */
  record Probe(List<String> scripts, List<String> dats, String arch) {
    static Probe parse(String out) {
      List<String> scripts = new ArrayList<>();
      List<String> dats = new ArrayList<>();
      String arch = null;
      int section = 0;
      for (String raw : out.split("\n")) {
        String line = raw.strip();
        if (line.isEmpty()) {
          continue;
        }
        if (line.equals("@@dat")) {
          section = 1;
        } else if (line.equals("@@arch")) {
          section = 2;
        } else if (section == 0) {
          scripts.add(line);
        } else if (section == 1) {
          dats.add(line);
        } else if (arch == null) {
          arch = line;
        }
      }
      return new Probe(scripts, dats, arch);
    }
  }

  /** Drops sample files of the other architecture's package ({@code hpl-linux-aarch64*}). */
  static List<String> forArch(List<String> dats, String arch) {
    if (arch == null) {
      return dats;
    }
    List<String> out = new ArrayList<>();
    for (String d : dats) {
      int i = d.indexOf("/hpl-linux-");
      if (i < 0 || d.startsWith("/hpl-linux-" + arch, i)) {
        out.add(d);
      }
    }
    return out;
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

  /** GPU model (of the first node that has one) and total count over the hostfile's nodes. */
  record Gpus(String model, int total) {}

  private Gpus gpus(ClusterSession session, CheckReport report) throws InterruptedException {
    Map<String, String> lists = new LinkedHashMap<>();
    if (report != null) {
      String model = null;
      int total = 0;
      for (String n : hostfile.names()) {
        Facts f = report.facts().get(n);
        if (f == null) {
          continue;
        }
        total += f.gpuCount() == null ? 0 : f.gpuCount();
        if (model == null && f.gpuModel() != null) {
          model = f.gpuModel();
        }
      }
      return new Gpus(model, total);
    }
    ExecutorService pool = Executors.newFixedThreadPool(Math.min(16, hostfile.names().size()));
    try {
      Map<String, Future<ExecResult>> fs = new LinkedHashMap<>();
      for (String n : hostfile.names()) {
        NodeShell s = session.shells.get(n);
        if (s != null) {
          fs.put(n, pool.submit(() -> s.run("nvidia-smi -L", PROBE_TIMEOUT)));
        }
      }
      for (var e : fs.entrySet()) {
        try {
          ExecResult r = e.getValue().get();
          lists.put(e.getKey(), r.ok() ? r.stdout() : "");
        } catch (java.util.concurrent.ExecutionException x) {
          lists.put(e.getKey(), "");
        }
      }
    } finally {
      pool.shutdownNow();
    }
    return gpusFromSmi(lists.values());
  }

  static Gpus gpusFromSmi(Iterable<String> outputs) {
    String model = null;
    int total = 0;
    for (String out : outputs) {
      for (String line : out.split("\n")) {
        if (line.startsWith("GPU ")) {
          total++;
          if (model == null) {
            model = line.strip();
          }
        }
      }
    }
    return new Gpus(model, total);
  }

  private static final Pattern MEM_TOTAL = Pattern.compile("(?m)^MemTotal:\\s+(\\d+)\\s*kB");

  /** hpcc's input: --hpcc-n, or N sized from the head's MemTotal × nodes, capped. */
  HpccInput hpccInput(int ranks) {
    if (bench.hpccN != null) {
      int nb = (int) Math.min(HpccInput.DEFAULT_NB, bench.hpccN);
      long n = bench.hpccN - bench.hpccN % nb;
      int[] g = HpccInput.grid(ranks);
      return new HpccInput(n, nb, g[0], g[1]);
    }
    long perNode = memTotalBytes();
    return HpccInput.size(
        perNode * hostfile.hosts().size(),
        ranks,
        bench.memoryFraction,
        HpccInput.DEFAULT_NB,
        bench.hpccMaxN);
  }

  static long memTotalBytes() {
    String text;
    try {
      text = Files.readString(Path.of("/proc/meminfo"), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new BadInputException(
          "hpcc",
          "cannot read MemTotal from /proc/meminfo (" + e.getMessage() + "); give --hpcc-n");
    }
    Matcher m = MEM_TOTAL.matcher(text);
    if (!m.find()) {
      throw new BadInputException("hpcc", "no MemTotal in /proc/meminfo; give --hpcc-n");
    }
    return Long.parseLong(m.group(1)) * 1024;
  }

  private void say(String line) {
    root.err.println("clusterrun: " + preset.id() + ": " + line);
    root.err.flush();
  }

  // ---------------------------------------------------------------------------------------------
  // After the run

  int report(
      ResolvedJob first,
      JobLaunch.Outcome out,
      RunOptions runOpts,
      BenchResult baseline,
      BaselineGate gate)
      throws IOException {
    RunSummary s = out.result() == null ? null : out.result().summary();
    boolean jobRan =
        s != null
            && !runOpts.canaryOnly
            && (s.outcome().equals("succeeded") || s.outcome().equals("failed"));
    if (!jobRan) {
      if (bench.junit != null && !runOpts.canaryOnly) {
        String why =
            s == null
                ? "checks failed"
                : s.outcome() + (s.message() == null ? "" : ": " + s.message());
        BenchResult notRun =
            BenchResult.parseError(preset.id(), "the benchmark did not run: " + why);
        JUnitReport.write(bench.junit, List.of(new JUnitReport.Case(notRun)), Instant.now());
      }
      return out.exitCode();
    }
    Path runDir = Path.of(s.runDir());
    BenchResult result =
        parse(preset, runDir)
            .withRun(
                s.nodes(),
                s.ranks(),
                preset == BenchPreset.HPCC ? null : s.ranks(),
                s.image() != null ? s.image() : "container " + s.container(),
                instant(s.startedAt()),
                instant(s.endedAt()));
    for (String line : SummaryTable.lines(result)) {
      root.out.println(line);
    }
    root.out.flush();
    ResultsJson.write(runDir.resolve(ResultsJson.FILE_NAME), result);
    ResultsLog log = ResultsLog.inWorkspace(Path.of(first.workspacePath().value()));
    log.append(result);
    say("wrote " + runDir.resolve(ResultsJson.FILE_NAME) + "; appended to " + log.file());
    GateResult g = gate == null ? null : gate.check(result, baseline);
    if (g != null) {
      say("baseline " + bench.baseline + ": " + g.message());
    }
    if (bench.junit != null) {
      JUnitReport.write(bench.junit, List.of(new JUnitReport.Case(result, g)), Instant.now());
      say("wrote JUnit report " + bench.junit);
    }
    int code = verdict(out.exitCode(), result, g);
    if (code == BENCH_FAILED) {
      say(
          !result.passed()
              ? "the benchmark " + result.verdict() + ": " + result.reason()
              : "the result fell below the baseline");
    }
    return code;
  }

  /**
   * The exit code of a benchmark run: the job's own code when it failed; else {@link #BENCH_FAILED}
   * when the result is not PASSED (FAILED residual, unreadable output) or the gate failed; else 0.
   */
  static int verdict(int jobExit, BenchResult result, GateResult gate) {
    if (jobExit != 0) {
      return jobExit;
    }
    if (result == null || !result.passed()) {
      return BENCH_FAILED;
    }
    if (gate != null && !gate.passed()) {
      return BENCH_FAILED;
    }
    return ExitCodes.OK;
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
    } catch (java.time.format.DateTimeParseException e) {
      return null;
    }
  }
}
