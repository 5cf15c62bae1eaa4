package dev.clusterrun.cli;

import static dev.clusterrun.cli.CliTest.on2x8;
import static dev.clusterrun.cli.CliTest.path;
import static dev.clusterrun.cli.CliTest.run;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clusterrun.cli.CliTest.Run;
import dev.clusterrun.core.bench.BenchResult;
import dev.clusterrun.core.bench.Metric;
import dev.clusterrun.core.bench.ResultsLog;
import dev.clusterrun.core.bench.Verdict;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code hpl}, {@code bench} and {@code results} as an operator meets them, without a cluster. */
class BenchCommandsTest {
  /** What every mpirun gets: its ssh launcher, and no scheduler's allocator. */
  static final String NO_SCHEDULER = " --mca plm rsh --mca ras '^slurm,tm,lsf,gridengine,alps'";

  /** The seed's HPL command; mpirun reads the hostfile in the run's own directory. */
  static String seedHpl(String runId) {
    return "mpirun -np 16 --hostfile "
        + hostfile(runId)
        + " --mca mca_base_env_list HPL_USE_NVSHMEM=0"
        + NO_SCHEDULER
        + " /workspace/hpl.sh --dat /workspace/hpl-linux-x86_64/sample-dat/HPL-H200-16GPUs.dat";
  }

  static String hostfile(String runId) {
    return "/app/runs/" + runId + "/hosts.txt";
  }

  static String runId(String out) {
    Matcher m = Pattern.compile("\\(run ([^)]+)\\)").matcher(out);
    assertThat(m.find()).as("run id in %s", out).isTrue();
    return m.group(1);
  }

  /**
   * The launch line's start for the named hpc-benchmarks container, the workspace {@code workspace}
   * mounted at /app, in the run {@code r} printed.
   */
  static String startLine(String workspace, Run r) {
    return "\nenroot start --mount "
        + workspace
        + ":/app --env CLUSTERRUN_RUN_ID="
        + runId(r.out())
        + " --env CLUSTERRUN_HEAD hpc-benchmarks ";
  }

  @Test
  void hplDryRunShowsTheSeedCommandFor2x8H200() {
    Run r = hplDryRun2x8("--gpu-model", "H200", "--dat", "auto");
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(r.out())
        .contains(startLine("/home/tester/clusterrun", r) + seedHpl(runId(r.out())) + "\n")
        .contains("gpu01 slots=8\ngpu02 slots=8\n")
        .contains("enroot import --output /home/tester/clusterrun/images/")
        .contains("'docker://nvcr.io#nvidia/hpc-benchmarks:25.04'");
    assertThat(r.err())
        .contains(
            "clusterrun: hpl: --dat auto: HPL-H200-16GPUs.dat is NVIDIA's sample for 16 H200 GPUs")
        .contains("clusterrun: hpl: dry run; no node was touched");

    // `bench hpl` is the same command; auto is the default; a GPU named as nvidia-smi does
    Run b =
        run(
            "bench",
            "hpl",
            "--dry-run",
            "--nodes",
            path("hostfiles/2x8.txt"),
            "--gpu-model",
            "NVIDIA H200");
    assertThat(b.code()).as(b.err()).isZero();
    assertThat(b.out()).contains(seedHpl(runId(b.out())) + "\n");
  }

  @Test
  void theExampleJobFileRunsWhatHplRuns() {
    Run p = run("plan", path("examples/bench/hpl-seed.yaml"), "--nodes", path("hostfiles/2x8.txt"));
    assertThat(p.code()).as(p.err()).isZero();
    assertThat(p.out())
        .contains(
            startLine("/shared/ws", p)
                + seedHpl("RUN").replace(hostfile("RUN"), "/app/hosts.txt")
                + "\n");
  }

  /** Found by HostileInputPropertyTest: the refusal named "command", not the flag. */
  @Test
  void aScriptWordLongerThanLinuxPassesIsRefusedNamingItsFlag() {
    String big = "x".repeat(140_000);
    for (String flag : List.of("--cpu-affinity", "--hpl-arg", "--mpi-arg")) {
      Run r = hplDryRun2x8(flag + "=" + big);
      assertThat(r.code()).as(flag).isEqualTo(2);
      assertThat(r.err())
          .as(flag)
          .startsWith("clusterrun: " + flag + ": the value is 140000 bytes long")
          .doesNotContain(big);
    }
  }

  @Test
  void hplDryRunWithoutAGpuModelShowsAPlaceholder() {
    Run r = hplDryRun2x8();
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(r.out()).contains("/workspace/hpl.sh --dat '<auto: 16 GPUs>'\n");
    assertThat(r.err()).contains("--dat auto is resolved at run time");
  }

