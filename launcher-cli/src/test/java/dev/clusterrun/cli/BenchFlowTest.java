package dev.clusterrun.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clusterrun.core.bench.BaselineGate;
import dev.clusterrun.core.bench.BenchPreset;
import dev.clusterrun.core.bench.BenchResult;
import dev.clusterrun.core.bench.GateResult;
import dev.clusterrun.core.bench.Gates;
import dev.clusterrun.core.bench.Metric;
import dev.clusterrun.core.bench.References;
import dev.clusterrun.core.bench.ResultsJson;
import dev.clusterrun.core.bench.ResultsLog;
import dev.clusterrun.core.bench.Verdict;
import dev.clusterrun.core.cluster.HostfileParser;
import dev.clusterrun.core.launch.ContainerPreparer;
import dev.clusterrun.core.launch.JobRunner;
import dev.clusterrun.core.launch.ResolvedJob;
import dev.clusterrun.core.launch.RunSummary;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What happens after the benchmark ran: parse, report, record, gate, exit code. */
class BenchFlowTest {
  static final Path FIXTURES =
      CliTest.ROOT.resolve("launcher-core/src/test/resources/bench").normalize();

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

    BenchOptions five = new BenchOptions();
    GateResult g5 = BenchFlow.gate(five).check(current, baseline); // default 5 %
    assertThat(g5.passed()).isFalse();
    assertThat(BenchFlow.verdict(0, current, g5)).isEqualTo(1);

