package dev.clusterrun.core.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clusterrun.core.check.CheckReport;
import dev.clusterrun.core.cluster.HostfileParser;
import dev.clusterrun.core.launch.LaunchOutcome;
import dev.clusterrun.core.launch.container.ContainerPreparer;
import dev.clusterrun.core.launch.job.JobInput;
import dev.clusterrun.core.launch.job.LaunchOptions;
import dev.clusterrun.core.launch.job.ResolvedJob;
import dev.clusterrun.core.launch.plan.Plan;
import dev.clusterrun.core.launch.run.RunEnd;
import dev.clusterrun.core.launch.run.RunSummary;
import dev.clusterrun.core.session.Console;
import dev.clusterrun.core.session.Progress;
import dev.clusterrun.core.spec.JobSpec;
import dev.clusterrun.core.spec.JobSpecBuilder;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What happens after the benchmark ran: parse, report, record, gate, exit code. */
class BenchFlowTest {
  static final Path FIXTURES = Path.of("src/test/resources/bench").toAbsolutePath();

  static BenchResult passed(double gflops) {
    return BenchResult.builder("hpcc")
        .verdict(Verdict.PASSED)
        .headline(new Metric("HPL", gflops, "Gflops"))
        .build();
  }

  @Test
  void verdictMapsResultGateAndJobExitToTheExitCode() {
    BenchResult ok = passed(10);
    BenchResult failed =
        BenchResult.builder("hpl").verdict(Verdict.FAILED).reason("residual check FAILED").build();
    BenchResult unreadable = BenchResult.parseError("hpl", "no result rows");
    GateResult held = new GateResult(true, "within", 10.0, 10.0, 0.0);
    GateResult fell = new GateResult(false, "fell", 10.0, 8.0, -20.0);

    assertThat(BenchFlow.verdict(0, ok, null)).isZero();
    assertThat(BenchFlow.verdict(0, ok, held)).isZero();
    assertThat(BenchFlow.verdict(0, ok, fell)).isEqualTo(1);
    assertThat(BenchFlow.verdict(0, failed, null)).isEqualTo(1);
    assertThat(BenchFlow.verdict(0, unreadable, null)).isEqualTo(1);
    assertThat(BenchFlow.verdict(0, null, null)).isEqualTo(1);
    // the job's own failure is passed on, whatever the output says
    assertThat(BenchFlow.verdict(7, ok, held)).isEqualTo(7);
    assertThat(BenchFlow.verdict(139, failed, fell)).isEqualTo(139);
  }

  @Test
  void baselineGateFromResultsJsonFiles(@TempDir Path tmp) throws Exception {
    Path base = tmp.resolve("baseline.json");
    Path now = tmp.resolve("now.json");
    ResultsJson.write(base, passed(100));
    ResultsJson.write(now, passed(94));
    BenchResult baseline = ResultsJson.read(base);
    BenchResult current = ResultsJson.read(now);

    BenchSettings five = settings(null, null, null);
    GateResult g5 = five.gate().check(current, baseline); // default 5 %
    assertThat(g5.passed()).isFalse();
    assertThat(BenchFlow.verdict(0, current, g5)).isEqualTo(1);

    BenchSettings ten = settings(null, 10.0, null);
    GateResult g10 = ten.gate().check(current, baseline);
    assertThat(g10.passed()).isTrue();
    assertThat(g10.message()).contains("100 -> 94 Gflops").contains("-6");
    assertThat(BenchFlow.verdict(0, current, g10)).isZero();
  }

  /** What hpl and bench were asked: a JUnit report, a maximal regression, references. */
  static BenchSettings settings(Path junit, Double maxRegression, Path references) {
    return new BenchSettings(
        new BenchSettings.Hpl(null, null, false),
        new BenchSettings.Scripts(null, null, null, null),
        null,
        BenchSettings.Hpcc.DEFAULTS,
        new BenchSettings.Reporting(junit, null, maxRegression, references, null),
        false);
  }