  @Test
  void nvshmemAffinityAndPassThroughWords() {
    Run r =
        hplDryRun2x8(
            "--gpu-model=H200",
            "--nvshmem",
            "--cpu-affinity",
            "0-31:32-63",
            "--gpu-affinity=0:1",
            "--hpl-arg=--ucx-affinity",
            "--hpl-arg",
            "mlx5_0:mlx5_1",
            "--mpi-arg=--bind-to",
            "--mpi-arg",
            "none",
            "--container-image",
            "nvcr.io#nvidia/hpc-benchmarks:24.09",
            "--container-name",
            "hpl-2409",
            "--workspace",
            "/shared/ws",
            "--",
            "--test-loop",
            "2");
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(r.out())
        .contains(
            " hpl-2409 mpirun -np 16 --hostfile "
                + hostfile(runId(r.out()))
                + NO_SCHEDULER
                + " --bind-to none /workspace/hpl.sh"
                + " --dat /workspace/hpl-linux-x86_64/sample-dat/HPL-H200-16GPUs.dat"
                + " --cpu-affinity 0-31:32-63 --gpu-affinity 0:1 --ucx-affinity mlx5_0:mlx5_1"
                + " --test-loop 2\n")
        .contains("'docker://nvcr.io#nvidia/hpc-benchmarks:24.09'")
        .contains("--mount /shared/ws:/app")
        .doesNotContain("HPL_USE_NVSHMEM");
  }

  @Test
  void datFileIsCopiedIntoTheRunDirectoryAndPassedByItsContainerPath(@TempDir Path tmp)
      throws Exception {
    Path dat = tmp.resolve("my-HPL.dat");
    Files.writeString(dat, "HPLinpack benchmark input file\n");
    Run r = hplDryRun2x8("--workspace", "/shared/ws", "--dat", dat.toString());
    assertThat(r.code()).as(r.err()).isZero();
    String id = runId(r.out());
    assertThat(r.out()).contains("/workspace/hpl.sh --dat /app/runs/" + id + "/my-HPL.dat\n");
    assertThat(r.err())
        .contains("--dat: " + dat + " is copied into the run directory as /app/runs/" + id);

    Run missing = hplDryRun2x8("--dat", tmp.resolve("nope.dat").toString());
    assertThat(missing.code()).isEqualTo(2);
    assertThat(missing.out()).isEmpty();
    assertThat(missing.err())
        .isEqualTo(
            "clusterrun: --dat: no such file: "
                + tmp.resolve("nope.dat")
                + " (give an HPL.dat file or `auto`)\n");
  }