    BenchOptions ten = new BenchOptions();
    ten.maxRegression = 10.0;
    GateResult g10 = BenchFlow.gate(ten).check(current, baseline);
    assertThat(g10.passed()).isTrue();
    assertThat(g10.message()).contains("100 -> 94 Gflops").contains("-6");
    assertThat(BenchFlow.verdict(0, current, g10)).isZero();
  }

  /** A fake finished run: the run directory with the program's output, and its summary. */
  record Fixture(BenchFlow flow, RootCommand root, ResolvedJob job, Path ws, Path runDir) {}

  static ByteArrayOutputStream out = new ByteArrayOutputStream();
  static ByteArrayOutputStream err = new ByteArrayOutputStream();

  static Fixture fixture(Path tmp, BenchOptions bench) throws Exception {
    out.reset();
    err.reset();
    PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
    PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8);
    Path ws = tmp.resolve("ws");
    RootCommand root =
        new RootCommand(
            o,
            e,
            new PrintWriter(o, true),
            new PrintWriter(e, true),
            Map.of("HOME", tmp.toString(), "CLUSTERRUN_WORKSPACE", ws.toString()));
    Files.createDirectories(tmp);
    Path hosts = tmp.resolve("hosts.txt");
    Files.writeString(hosts, "n1 slots=1\nn2 slots=1\nn3 slots=1\n");
    JobOptions job = new JobOptions();
    job.image = "/images/hpcc.sqsh";
    BenchFlow flow =
        new BenchFlow(
            root,
            BenchPreset.HPCC,
            HostfileParser.read(hosts),
            job,
            bench,
            List.of(),
            "20261121-061500-hpcc-0001");
    ResolvedJob first = flow.resolve(List.of("hpcc"), null);
    Path runDir = ws.resolve("runs/20261121-061500-hpcc-0001");
    Files.createDirectories(runDir);
    return new Fixture(flow, root, first, ws, runDir);
  }

  static JobLaunch.Outcome ran(Fixture f, String outcome, int exit) {
    RunSummary s =
        new RunSummary(
            1,
            "hpcc",
            "20261121-061500-hpcc-0001",
            f.runDir().toString(),
            outcome,
            exit,
            List.of("n1", "n2", "n3"),
            3,
            "/images/hpcc.sqsh",
            "clusterrun-hpcc",
            "orted",
            Map.of(),
            "2026-11-21T06:15:00Z",
            "2026-11-21T06:15:12Z",
            Map.of(),
            List.of(),
            null,
            List.of(),
            null);
    return new JobLaunch.Outcome(exit, new JobRunner.Result(exit, s, null));
  }

  static String stdout() {
    return out.toString(StandardCharsets.UTF_8);
  }

  static String stderr() {
    return err.toString(StandardCharsets.UTF_8);
  }

  @Test
  void aPassingHpccRunIsPrintedRecordedAndReported(@TempDir Path tmp) throws Exception {
    BenchOptions bench = new BenchOptions();
    bench.junit = tmp.resolve("reports/junit.xml");
    Fixture f = fixture(tmp, bench);
    Files.copy(FIXTURES.resolve("hpcc-np2-real.hpccoutf.txt"), f.runDir().resolve("hpccoutf.txt"));

    int code =
        f.flow().report(f.job(), ran(f, "succeeded", 0), new RunOptions(), Gates.none("hosts"));

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
    String xml = Files.readString(bench.junit);
    assertThat(xml)
        .contains("<testsuite name=\"clusterrun.bench.hpcc\"")
        .contains("failures=\"0\"");
  }

  @Test
  void aBaseline25PercentHigherFailsTheRun(@TempDir Path tmp) throws Exception {
    BenchOptions bench = new BenchOptions();
    bench.junit = tmp.resolve("junit.xml");
    Fixture f = fixture(tmp, bench);
    Files.copy(FIXTURES.resolve("hpcc-np2-real.hpccoutf.txt"), f.runDir().resolve("hpccoutf.txt"));
    BenchResult actual = BenchFlow.parse(BenchPreset.HPCC, f.runDir()); // what this output measures
    Metric h = actual.headline();
    BenchResult baseline =
        actual.toBuilder().headline(new Metric(h.name(), h.value() * 1.25, h.unit())).build();

    int code =
        f.flow()
            .report(
                f.job(),
                ran(f, "succeeded", 0),
                new RunOptions(),
                new Gates(
                    baseline, new BaselineGate(BenchFlow.DEFAULT_MAX_REGRESSION), null, "hosts"));

    assertThat(code).isEqualTo(1);
    assertThat(stdout()).startsWith("hpcc: PASSED\n");
    assertThat(stderr()).contains("fell by more than the allowed 5%");
    assertThat(Files.readString(bench.junit))
        .contains("hpcc vs baseline")
        .contains("failures=\"1\"");
  }

  @Test
  void referencesJudgeTheRunAndAMetricOutsideExits1(@TempDir Path tmp) throws Exception {
    BenchOptions bench = new BenchOptions();
    bench.junit = tmp.resolve("junit.xml");
    bench.references = tmp.resolve("refs.yaml");
    Fixture f = fixture(tmp, bench);
    Files.copy(FIXTURES.resolve("hpcc-np2-real.hpccoutf.txt"), f.runDir().resolve("hpccoutf.txt"));
    References refs =
        References.parse(
            "clusters:\n  hosts:\n    hpcc:\n      - nodes: 3\n        metrics:\n"
                + "          HPL: {value: 12, lower: -10%, unit: Gflops}\n"
                + "          StarSTREAM_Triad: {value: 40, lower: -10%}\n",
            "refs.yaml");

    int code =
        f.flow()
            .report(
                f.job(),
                ran(f, "succeeded", 0),
                new RunOptions(),
                new Gates(null, null, refs, "hosts"));

    // HPL 9.78 Gflops < 10.8: outside, whatever the benchmark's own PASSED
    assertThat(code).isEqualTo(1);
    assertThat(stdout()).startsWith("hpcc: PASSED\n");
    assertThat(stderr())
        .contains(
            "clusterrun: hpcc: references "
                + bench.references
                + ": hpcc: reference hosts/hpcc nodes=3: HPL 9.78027 Gflops is below the reference"
                + " [10.8, +inf] (12 Gflops -10%/+inf) at refs.yaml:6:11; StarSTREAM_Triad 43.2749 GB/s"
                + " within [36, +inf] (40 -10%/+inf)")
        .contains("clusterrun: hpcc: the result lies outside its reference");
    assertThat(Files.readString(bench.junit))
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
    assertThat(
            g.flow()
                .report(
                    g.job(),
                    ran(g, "succeeded", 0),
                    new RunOptions(),
                    new Gates(null, null, wide, "hosts")))
        .as(stderr())
        .isZero();
  }

  @Test
  void aRunInANamedContainerGivenWithoutAnImageRecordsWhatMadeTheContainer(@TempDir Path tmp)
      throws Exception {
    Fixture f = fixture(tmp, new BenchOptions());
    RunSummary s = ran(f, "succeeded", 0).result().summary();
    // the image given: that one
    assertThat(ContainerPreparer.imageOfRun(f.job(), s.image(), s.container()))
        .isEqualTo("/images/hpcc.sqsh");

    // hpl --container-name=mine: the preset's image is not what ran; the container's record says
    JobOptions job = new JobOptions();
    job.name = "mine";
    BenchFlow hpl =
        new BenchFlow(
            f.root(),
            BenchPreset.HPL,
            HostfileParser.read(tmp.resolve("hosts.txt")),
            job,
            new BenchOptions(),
            List.of(),
            "RUN");
    ResolvedJob j = hpl.resolve(List.of("hpl"), null);
    RunSummary ranInMine =
        new RunSummary(
            1,
            "hpl",
            "RUN",
            f.runDir().toString(),
            "succeeded",
            0,
            List.of("n1"),
            1,
            j.image().value().value(),
            "mine",
            "orted",
            Map.of(),
            null,
            null,
            Map.of(),
            List.of(),
            null,
            List.of(),
            null);
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
    Fixture f = fixture(tmp, new BenchOptions());
    Files.copy(
        FIXTURES.resolve("hpcc-np2-truncated.hpccoutf.txt"), f.runDir().resolve("hpccoutf.txt"));
    assertThat(
            f.flow().report(f.job(), ran(f, "succeeded", 0), new RunOptions(), Gates.none("hosts")))
        .isEqualTo(1);
    assertThat(stdout()).startsWith("hpcc: PARSE_ERROR");
    assertThat(ResultsJson.read(f.runDir().resolve("results.json")).verdict())
        .isEqualTo(Verdict.PARSE_ERROR);

    Fixture g = fixture(tmp.resolve("b"), new BenchOptions());
    Files.copy(
        FIXTURES.resolve("hpcc-np2-edited-failed.hpccoutf.txt"),
        g.runDir().resolve("hpccoutf.txt"));
    assertThat(
            g.flow().report(g.job(), ran(g, "succeeded", 0), new RunOptions(), Gates.none("hosts")))
        .isEqualTo(1);
    assertThat(stdout()).startsWith("hpcc: FAILED");

    // no output file at all, and the job failed: the job's code is kept
    Fixture n = fixture(tmp.resolve("c"), new BenchOptions());
    assertThat(n.flow().report(n.job(), ran(n, "failed", 9), new RunOptions(), Gates.none("hosts")))
        .isEqualTo(9);
    assertThat(stdout()).startsWith("hpcc: PARSE_ERROR: no output:");
  }

  @Test
  void aRunStoppedBeforeTheBenchmarkStillGivesCiAFailingReport(@TempDir Path tmp) throws Exception {
    BenchOptions bench = new BenchOptions();
    bench.junit = tmp.resolve("junit.xml");
    Fixture f = fixture(tmp, bench);
    int code =
        f.flow()
            .report(
                f.job(),
                new JobLaunch.Outcome(ExitCodes.CHECK_FAILED, null),
                new RunOptions(),
                Gates.none("hosts"));
    assertThat(code).isEqualTo(3);
    assertThat(Files.readString(bench.junit))
        .contains("failures=\"1\"")
        .contains("the benchmark did not run: checks failed");
    assertThat(Files.exists(f.ws().resolve("results.jsonl"))).isFalse();
  }

  @Test
  void probeOutputAndArchitectureFilter() {
    BenchFlow.Probe p =
        BenchFlow.Probe.parse(
            "/workspace/hpl.sh\n/workspace/hpl-linux-x86_64/hpl.sh\n@@dat\n"
                + "/workspace/hpl-linux-x86_64/sample-dat/HPL-H200-16GPUs.dat\n"
                + "/workspace/hpl-linux-aarch64-gpu/sample-dat/HPL-H200-16GPUs.dat\n"
                + "@@arch\nx86_64\n");
    assertThat(p.scripts())
        .containsExactly("/workspace/hpl.sh", "/workspace/hpl-linux-x86_64/hpl.sh");
    assertThat(p.arch()).isEqualTo("x86_64");
    assertThat(BenchFlow.forArch(p.dats(), p.arch()))
        .containsExactly("/workspace/hpl-linux-x86_64/sample-dat/HPL-H200-16GPUs.dat");
    assertThat(BenchFlow.probeScript(true))
        .startsWith("ls -d /workspace/hpl.sh ")
        .contains("find /workspace /opt/nvidia -path '*sample-dat*' -name '*.dat'");
    assertThat(BenchFlow.probeScript(false)).doesNotContain("find");
  }

  @Test
  void gpusFromNvidiaSmi() {
    BenchFlow.Gpus g =
        BenchFlow.gpusFromSmi(
            List.of(
                "GPU 0: NVIDIA H200 (UUID: GPU-a)\nGPU 1: NVIDIA H200 (UUID: GPU-b)\n",
                "",
                "GPU 0: NVIDIA H200 (UUID: GPU-c)\n"));
    assertThat(g.total()).isEqualTo(3);
    assertThat(g.model()).isEqualTo("GPU 0: NVIDIA H200 (UUID: GPU-a)");
  }
}
