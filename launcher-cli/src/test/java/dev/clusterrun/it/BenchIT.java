package dev.clusterrun.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.clusterrun.it.LocalCluster.Result;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.transform.stream.StreamSource;
import javax.xml.validation.SchemaFactory;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * Issue 6's end-to-end proof without GPUs: {@code clusterrun setup}, then {@code clusterrun bench
 * hpcc} across three local nodes, as the job user on the head node1, with Debian's hpcc and Open
 * MPI inside enroot containers (the stand-in's test image sees the host's /usr). The run passes and
 * is reported (summary, results.json, JUnit XML); the same command against a baseline 25 % above
 * its result exits 1 with a regression message; {@code clusterrun results} lists both runs.
 *
 * <p>The hpl dry run for the seed's 2 × 8 H200 cluster needs no node and is covered by {@code
 * BenchCommandsTest.hplDryRunShowsTheSeedCommandFor2x8H200}.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class BenchIT {
  @RegisterExtension static LocalClusterExtension CLUSTER = new LocalClusterExtension(3);

  /** One hpcc run may take a while on a busy 2-core machine; the harness default is 120 s. */
  static final Duration RUN_TIMEOUT = Duration.ofSeconds(300);

  static final ObjectMapper JSON = new ObjectMapper();

  static String launcher;
  static String shared;
  static String hosts;
  static String workspace;
  static String image;

  /** results.json of the first run, and of the run that fell below its baseline. */
  static JsonNode firstResult;

  static JsonNode regressedResult;

  /** bench runs that got as far as a result (each one is a line of the results log). */
  static int benchRuns;

  /**
   * The example references (examples/bench/references.yaml): they hold this test cluster, named
   * after its hostfile bench-hosts.txt, with bounds wide enough for hpcc on a shared 2-core
   * machine.
   */
  static String exampleReferences() throws IOException {
    // copied where the job user on the nodes can read it
    return references(Files.readString(repoFile("examples/bench/references.yaml")));
  }

  /** A reference no run here can reach. */
  static final String OUT_OF_REACH =
      """
      clusters:
        bench-hosts:
          hpcc:
            - metrics:
                HPL: {value: 1000000, lower: -5%, unit: Gflops}
      """;

  static String references(String yaml) throws IOException {
    Path p = Paths.get(shared, "references-" + Integer.toHexString(yaml.hashCode()) + ".yaml");
    Files.writeString(p, yaml, StandardCharsets.UTF_8);
    return p.toString();
  }

  static LocalCluster c() {
    return CLUSTER.cluster();
  }

  @BeforeAll
  static void setUpNodesWithClusterrun() throws IOException {
    LocalCluster c = c();
    shared = c.sharedDir().toString();
    launcher = c.installClusterrun(Paths.get("target")).toString();
    workspace = shared + "/bench-ws-" + UUID.randomUUID().toString().substring(0, 8);
    hosts = shared + "/bench-hosts.txt";
    Files.writeString(Paths.get(hosts), c.hostfile(1), StandardCharsets.UTF_8);
    if (LocalClusterExtension.realEnrootRequested()) {
      // A real enroot: the image build-image.sh made, with Debian's hpcc and Open MPI in it.
      image = shared + "/bench-image.sqsh";
      Runs.imageFileAt(c, image);
    } else {
      // The cluster's registry holds it; its containers see the host's /usr (hpcc, mpirun).
      image = c.tinyImage();
    }
    long t0 = System.nanoTime();
    Result setup = clusterrun("setup", "--nodes", hosts, "--data-path", shared + "/enroot-data");
    assertThat(setup.exitCode()).as("%s", setup).isZero();
    log("setup", t0);
  }

  /** {@code clusterrun WORDS MORE}. */
  static Result clusterrun(List<String> words, String... more) {
    List<String> args = new ArrayList<>(words);
    args.addAll(List.of(more));
    return clusterrun(args.toArray(String[]::new));
  }

  static Result clusterrun(String... args) {
    List<String> cmd = new ArrayList<>();
    cmd.add(launcher);
    cmd.addAll(List.of(args));
    return c().exec("node1", false, null, RUN_TIMEOUT, cmd);
  }

  /** {@code clusterrun bench hpcc} on the 3 nodes, small N, idle ranks yielding their core. */
  static Result benchHpcc(String... more) {
    long t0 = System.nanoTime();
    Result r =
        clusterrun(
            List.of(
                "bench",
                "hpcc",
                "--nodes",
                hosts,
                "--container-image",
                image,
                "--workspace",
                workspace,
                // 3 ranks on 2 cores: let idle ranks yield instead of busy-polling.
                "--mpi-arg=--mca",
                "--mpi-arg=mpi_yield_when_idle",
                "--mpi-arg=1"),
            more);
    log("bench hpcc " + String.join(" ", more), t0);
    System.err.println(r.stdout());
    System.err.println(r.stderr());
    if (r.stderr().contains("results.json; appended to ")) {
      benchRuns++;
    }
    return r;
  }

  /** How clusterrun's record names the image the first run made clusterrun-hpcc from. */
  static String madeFrom() {
    return LocalClusterExtension.realEnrootRequested()
        ? image
        : c().tinyImage() + ":latest@sha256:";
  }

  static void log(String what, long t0) {
    System.err.printf("BenchIT: %s took %.1f s%n", what, (System.nanoTime() - t0) / 1e9);
  }

  static Path runDir(Result r) {
    Matcher m = Pattern.compile("; run directory (\\S+)").matcher(r.stderr());
    assertThat(m.find()).as("run directory in %s", r).isTrue();
    return Paths.get(m.group(1));
  }

  @Test
  @Order(1)
  void hpccRunsAcrossThreeNodesInsideContainersAndPasses() throws Exception {
    Path junit = Paths.get(shared, "reports", "hpcc-1.xml");
    Result r = benchHpcc("--junit", junit.toString(), "--references", exampleReferences());
    assertThat(r.exitCode()).as("%s", r).isZero();
    // judged by the references of this cluster, named after the hostfile (bench-hosts.txt)
    assertThat(r.stderr())
        .containsPattern(
            "clusterrun: hpcc: references \\S+: hpcc: reference bench-hosts/hpcc nodes=3 ranks=3:"
                + " HPL"
                + " \\S+ Gflops within \\[");

    // Every remote daemon proved, in the launch itself, that it runs inside this run's container.
    assertThat(r.stderr())
        .as("%s", r)
        .contains("clusterrun: proof: the daemons on node2, node3 run inside this run's container");
    assertThat(r.stderr()).contains("clusterrun: checks passed on 3 nodes");

    // The summary: HPL Gflops with a PASSED residual.
    assertThat(r.stdout()).as("%s", r).startsWith("hpcc: PASSED\n");
    Matcher gflops = Pattern.compile("(?m)^  Gflops\\s+(\\S+)$").matcher(r.stdout());
    assertThat(gflops.find()).as("%s", r).isTrue();
    double printed = Double.parseDouble(gflops.group(1));
    assertThat(printed).isPositive();
    assertThat(r.stdout())
        .containsPattern("(?m)^  Residual\\s+\\S+ \\(PASSED\\)$")
        .containsPattern("(?m)^  Nodes\\s+3: node1, node2, node3$")
        .containsPattern("(?m)^  P x Q\\s+1 x 3$");

    // results.json in the run directory, every field as documented.
    Path dir = runDir(r);
    assertThat(dir.toString()).startsWith(workspace + "/runs/");
    assertThat(dir.resolve("hpccinf.txt")).isRegularFile();
    // hpcc itself saw 3 processes, rank 0 on the head.
    assertThat(dir.resolve("hpccoutf.txt"))
        .content()
        .contains("Hostname: 'node1'")
        .containsPattern("(?m)^CommWorldProcs=3$");
    JsonNode j = JSON.readTree(dir.resolve("results.json").toFile());
    assertThat(j.fieldNames().next()).isEqualTo("schemaVersion");
    assertThat(j.get("schemaVersion").asInt()).isEqualTo(1);
    assertThat(j.get("preset").asText()).isEqualTo("hpcc");
    assertThat(j.get("verdict").asText()).isEqualTo("PASSED");
    assertThat(j.get("reason").isNull()).isTrue();
    assertThat(j.get("headline").get("unit").asText()).isEqualTo("Gflops");
    assertThat(j.get("headline").get("name").asText()).contains("HPL");
    double headline = j.get("headline").get("value").asDouble();
    assertThat(headline)
        .isPositive()
        .isCloseTo(printed, org.assertj.core.data.Percentage.withPercentage(0.01));
    assertThat(j.get("n").asLong()).isPositive().isLessThanOrEqualTo(1000);
    assertThat(j.get("nb").asInt()).isPositive();
    assertThat(j.get("p").asInt() * j.get("q").asInt()).isEqualTo(3);
    assertThat(j.get("timeSeconds").asDouble()).isPositive();
    assertThat(j.get("residual").asDouble()).isGreaterThanOrEqualTo(0).isLessThan(16);
    assertThat(j.get("testsPassed").asInt()).isPositive();
    assertThat(j.get("testsFailed").asInt()).isZero();
    assertThat(j.get("rows").isArray()).isTrue();
    assertThat(j.get("rows").size()).isPositive();
    assertThat(j.get("metrics").size()).as("PTRANS, STREAM, RandomAccess, FFT …").isPositive();
    assertThat(JSON.convertValue(j.get("nodes"), List.class))
        .containsExactly("node1", "node2", "node3");
    assertThat(j.get("ranks").asInt()).isEqualTo(3);
    assertThat(j.get("gpus").isNull()).isTrue();
    assertThat(j.get("image").asText())
        .contains(
            LocalClusterExtension.realEnrootRequested() ? "bench-image.sqsh" : "clusterrun/tiny");
    assertThat(java.time.Instant.parse(j.get("endTime").asText()))
        .isAfterOrEqualTo(java.time.Instant.parse(j.get("startTime").asText()));
    assertThat(j.get("cluster").asText()).isEqualTo("bench-hosts");
    assertThat(j.get("runDir").asText()).isEqualTo(dir.toString());
    assertThat(j.get("runId").asText()).isEqualTo(dir.getFileName().toString());

    // JUnit XML for CI: valid against the Ant/Jenkins schema, one green case.
    Document d = validJUnit(junit);
    Element suite = (Element) d.getElementsByTagName("testsuite").item(0);
    assertThat(suite.getAttribute("name")).isEqualTo("clusterrun.bench.hpcc");
    assertThat(suite.getAttribute("tests")).isEqualTo("2");
    assertThat(suite.getAttribute("failures")).isEqualTo("0");
    assertThat(d.getElementsByTagName("failure").getLength()).isZero();
    assertThat(((Element) d.getElementsByTagName("testcase").item(1)).getAttribute("name"))
        .isEqualTo("hpcc vs references");

    firstResult = j;
  }

  @Test
  @Order(2)
  void aBaseline25PercentHigherMakesTheSameCommandExit1() throws Exception {
    assertThat(firstResult).as("the first run passed").isNotNull();
    Path junit = Paths.get(shared, "reports", "hpcc-2.xml");
    // hpcc at N <= 1000 on a shared 2-core machine is noisy (runs in a row gave 3.09, 4.28 and
    // 3.25 Gflops): a run can hold a baseline 25 % above an earlier one. Every attempt must agree
    // with the gate's rule (exit 1 exactly when it fell by more than 5 %); the next baseline is
    // 25 % above the best run so far, and within four attempts one must have fallen.
    JsonNode best = firstResult;
    Result r = null;
    for (int attempt = 1; attempt <= 4; attempt++) {
      Path baseline = writeBaseline(best, attempt);
      double base = headline(best) * 1.25;
      r = benchHpcc("--junit", junit.toString(), "--baseline", baseline.toString());
      JsonNode now = JSON.readTree(runDir(r).resolve("results.json").toFile());
      boolean fell = headline(now) < base * 0.95;
      assertThat(r.exitCode()).as("%s", r).isEqualTo(fell ? 1 : 0);
      if (fell) {
        break;
      }
      assertThat(r.stderr()).containsPattern("baseline \\S+: .*within the allowed drop of 5%");
      Element held = (Element) validJUnit(junit).getElementsByTagName("testsuite").item(0);
      assertThat(held.getAttribute("tests")).isEqualTo("2");
      assertThat(held.getAttribute("failures")).isEqualTo("0");
      System.err.println("BenchIT: the run held a baseline 25 % above the best so far; again");
      if (headline(now) > headline(best)) {
        best = now;
      }
    }
    assertThat(r.exitCode()).as("%s", r).isEqualTo(1);
    // The benchmark itself passed; only the gate failed, and it says why.
    assertThat(r.stdout()).startsWith("hpcc: PASSED\n");
    assertThat(r.stderr())
        .containsPattern("clusterrun: hpcc: baseline \\S+: .*fell by more than the allowed 5%")
        .contains("clusterrun: hpcc: the result fell below the baseline");
    JsonNode second = JSON.readTree(runDir(r).resolve("results.json").toFile());
    assertThat(second.get("verdict").asText()).isEqualTo("PASSED");
    regressedResult = second;

    Document d = validJUnit(junit);
    Element suite = (Element) d.getElementsByTagName("testsuite").item(0);
    assertThat(suite.getAttribute("tests")).isEqualTo("2");
    assertThat(suite.getAttribute("failures")).isEqualTo("1");
    NodeList cases = d.getElementsByTagName("testcase");
    assertThat(((Element) cases.item(0)).getAttribute("name")).isEqualTo("hpcc");
    assertThat(((Element) cases.item(0)).getElementsByTagName("failure").getLength()).isZero();
    assertThat(((Element) cases.item(1)).getAttribute("name")).isEqualTo("hpcc vs baseline");
    assertThat(((Element) cases.item(1)).getElementsByTagName("failure").getLength()).isOne();
  }

  static double headline(JsonNode result) {
    return result.get("headline").get("value").asDouble();
  }

  /** {@code result} with its headline raised by 25 %, as a results.json file. */
  static Path writeBaseline(JsonNode result, int attempt) throws IOException {
    ObjectNode b = result.deepCopy();
    ObjectNode h = (ObjectNode) b.get("headline");
    h.put("value", h.get("value").asDouble() * 1.25);
    Path file = Paths.get(shared, "baseline-" + attempt + ".json");
    JSON.writerWithDefaultPrettyPrinter().writeValue(file.toFile(), b);
    return file;
  }

  @Test
  @Order(3)
  void resultsListsBothRuns() throws Exception {
    Result table = clusterrun("results", "--workspace", workspace);
    assertThat(table.exitCode()).as("%s", table).isZero();
    List<String> rows = table.stdout().lines().filter(l -> l.matches("\\d+\\s+.*")).toList();
    assertThat(benchRuns).isGreaterThanOrEqualTo(2);
    assertThat(rows).as("%s", table).hasSize(benchRuns);
    for (String row : rows) {
      assertThat(row).contains(" hpcc ").contains(" PASSED ").contains(" Gflops ");
    }

    Result json = clusterrun("results", "--workspace", workspace, "--json");
    assertThat(json.exitCode()).as("%s", json).isZero();
    JsonNode all = JSON.readTree(json.stdout());
    assertThat(all.isArray()).isTrue();
    assertThat(all.size()).isEqualTo(rows.size());
    assertThat(all.get(0).get("headline")).isEqualTo(firstResult.get("headline"));
    assertThat(all.get(0).get("startTime")).isEqualTo(firstResult.get("startTime"));
    assertThat(regressedResult).as("the baseline run").isNotNull();
    JsonNode last = all.get(all.size() - 1);
    assertThat(last.get("startTime")).isEqualTo(regressedResult.get("startTime"));
    assertThat(last.get("headline")).isEqualTo(regressedResult.get("headline"));
  }

  /**
   * {@code hpl} for an H100 in the container clusterrun-hpcc the first run made, with {@code more}.
   */
  private static Result hplInHpccContainer(String... more) {
    return clusterrun(
        List.of(
            "hpl",
            "--nodes",
            hosts,
            "--workspace",
            workspace,
            "--container-name=clusterrun-hpcc",
            "--gpu-model",
            "H100"),
        more);
  }

  /** {@code results compare} of the last week's runs in the workspace, with {@code more}. */
  private static Result compareLastWeek(String... more) {
    return clusterrun(
        List.of("results", "compare", "--workspace", workspace, "--since", "7d"), more);
  }

  @Test
  @Order(4)
  void aNamedContainerThatExistsIsTakenAsGivenWithoutImportingThePresetsImage() throws Exception {
    assertThat(firstResult).as("the first run made clusterrun-hpcc").isNotNull();
    // hpl's default image is on a registry this machine cannot reach: importing it would fail
    // (exit 4). The named container exists, no image is given: it is used as it is, as Pyxis does.
    Result plan = hplInHpccContainer("--dry-run");
    assertThat(plan.exitCode()).as("%s", plan).isZero();
    assertThat(plan.stdout())
        .contains("# container clusterrun-hpcc holds: " + madeFrom())
        .contains("(clusterrun's record of what made it)");
    Result r = hplInHpccContainer();
    System.err.println(r.stderr());
    assertThat(r.stderr())
        .as("%s", r)
        .contains("used existing container clusterrun-hpcc as it is (made from " + madeFrom())
        .doesNotContain("enroot import")
        .doesNotContain("could not import");
    // It got as far as looking inside: this test image has no hpl.sh (exit 2, not 4).
    assertThat(r.stderr())
        .contains("clusterrun: --container-name: no hpl.sh in the container")
        .contains("was container clusterrun-hpcc made from NVIDIA's hpc-benchmarks?");
    assertThat(r.exitCode()).as("%s", r).isEqualTo(2);
  }

  @Test
  @Order(5)
  void aMetricOutsideItsReferenceExits1NamingMetricValueAndBounds() throws Exception {
    String refs = references(OUT_OF_REACH);
    Result r = benchHpcc("--references", refs);
    assertThat(r.exitCode()).as("%s", r).isEqualTo(1);
    // the benchmark passed; only the reference failed it, and says why
    assertThat(r.stdout()).startsWith("hpcc: PASSED\n");
    assertThat(r.stderr())
        .containsPattern(
            "clusterrun: hpcc: references \\S+: hpcc: reference bench-hosts/hpcc: HPL \\S+ Gflops"
                + " is below the reference \\[950000, \\+inf\\] \\(1000000 Gflops -5%/\\+inf\\) at "
                + Pattern.quote(refs)
                + ":5:11")
        .contains("clusterrun: hpcc: the result lies outside its reference");
  }

  @Test
  @Order(6)
  void compareTablesTheRunsOfTheWeek() throws Exception {
    // Kept for people: the results log of this run (the fixtures' recorded runs came from one).
    Files.copy(
        Paths.get(workspace, "results.jsonl"),
        Paths.get("target", "benchit-results.jsonl"),
        java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    String refs = exampleReferences();
    // every metric, as the operator sees them
    Result every = compareLastWeek("--references", refs);
    assertThat(every.stdout()).as("%s", every).contains("  StarFFT_Gflops ", "  PTRANS_GBs ");
    assertThat(every.exitCode()).as("%s", every).isIn(0, 1); // hpcc's other figures are noisy
    // those with a reference
    Result t = compareLastWeek("--references", refs, "--metric", "HPL,StarSTREAM_Triad");
    assertThat(t.exitCode()).as("%s", t).isZero();
    assertThat(t.stdout())
        .as("%s", t)
        .startsWith("hpcc on bench-hosts: 3 nodes, 3 ranks, N=")
        .containsPattern(
            "(?m)^  HPL +Gflops +"
                + benchRuns
                + " +0 +\\S+ +\\S+ +\\S+ +\\S+ +\\S+ +within reference")
        .containsPattern("(?m)^  StarSTREAM_Triad +GB/s +" + benchRuns + " .* within reference");
    Result j = compareLastWeek("--metric", "HPL", "--json");
    JsonNode rows = JSON.readTree(j.stdout());
    assertThat(rows.size()).as("%s", j).isEqualTo(1);
    assertThat(rows.get(0).get("runs").asInt()).isEqualTo(benchRuns);
    assertThat(rows.get(0).get("first").asDouble()).isEqualTo(headline(firstResult));

    // two run ids: just those two
    JsonNode all =
        JSON.readTree(clusterrun("results", "--workspace", workspace, "--json").stdout());
    String a = all.get(0).get("runId").asText();
    String b = all.get(all.size() - 1).get("runId").asText();
    Result two =
        clusterrun("results", "compare", a, b, "--workspace", workspace, "--metric=HPL", "--json");
    JsonNode pair = JSON.readTree(two.stdout()).get(0);
    assertThat(pair.get("runs").asInt()).as("%s", two).isEqualTo(2);
    assertThat(pair.get("first").asDouble()).isEqualTo(headline(all.get(0)));
    assertThat(pair.get("last").asDouble()).isEqualTo(headline(all.get(all.size() - 1)));
  }

  /**
   * The report of a results log holding this run's real hpcc runs and recorded ones (real runs of
   * an earlier day, see the fixtures' README), rendered by headless Chromium: the charts are drawn,
   * with their points, failed runs and the reference band, in the rendered page and in its pixels.
   */
  @Test
  @Order(7)
  void theHtmlReportDrawsTrendChartsWithPointsAndTheReferenceBandInChromium() throws Exception {
    String chromium = chromium();
    // a log of recorded runs followed by this run's
    String logDir = workspace + "/report-log";
    assertThat(c().exec("node1", "mkdir", "-p", logDir).exitCode()).isZero();
    String recorded =
        Files.readString(
            repoFile("launcher-core/src/test/resources/bench/results-hpcc-recorded.jsonl"));
    String real = Files.readString(Paths.get(workspace, "results.jsonl"));
    Path log = Paths.get(logDir, "results.jsonl");
    Files.writeString(log, recorded + real, StandardCharsets.UTF_8);
    long runs = (recorded + real).lines().filter(l -> !l.isBlank()).count();
    long failedRuns =
        (recorded + real).lines().filter(l -> l.contains("\"verdict\":\"FAILED\"")).count();
    assertThat(failedRuns).as("the recorded runs include a failed one").isPositive();

    String html = workspace + "/report/report.html";
    Result r =
        clusterrun(
            "results",
            "report",
            "--workspace",
            logDir,
            "--html",
            html,
            "--references",
            exampleReferences());
    assertThat(r.exitCode()).as("%s", r).isZero();
    assertThat(r.stderr())
        .contains("clusterrun: results report: wrote " + html + " (" + runs + " runs)");
    String page = Files.readString(Paths.get(html));
    // self-contained: nothing to fetch
    assertThat(page)
        .doesNotContain("http://", "https://", "<script", "<link", "src=", "url(", "@import");

    // the DOM as Chromium built it
    String dom = runChromium(chromium, "--dump-dom", "file://" + html).stdout();
    Pattern hplChart =
        Pattern.compile(
            "<figcaption>HPL <span class=\"unit\">\\(Gflops\\)</span>.*?</figure>", Pattern.DOTALL);
    Matcher m = hplChart.matcher(dom);
    assertThat(m.find()).as("an HPL chart in %s", dom).isTrue();
    String chart = m.group();
    assertThat(count(chart, "<circle class=\"point\"")).isEqualTo(runs - failedRuns);
    assertThat(count(chart, "<path class=\"failed\"")).isEqualTo(failedRuns);
    assertThat(count(chart, "<rect class=\"ref-band\"")).isPositive();
    assertThat(chart).contains("<polyline class=\"trend\"").contains("<line class=\"ref-value\"");
    // every run in the table, linked to its run directory
    assertThat(count(dom, "<tr class=\"passed\">") + count(dom, "<tr class=\"failed-run\">"))
        .isEqualTo(runs);
    assertThat(dom).contains("href=\"../runs/" + firstResult.get("runId").asText() + "/\"");

    // and drawn: the band's green and the points' blue are on the screenshot
    Path png = Paths.get("target", "bench-report.png").toAbsolutePath();
    Files.createDirectories(png.getParent());
    Files.deleteIfExists(png);
    runChromium(
        chromium,
        "--screenshot=" + png,
        "--window-size=1280,1600",
        "--hide-scrollbars",
        "file://" + html);
    java.awt.image.BufferedImage img = javax.imageio.ImageIO.read(png.toFile());
    assertThat(img).as("screenshot %s", png).isNotNull();
    int band = 0;
    int point = 0;
    int cross = 0;
    for (int y = 0; y < img.getHeight(); y++) {
      for (int x = 0; x < img.getWidth(); x++) {
        int rgb = img.getRGB(x, y);
        int red = (rgb >> 16) & 0xff;
        int green = (rgb >> 8) & 0xff;
        int blue = rgb & 0xff;
        band += near(red, green, blue, 221, 240, 227) ? 1 : 0;
        point += near(red, green, blue, 9, 105, 218) ? 1 : 0;
        cross += near(red, green, blue, 207, 34, 46) ? 1 : 0;
      }
    }
    System.err.printf(
        "BenchIT: screenshot %s: band %d px, blue %d px, red %d px%n", png, band, point, cross);
    assertThat(band).as("reference band pixels").isGreaterThan(2000);
    assertThat(point).as("point and trend pixels").isGreaterThan(100);
    assertThat(cross).as("failed-run cross pixels").isGreaterThan(10);
  }

  static boolean near(int r, int g, int b, int r0, int g0, int b0) {
    return Math.abs(r - r0) <= 6 && Math.abs(g - g0) <= 6 && Math.abs(b - b0) <= 6;
  }

  static int count(String text, String what) {
    int n = 0;
    for (int i = text.indexOf(what); i >= 0; i = text.indexOf(what, i + 1)) {
      n++;
    }
    return n;
  }

  /** Debian's chromium; missing, the test fails in CI and is skipped elsewhere. */
  static String chromium() {
    for (String p : List.of("/usr/bin/chromium", "/usr/bin/chromium-browser")) {
      if (Files.isExecutable(Paths.get(p))) {
        return p;
      }
    }
    String why = "chromium is not installed (examples/local-cluster/install-deps.sh installs it)";
    assertThat("true".equals(System.getenv("CI"))).as(why).isFalse();
    Assumptions.abort(why);
    return null;
  }

  /** Headless Chromium as root, offline, with a new empty profile. */
  static Result runChromium(String chromium, String... args) throws Exception {
    Path profile = Files.createTempDirectory("clusterrun-chromium-");
    try {
      List<String> cmd =
          new ArrayList<>(
              List.of(
                  chromium,
                  "--headless",
                  "--no-sandbox",
                  "--disable-gpu",
                  "--disable-quic",
                  "--no-first-run",
                  "--disable-background-networking",
                  "--disable-component-update",
                  "--disable-sync",
                  "--user-data-dir=" + profile));
      cmd.addAll(List.of(args));
      Path out = Files.createTempFile("chromium", ".out");
      Path err = Files.createTempFile("chromium", ".err");
      Process p =
          new ProcessBuilder(cmd)
              .redirectOutput(out.toFile())
              .redirectError(err.toFile())
              .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
              .start();
      boolean done = p.waitFor(120, java.util.concurrent.TimeUnit.SECONDS);
      if (!done) {
        p.descendants().forEach(ProcessHandle::destroyForcibly);
        p.destroyForcibly();
        p.waitFor();
      }
      Result r =
          new Result(
              done ? p.exitValue() : -1,
              Files.readString(out, StandardCharsets.UTF_8),
              Files.readString(err, StandardCharsets.UTF_8));
      Files.deleteIfExists(out);
      Files.deleteIfExists(err);
      assertThat(r.exitCode()).as("chromium %s: %s", cmd, r.stderr()).isZero();
      return r;
    } finally {
      try (var walk = Files.walk(profile)) {
        walk.sorted(java.util.Comparator.reverseOrder()).forEach(q -> q.toFile().delete());
      }
    }
  }

  /** A file of the repository, found from the working directory upwards. */
  static Path repoFile(String rel) {
    for (Path d = Paths.get("").toAbsolutePath(); d != null; d = d.getParent()) {
      if (Files.isRegularFile(d.resolve(rel))) {
        return d.resolve(rel);
      }
    }
    throw new IllegalStateException(rel + " not found above " + Paths.get("").toAbsolutePath());
  }

  /** Parses and validates a JUnit report against the schema the unit tests use. */
  static Document validJUnit(Path file) throws Exception {
    assertThat(file).isRegularFile();
    SchemaFactory sf = SchemaFactory.newInstance(XMLConstants.W3C_XML_SCHEMA_NS_URI);
    sf.newSchema(junitSchema().toFile()).newValidator().validate(new StreamSource(file.toFile()));
    DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
    f.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
    return f.newDocumentBuilder().parse(file.toFile());
  }

  /** launcher-core's test resource, found from the working directory upwards. */
  static Path junitSchema() {
    String rel = "launcher-core/src/test/resources/bench/junit-ant.xsd";
    for (Path d = Paths.get("").toAbsolutePath(); d != null; d = d.getParent()) {
      if (Files.isRegularFile(d.resolve(rel))) {
        return d.resolve(rel);
      }
    }
    throw new IllegalStateException(rel + " not found above " + Paths.get("").toAbsolutePath());
  }
}