  @Test
  void unknownPresetExitsTwoWithTheKnownList() {
    Run r = run("bench", "linpack", "--nodes", path("hostfiles/2x8.txt"), "--dry-run");
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.out()).isEmpty();
    assertThat(r.err())
        .isEqualTo(
            "clusterrun: PRESET: unknown preset 'linpack'; known: hpl, hpl-mxp, hpcg, stream, nccl,"
                + " hpcc\n");
  }

  @Test
  void presetsWithoutADefaultImageNeedOne() {
    for (String p : List.of("hpcc", "nccl")) {
      Run r = run("bench", p, "--nodes", path("hostfiles/2x8.txt"), "--dry-run");
      assertThat(r.code()).isEqualTo(2);
      assertThat(r.err())
          .startsWith("clusterrun: --container-image: " + p + " has no default image; give one");
    }
    // ... and take one from the environment as well as from the flag
    Run e =
        run(
            Map.of("HOME", "/home/tester", "CLUSTERRUN_CONTAINER_IMAGE", "/images/nccl.sqsh"),
            "bench",
            "nccl",
            "--nodes",
            path("hostfiles/2x8.txt"),
            "--dry-run");
    assertThat(e.code()).as(e.err()).isZero();
    assertThat(e.out())
        .contains("enroot create --name clusterrun-nccl /images/nccl.sqsh\n# export the container")
        .contains(
            "enroot export --output /home/tester/clusterrun/.clusterrun/containers/clusterrun-nccl.sqsh"
                + " clusterrun-nccl\n\n## hostfile")
        .contains(
            " clusterrun-nccl mpirun -np 16 --hostfile "
                + hostfile(runId(e.out()))
                + NO_SCHEDULER
                + " all_reduce_perf -b 8 -e 8G -f"
                + " 2 -g 1\n");
  }

  @Test
  void hpccRunsInItsRunDirectoryWithAGeneratedInput() {
    Run r = hpcc2x8("--hpcc-n", "1000", "--dry-run");
    assertThat(r.code()).as(r.err()).isZero();
    String id = runId(r.out());
    assertThat(r.out())
        .contains(
            " clusterrun-hpcc mpirun -np 16 --hostfile "
                + hostfile(id)
                + " --wdir /app/runs/"
                + id
                + NO_SCHEDULER
                + " hpcc\n")
        .doesNotContain("mca_base_env_list");
    assertThat(r.err())
        .contains("clusterrun: hpcc: hpccinf.txt is written into the run directory: N=960 NB=192")
        .contains("P x Q=4 x 4");

    // sized from memory by default, capped so a CI run takes seconds
    Run d = hpcc2x8("--dry-run");
    assertThat(d.code()).as(d.err()).isZero();
    assertThat(d.err()).contains("N=960 NB=192");

    Run wd = hpcc2x8("--container-workdir", "/tmp", "--dry-run");
    assertThat(wd.code()).isEqualTo(2);
    assertThat(wd.err()).startsWith("clusterrun: --container-workdir: hpcc runs in its run");
  }

  @Test
  void optionsThatDoNotApplyToThePresetAreRefused() {
    Run dat =
        run("bench", "stream", "--nodes", path("hostfiles/2x8.txt"), "--dat", "auto", "--dry-run");
    assertThat(dat.code()).isEqualTo(2);
    assertThat(dat.err()).isEqualTo("clusterrun: --dat: only for hpl, not stream\n");

    Run n =
        run("bench", "hpl", "--nodes", path("hostfiles/2x8.txt"), "--hpcc-n", "100", "--dry-run");
    assertThat(n.code()).isEqualTo(2);
    assertThat(n.err()).isEqualTo("clusterrun: --hpcc-n: only for hpcc, not hpl\n");
    // `hpl` does not have hpcc's options at all
    Run h = run("hpl", "--nodes", path("hostfiles/2x8.txt"), "--hpcc-n", "100", "--dry-run");
    assertThat(h.code()).isEqualTo(2);
    assertThat(h.err()).startsWith("clusterrun: Unknown option: '--hpcc-n'");

    Run reg =
        run("hpl", "--nodes", path("hostfiles/2x8.txt"), "--max-regression", "5", "--dry-run");
    assertThat(reg.code()).isEqualTo(2);
    assertThat(reg.err()).contains("--max-regression: needs --baseline FILE");

    Run mxp = run("bench", "hpl-mxp", "--nodes", path("hostfiles/2x8.txt"), "--dry-run");
    assertThat(mxp.code()).isEqualTo(2);
    assertThat(mxp.err()).contains("hpl-mxp: needs the problem as arguments: --n N");
  }

  @Test
  void aBadBaselineFileIsBadInputBeforeAnyNodeIsTouched(@TempDir Path tmp) throws Exception {
    Path bad = tmp.resolve("baseline.json");
    Files.writeString(bad, "{\"preset\": \"hpl\"}");
    Run r =
        run("hpl", "--nodes", path("hostfiles/2x8.txt"), "--baseline", bad.toString(), "--dry-run");
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err())
        .isEqualTo("clusterrun: " + bad + ": no schemaVersion; not a clusterrun results file\n");
  }

  static BenchResult result(String preset, double gflops, Verdict v, String started) {
    return BenchResult.builder(preset)
        .verdict(v)
        .reason(v == Verdict.PASSED ? null : "residual check FAILED")
        .headline(new Metric("HPL", gflops, "Gflops"))
        .n(1920L)
        .nb(192)
        .grid(1, 3)
        .nodes(List.of("n1", "n2", "n3"))
        .image("/images/hpcc.sqsh")
        .startTime(Instant.parse(started))
        .build();
  }

  @Test
  void resultsListsPastRunsSideBySide(@TempDir Path ws) throws Exception {
    ResultsLog log = ResultsLog.inWorkspace(ws);
    log.append(result("hpcc", 5.25, Verdict.PASSED, "2026-11-20T10:00:00Z"));
    log.append(result("hpcc", 4.5, Verdict.FAILED, "2026-11-21T11:30:00Z"));

    Run r = run("results", "--workspace", ws.toString());
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(r.err()).isEmpty();
    List<String> lines = r.out().lines().toList();
    assertThat(lines).hasSize(3);
    assertThat(lines.get(0)).startsWith("#  STARTED").contains("VERDICT");
    assertThat(lines.get(1)).startsWith("1 ").contains("hpcc", "PASSED", "5.25 Gflops", "1x3");
    assertThat(lines.get(2)).startsWith("2 ").contains("FAILED", "4.5 Gflops");

    // the workspace from the environment, the last run only, as JSON
    Run j =
        run(
            Map.of("HOME", "/nowhere", "CLUSTERRUN_WORKSPACE", ws.toString()),
            "results",
            "--json",
            "--last",
            "1");
    JsonNode arr = j.okJson();
    assertThat(arr.isArray()).isTrue();
    assertThat(arr).hasSize(1);
    assertThat(arr.get(0).path("verdict").asText()).isEqualTo("FAILED");
    assertThat(arr.get(0).path("headline").path("value").asDouble()).isEqualTo(4.5);
    assertThat(arr.get(0).path("schemaVersion").asInt()).isEqualTo(1);

    // a damaged line is named and skipped; the others still show
    Files.writeString(log.file(), "{not json\n", StandardCharsets.UTF_8, StandardOpenOption.APPEND);
    Run d = run("results", "--workspace", ws.toString());
    assertThat(d.code()).isZero();
    assertThat(d.err()).startsWith("clusterrun: " + log.file() + ":3: not valid JSON");
    assertThat(d.out().lines()).hasSize(3);
  }

  @Test
  void resultsOfAnEmptyWorkspace(@TempDir Path ws) {
    Run r = run("results", "--workspace", ws.toString());
    assertThat(r.code()).isZero();
    assertThat(r.out()).contains("(no runs recorded yet)");
    assertThat(run("results", "--workspace", ws.toString(), "--json").out()).isEqualTo("[]\n");
    assertThat(run("results", "--last", "0").code()).isEqualTo(2);
  }

  @Test
  void aWorkspaceThatIsAFileOrALogThatIsADirectoryIsBadInput(@TempDir Path tmp) throws Exception {
    Run file = run("results", "--workspace", "/etc/passwd");
    assertThat(file.code()).isEqualTo(2);
    assertThat(file.err())
        .isEqualTo("clusterrun: --workspace: /etc/passwd is a file, not a workspace directory\n");
    Run env = run(Map.of("HOME", "/nowhere", "CLUSTERRUN_WORKSPACE", "/etc/passwd"), "results");
    assertThat(env.code()).isEqualTo(2);
    assertThat(env.err()).startsWith("clusterrun: CLUSTERRUN_WORKSPACE: /etc/passwd is a file");

    Path ws = tmp.resolve("ws");
    Files.createDirectories(ws.resolve("results.jsonl"));
    Run dir = run("results", "--workspace", ws.toString());
    assertThat(dir.code()).isEqualTo(2);
    assertThat(dir.err())
        .startsWith(
            "clusterrun: --workspace: "
                + ws.resolve("results.jsonl")
                + " is a directory; the results log must be a file");
    // a benchmark finds out before it touches a node, not after it ran
    Run bench = hpcc2x8("--workspace", ws.toString(), "--dry-run");
    assertThat(bench.code()).isEqualTo(2);
    assertThat(bench.err()).startsWith("clusterrun: --workspace: " + ws.resolve("results.jsonl"));
  }

  @Test
  void aDirectoryAsDatAndAnUnknownGpuModelAreNamedAsSuch() {
    Run dat = run("hpl", "--nodes", path("hostfiles/2x8.txt"), "--dat", "/tmp", "--dry-run");
    assertThat(dat.code()).isEqualTo(2);
    assertThat(dat.err())
        .isEqualTo("clusterrun: --dat: /tmp is a directory; give an HPL.dat file or `auto`\n");
    Run model = run("hpl", "--nodes", path("hostfiles/2x8.txt"), "--gpu-model", "FOO", "--dry-run");
    assertThat(model.code()).isEqualTo(2);
    assertThat(model.err())
        .isEqualTo(
            "clusterrun: --gpu-model: 'FOO' is not a GPU model; give one such as A100, H100, H200,"
                + " H800, GH200, B200, GB200, B300, GB300 (or a line of nvidia-smi -L)\n");
    Run smi =
        run(
            "hpl",
            "--nodes",
            path("hostfiles/2x8.txt"),
            "--gpu-model",
            "GPU 0: NVIDIA H100 80GB HBM3 (UUID: GPU-x)",
            "--dry-run");
    assertThat(smi.code()).as(smi.err()).isZero();
  }

  @Test
  void aNamedContainerWithoutAnImageIsTakenAsGivenAndThePlanSaysWhatItHolds(@TempDir Path ws)
      throws Exception {
    String[] args = {"--gpu-model", "H200", "--workspace", ws.toString(), "--container-name=mine"};
    Run r = hplDryRun2x8(args);
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(r.out())
        .contains("# container mine holds: unknown: made outside clusterrun (or not made yet)\n")
        .contains(
            "# create the container in the shared data path: only if container mine is missing"
                + " (no image was given: an existing mine is used as it is)\n");
    Path record = ws.resolve(".clusterrun/containers/mine.image");
    Files.createDirectories(record.getParent());
    Files.writeString(record, "docker://nvcr.io#nvidia/hpc-benchmarks:24.09\n");
    assertThat(hplDryRun2x8(args).out())
        .contains(
            "# container mine holds: docker://nvcr.io#nvidia/hpc-benchmarks:24.09"
                + " (clusterrun's record of what made it)\n");
    // plan says it too
    Run p =
        run(
            "plan",
            "--nodes",
            path("hostfiles/2x8.txt"),
            "--workspace",
            ws.toString(),
            "--container-name=mine",
            "--",
            "hostname");
    assertThat(p.out()).contains("# container mine holds: docker://nvcr.io#nvidia/hpc-benchmarks");
  }

  @Test
  void helpDocumentsTheBenchmarkExitCodes() {
    Run h = run("hpl", "--help");
    assertThat(h.code()).isZero();
    assertThat(h.out())
        .contains("--dat=FILE|auto")
        .contains("--nvshmem")
        .contains("Exit codes:")
        .containsPattern("\\n\\s+1\\s+The benchmark ran but FAILED");
    // hpcc's sizing flags are shown where they apply: on bench, never on hpl
    for (String hpccOnly : List.of("--hpcc-n", "--hpcc-max-n", "--memory-fraction")) {
      assertThat(h.out()).doesNotContain(hpccOnly);
    }
    Run b = run("bench", "--help");
    assertThat(b.out()).contains("PRESET").contains("hpl, hpl-mxp, hpcg, stream, nccl or hpcc");
    assertThat(b.out()).contains("--hpcc-n=N", "--hpcc-max-n=N", "--memory-fraction=F");
  }

  /** Every {@code --flag} docs/benchmarks.md names is a real option (or a benchmark's own). */
  @Test
  void everyFlagTheBenchmarkDocNamesExists() throws Exception {
    String doc = Files.readString(Path.of(path("docs/benchmarks.md")));
    var cl = new Cli(System.out, System.err, Map.of()).commandLine();
    java.util.Set<String> known = new java.util.HashSet<>();
    java.util.Deque<picocli.CommandLine> todo =
        new java.util.ArrayDeque<>(cl.getSubcommands().values());
    while (!todo.isEmpty()) {
      var sub = todo.pop();
      sub.getCommandSpec().options().forEach(o -> known.addAll(List.of(o.names())));
      todo.addAll(sub.getSubcommands().values()); // results compare, results report
    }
    cl.getCommandSpec().options().forEach(o -> known.addAll(List.of(o.names())));
    // arguments of the benchmark programs, launcher scripts, mpirun and enroot, not clusterrun's
    known.addAll(
        List.of(
            "--n",
            "--nb",
            "--nprow",
            "--npcol",
            "--nx",
            "--ny",
            "--nz",
            "--rt",
            "--ucx-affinity",
            "--test-loop",
            "--mca",
            "--hostfile",
            "--wdir",
            "--oversubscribe",
            "--bind-to",
            "--mount",
            "--env",
            // the local cluster's cluster.sh limit NODE RATE --to PEER
            "--to"));
    Matcher m = Pattern.compile("(?<![\\w-])--[a-z][a-z0-9-]*").matcher(doc);
    java.util.Set<String> unknown = new java.util.TreeSet<>();
    while (m.find()) {
      if (!known.contains(m.group())) {
        unknown.add(m.group());
      }
    }
    assertThat(unknown).as("flags in docs/benchmarks.md that no command has").isEmpty();
  }

  /** {@code hpl --dry-run --nodes hostfiles/2x8.txt ARGS}. */
  static Run hplDryRun2x8(String... args) {
    return run(on2x8("hpl", "--dry-run"), args);
  }

  /** {@code bench hpcc --nodes hostfiles/2x8.txt --container-image /images/hpcc.sqsh ARGS}. */
  static Run hpcc2x8(String... args) {
    List<String> a = on2x8("bench", "hpcc");
    a.addAll(List.of("--container-image", "/images/hpcc.sqsh"));
    return run(a, args);
  }
}