  /** A fake finished run: the run directory with the program's output, and its summary. */
  record Fixture(BenchFlow flow, ResolvedJob job, Path ws, Path runDir, Path tmp) {}

  static ByteArrayOutputStream out = new ByteArrayOutputStream();
  static ByteArrayOutputStream err = new ByteArrayOutputStream();

  /** The job flags with only an image (and a container name, when given). */
  static JobSpec flags(String image, String name) {
    return JobSpecBuilder.layer("flags").image(image).containerName(name).build();
  }

  static BenchRequest request(Path tmp, BenchPreset preset, JobSpec flags, BenchSettings bench) {
    Path ws = tmp.resolve("ws");
    return new BenchRequest(
        preset,
        new JobInput(
            new dev.clusterrun.core.cluster.NodeSelection(
                tmp.resolve("hosts.txt").toString(), null, List.of(), null),
            null,
            flags,
            Map.of("HOME", tmp.toString(), "CLUSTERRUN_WORKSPACE", ws.toString()),
            tmp),
        LaunchOptions.of(false, false, false, "auto", false),
        bench,
        List.of(),
        "test");
  }

  /** Notes as the CLI prints them on stderr. */
  static Console console() {
    PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8);
    return new Console(
        new Progress() {
          @Override
          public void note(String line) {
            e.println("clusterrun: " + line);
          }
        },
        null,
        null,
        null,
        null);
  }

  static Fixture fixture(Path tmp, BenchSettings bench) throws Exception {
    out.reset();
    err.reset();
    Path ws = tmp.resolve("ws");
    Files.createDirectories(tmp);
    Path hosts = tmp.resolve("hosts.txt");
    Files.writeString(hosts, "n1 slots=1\nn2 slots=1\nn3 slots=1\n");
    BenchRequest rq = request(tmp, BenchPreset.HPCC, flags("/images/hpcc.sqsh", null), bench);
    String runId = "20261121-061500-hpcc-0001";
    BenchFlow flow = new BenchFlow(rq, HostfileParser.read(hosts), runId, console());
    ResolvedJob first =
        new BenchJob(rq, HostfileParser.read(hosts), runId).resolve(List.of("hpcc"), null);
    Path runDir = ws.resolve("runs/20261121-061500-hpcc-0001");
    Files.createDirectories(runDir);
    return new Fixture(flow, first, ws, runDir, tmp);
  }

  /** The flow's report on a run, its stdout as the CLI prints it; returns the exit code. */
  static int report(Fixture f, LaunchOutcome ran, Gates gates) throws Exception {
    BenchOutcome o = f.flow().report(f.job(), ran, gates);
    for (String line : o.stdout()) {
      out.writeBytes((line + "\n").getBytes(StandardCharsets.UTF_8));
    }
    return o.exitCode();
  }

  static RunSummary summary(Fixture f, String outcome, int exit) {
    return RunSummary.builder()
        .plan(
            Plan.builder()
                .jobName("hpcc")
                .runId("20261121-061500-hpcc-0001")
                .runDir(f.runDir().toString())
                .nodes(List.of("n1", "n2", "n3"))
                .np(3)
                .image("/images/hpcc.sqsh")
                .containerName("clusterrun-hpcc")
                .daemon("orted")
                .build())
        .ended(outcome.equals("succeeded") ? RunEnd.SUCCEEDED : RunEnd.FAILED, exit)
        .times("2026-11-21T06:15:00Z", "2026-11-21T06:15:12Z")
        .build();
  }

  static LaunchOutcome ran(Fixture f, String outcome, int exit) {
    return new LaunchOutcome.Ran(summary(f, outcome, exit));
  }

  static String stdout() {
    return out.toString(StandardCharsets.UTF_8);
  }

  static String stderr() {
    return err.toString(StandardCharsets.UTF_8);
  }

  @Test
  void aPassingHpccRunIsPrintedRecordedAndReported(@TempDir Path tmp) throws Exception {
    BenchSettings bench = settings(tmp.resolve("reports/junit.xml"), null, null);
    Fixture f = fixture(tmp, bench);
    Files.copy(FIXTURES.resolve("hpcc-np2-real.hpccoutf.txt"), f.runDir().resolve("hpccoutf.txt"));

    int code = report(f, ran(f, "succeeded", 0), Gates.none("hosts"));

    assertThat(code).as(stderr()).isZero();
    assertThat(stdout()).startsWith("hpcc: PASSED\n").contains("Gflops").contains("n1, n2, n3");
    BenchResult written = ResultsJson.read(f.runDir().resolve("results.json"));
    assertThat(written.verdict()).isEqualTo(Verdict.PASSED);
    assertThat(written.preset()).isEqualTo("hpcc");
    assertThat(written.nodes()).containsExactly("n1", "n2", "n3");
    assertThat(written.ranks()).isEqualTo(3);
    assertThat(written.gpus()).isNull();
    assertThat(written.image()).isEqualTo("/images/hpcc.sqsh");
    assertThat(written.startTime()).hasToString("2026-11-21T06:15:00Z");
    ResultsLog.Contents log = ResultsLog.inWorkspace(f.ws()).read();
    assertThat(log.results()).hasSize(1);
    assertThat(log.results().get(0).headline()).isEqualTo(written.headline());
    String xml = Files.readString(bench.reporting().junit());
    assertThat(xml)
        .contains("<testsuite name=\"clusterrun.bench.hpcc\"")
        .contains("failures=\"0\"");
  }

  @Test
  void aBaseline25PercentHigherFailsTheRun(@TempDir Path tmp) throws Exception {
    BenchSettings bench = settings(tmp.resolve("junit.xml"), null, null);
    Fixture f = fixture(tmp, bench);
    Files.copy(FIXTURES.resolve("hpcc-np2-real.hpccoutf.txt"), f.runDir().resolve("hpccoutf.txt"));
    BenchResult actual = BenchFlow.parse(BenchPreset.HPCC, f.runDir()); // what this output measures
    Metric h = actual.headline();
    BenchResult baseline =
        actual.toBuilder().headline(new Metric(h.name(), h.value() * 1.25, h.unit())).build();

    int code =
        report(
            f,
            ran(f, "succeeded", 0),
            new Gates(
                baseline, new BaselineGate(BenchSettings.DEFAULT_MAX_REGRESSION), null, "hosts"));

    assertThat(code).isEqualTo(1);
    assertThat(stdout()).startsWith("hpcc: PASSED\n");
    assertThat(stderr()).contains("fell by more than the allowed 5%");
    assertThat(Files.readString(bench.reporting().junit()))
        .contains("hpcc vs baseline")
        .contains("failures=\"1\"");
  }

  @Test
  void referencesJudgeTheRunAndAMetricOutsideExits1(@TempDir Path tmp) throws Exception {
    BenchSettings bench = settings(tmp.resolve("junit.xml"), null, tmp.resolve("refs.yaml"));
    Fixture f = fixture(tmp, bench);
    Files.copy(FIXTURES.resolve("hpcc-np2-real.hpccoutf.txt"), f.runDir().resolve("hpccoutf.txt"));
    References refs =
        References.parse(
            "clusters:\n  hosts:\n    hpcc:\n      - nodes: 3\n        metrics:\n"
                + "          HPL: {value: 12, lower: -10%, unit: Gflops}\n"
                + "          StarSTREAM_Triad: {value: 40, lower: -10%}\n",
            "refs.yaml");

    int code = report(f, ran(f, "succeeded", 0), new Gates(null, null, refs, "hosts"));

    // HPL 9.78 Gflops < 10.8: outside, whatever the benchmark's own PASSED
    assertThat(code).isEqualTo(1);
    assertThat(stdout()).startsWith("hpcc: PASSED\n");
    assertThat(stderr())
        .contains(
            "clusterrun: hpcc: references "
                + bench.reporting().references()
                + ": hpcc: reference hosts/hpcc nodes=3: HPL 9.78027 Gflops is below the reference"
                + " [10.8, +inf] (12 Gflops -10%/+inf) at refs.yaml:6:11; StarSTREAM_Triad 43.2749 GB/s"
                + " within [36, +inf] (40 -10%/+inf)")
        .contains("clusterrun: hpcc: the result lies outside its reference");
    assertThat(Files.readString(bench.reporting().junit()))
        .contains("name=\"hpcc vs references\"")
        .contains("type=\"OUTSIDE_REFERENCE\"")
        .contains("failures=\"1\"");
    BenchResult written = ResultsJson.read(f.runDir().resolve("results.json"));
    assertThat(written.cluster()).isEqualTo("hosts");
    assertThat(written.runId()).isEqualTo("20261121-061500-hpcc-0001");
    assertThat(written.runDir()).isEqualTo(f.runDir().toString());

    // within: exit 0
    Fixture g = fixture(tmp.resolve("b"), bench);
    Files.copy(FIXTURES.resolve("hpcc-np2-real.hpccoutf.txt"), g.runDir().resolve("hpccoutf.txt"));
    References wide =
        References.parse(
            "clusters:\n  '*':\n    hpcc:\n      - metrics: {HPL: {value: 9, lower: -10%}}\n",
            "refs.yaml");
    assertThat(report(g, ran(g, "succeeded", 0), new Gates(null, null, wide, "hosts")))
        .as(stderr())
        .isZero();
  }

  @Test
  void aRunInANamedContainerGivenWithoutAnImageRecordsWhatMadeTheContainer(@TempDir Path tmp)
      throws Exception {
    Fixture f = fixture(tmp, settings(null, null, null));
    RunSummary s = ran(f, "succeeded", 0).summary();
    // the image given: that one
    assertThat(ContainerPreparer.imageOfRun(f.job(), s.image(), s.container()))
        .isEqualTo("/images/hpcc.sqsh");

    // hpl --container-name=mine: the preset's image is not what ran; the container's record says
    BenchJob hpl =
        new BenchJob(
            request(tmp, BenchPreset.HPL, flags(null, "mine"), settings(null, null, null)),
            HostfileParser.read(tmp.resolve("hosts.txt")),
            "RUN");
    ResolvedJob j = hpl.resolve(List.of("hpl"), null);
    RunSummary ranInMine =
        RunSummary.builder()
            .plan(
                Plan.builder()
                    .jobName("hpl")
                    .runId("RUN")
                    .runDir(f.runDir().toString())
                    .nodes(List.of("n1"))
                    .np(1)
                    .image(j.image().value().value())
                    .containerName("mine")
                    .daemon("orted")
                    .build())
            .ended(RunEnd.SUCCEEDED, 0)
            .build();
    assertThat(ContainerPreparer.imageOfRun(j, ranInMine.image(), ranInMine.container()))
        .isEqualTo("container mine");
    Path record = f.ws().resolve(".clusterrun/containers/mine.image");
    Files.createDirectories(record.getParent());
    Files.writeString(record, "/images/hpl-custom.sqsh size=10 mtime=1\n");
    assertThat(ContainerPreparer.imageOfRun(j, ranInMine.image(), ranInMine.container()))
        .isEqualTo("/images/hpl-custom.sqsh");
  }

  @Test
  void unreadableOrFailedOutputIsNeverAPass(@TempDir Path tmp) throws Exception {
    Fixture f = fixture(tmp, settings(null, null, null));
    Files.copy(
        FIXTURES.resolve("hpcc-np2-truncated.hpccoutf.txt"), f.runDir().resolve("hpccoutf.txt"));
    assertThat(report(f, ran(f, "succeeded", 0), Gates.none("hosts"))).isEqualTo(1);
    assertThat(stdout()).startsWith("hpcc: PARSE_ERROR");
    assertThat(ResultsJson.read(f.runDir().resolve("results.json")).verdict())
        .isEqualTo(Verdict.PARSE_ERROR);

    Fixture g = fixture(tmp.resolve("b"), settings(null, null, null));
    Files.copy(
        FIXTURES.resolve("hpcc-np2-edited-failed.hpccoutf.txt"),
        g.runDir().resolve("hpccoutf.txt"));
    assertThat(report(g, ran(g, "succeeded", 0), Gates.none("hosts"))).isEqualTo(1);
    assertThat(stdout()).startsWith("hpcc: FAILED");

    // no output file at all, and the job failed: the job's code is kept
    Fixture n = fixture(tmp.resolve("c"), settings(null, null, null));
    assertThat(report(n, ran(n, "failed", 9), Gates.none("hosts"))).isEqualTo(9);
    assertThat(stdout()).startsWith("hpcc: PARSE_ERROR: no output:");
  }

  @Test
  void aRunStoppedBeforeTheBenchmarkStillGivesCiAFailingReport(@TempDir Path tmp) throws Exception {
    BenchSettings bench = settings(tmp.resolve("junit.xml"), null, null);
    Fixture f = fixture(tmp, bench);
    int code = report(f, new LaunchOutcome.ChecksFailed((CheckReport) null), Gates.none("hosts"));
    assertThat(code).isEqualTo(3);
    assertThat(Files.readString(bench.reporting().junit()))
        .contains("failures=\"1\"")
        .contains("the benchmark did not run: checks failed");
    assertThat(Files.exists(f.ws().resolve("results.jsonl"))).isFalse();
  }

  @Test
  void stageDatCopiesTheFileIntoTheRunDirectory(@TempDir Path tmp) throws Exception {
    Path dat = tmp.resolve("HPL.dat");
    Files.writeString(dat, "N 1000\n");
    Path runDir = tmp.resolve("ws/runs/r1");
    Path copy = BenchFlow.stageDat(dat, runDir);
    assertThat(copy).isEqualTo(runDir.resolve("HPL.dat"));
    assertThat(Files.readString(copy)).isEqualTo("N 1000\n");
  }

  @Test
  void probeOutputAndArchitectureFilter() {
    HplProbe p =
        HplProbe.parse(
            "/workspace/hpl.sh\n/workspace/hpl-linux-x86_64/hpl.sh\n@@dat\n"
                + "/workspace/hpl-linux-x86_64/sample-dat/HPL-H200-16GPUs.dat\n"
                + "/workspace/hpl-linux-aarch64-gpu/sample-dat/HPL-H200-16GPUs.dat\n"
                + "@@arch\nx86_64\n");
    assertThat(p.scripts())
        .containsExactly("/workspace/hpl.sh", "/workspace/hpl-linux-x86_64/hpl.sh");
    assertThat(p.arch()).isEqualTo("x86_64");
    assertThat(HplProbe.forArch(p.dats(), p.arch()))
        .containsExactly("/workspace/hpl-linux-x86_64/sample-dat/HPL-H200-16GPUs.dat");
    // What the script runs (ls -d with the patterns first; find only when asked): HplProbeTest.
  }

  @Test
  void gpusFromNvidiaSmi() {
    Gpus g =
        Gpus.fromSmi(
            List.of(
                "GPU 0: NVIDIA H200 (UUID: GPU-a)\nGPU 1: NVIDIA H200 (UUID: GPU-b)\n",
                "",
                "GPU 0: NVIDIA H200 (UUID: GPU-c)\n"));
    assertThat(g.total()).isEqualTo(3);
    assertThat(g.model()).isEqualTo("GPU 0: NVIDIA H200 (UUID: GPU-a)");
  }
}
