package dev.clusterrun.core.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clusterrun.core.BadInputException;
import dev.clusterrun.core.spec.SpecLoader;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class ReferencesTest {
  static final String FILE =
      """
      # expected values for the nightly runs
      clusters:
        ci:
          hpcc:
            - nodes: 3
              metrics:
                HPL: {value: 4.0, lower: -25%, upper: +50%, unit: Gflops}
                StarSTREAM_Triad: {value: 40, lower: -10%}
            - nodes: 3
              n: 960
              metrics:
                HPL: {value: 3.0, lower: -10%, upper: 10%}
        "*":
          hpcc:
            - metrics:
                HPL: {value: 1.0, lower: -50%}
      """;

  static References refs() {
    return References.parse(FILE, "refs.yaml");
  }

  static BenchResult hpcc(double gflops, long n, int nodes) {
    return BenchResult.builder("hpcc")
        .verdict(Verdict.PASSED)
        .headline(new Metric("HPL", gflops, "Gflops"))
        .metric("StarSTREAM_Triad", 41.5)
        .n(n)
        .nodes(List.of("n1", "n2", "n3").subList(0, nodes))
        .ranks(nodes)
        .startTime(Instant.parse("2026-11-21T05:54:03Z"))
        .build();
  }

  @Test
  void theMostSpecificReferenceFitsAndBoundsAreInclusive() {
    References r = refs();
    assertThat(r.entries()).hasSize(3);
    References.Judgement j = r.judge("ci", hpcc(3.3, 960, 3));
    assertThat(j.entry().label()).isEqualTo("ci/hpcc nodes=3 n=960");
    assertThat(j.passed()).as(j.message()).isTrue(); // 3.3 = 3.0 + 10 %: on the bound
    assertThat(j.message())
        .isEqualTo(
            "hpcc: reference ci/hpcc nodes=3 n=960: HPL 3.3 Gflops within [2.7, 3.3] (3 -10%/+10%)");
    // another N: the entry without n
    References.Judgement other = r.judge("ci", hpcc(5.5, 1920, 3));
    assertThat(other.entry().label()).isEqualTo("ci/hpcc nodes=3");
    assertThat(other.passed()).isTrue();
    // another cluster: the wildcard
    assertThat(r.judge("lab", hpcc(0.6, 960, 3)).entry().cluster()).isEqualTo("*");
  }

  @Test
  void outsideABoundFailsNamingMetricValueBoundsAndWhere() {
    References.Judgement below = refs().judge("ci", hpcc(2.69, 960, 3));
    assertThat(below.passed()).isFalse();
    assertThat(below.message())
        .isEqualTo(
            "hpcc: reference ci/hpcc nodes=3 n=960: HPL 2.69 Gflops is below the reference"
                + " [2.7, 3.3] (3 -10%/+10%) at refs.yaml:12:11");
    References.Judgement above = refs().judge("ci", hpcc(6.01, 1920, 3));
    assertThat(above.message()).contains("HPL 6.01 Gflops is above the reference [3, 6]");
    assertThat(above.checks())
        .extracting(References.MetricCheck::holds)
        .containsExactly(false, true);
    // an open side never fails
    assertThat(refs().judge("lab", hpcc(1e9, 960, 3)).passed()).isTrue();
  }

  @Test
  void aRunThatDidNotPassOrLacksAMetricOrUnitNeverPasses() {
    BenchResult failed =
        hpcc(3.0, 960, 3).toBuilder().verdict(Verdict.FAILED).reason("HPL: residual").build();
    References.Judgement j = refs().judge("ci", failed);
    assertThat(j.passed()).isFalse();
    assertThat(j.message()).contains("(the run is FAILED: HPL: residual)");

    BenchResult noTriad =
        BenchResult.builder("hpcc")
            .verdict(Verdict.PASSED)
            .headline(new Metric("HPL", 4.0, "Gflops"))
            .metric("StarSTREAM_Copy", 50)
            .nodes(List.of("a", "b", "c"))
            .build();
    assertThat(refs().judge("ci", noTriad).message())
        .contains("StarSTREAM_Triad: the run has no metric StarSTREAM_Triad");

    BenchResult tflops =
        hpcc(4.0, 1920, 3).toBuilder().headline(new Metric("HPL", 4.0, "Tflops")).build();
    assertThat(refs().judge("ci", tflops).message())
        .contains("HPL: the reference is in Gflops, the run reports Tflops");
  }

  @Test
  void noFittingReferenceIsSaidBeforeTheRunAndAfter() {
    References r =
        References.parse(
            "clusters:\n  ci:\n    hpl:\n      - nodes: 2\n        metrics:\n"
                + "          HPL: {value: 100}\n",
            "refs.yaml");
    assertThat(r.cannotFit("ci", "hpl", new References.Size(2, 16, 16, null))).isNull();
    assertThat(r.cannotFit("ci", "hpl", new References.Size(4, 32, 32, null)))
        .isEqualTo(
            "refs.yaml has no reference for hpl on cluster 'ci' (4 nodes, 32 ranks, 32 GPUs);"
                + " it has ci/hpl nodes=2");
    assertThat(r.cannotFit("gpu-a", "hpl", new References.Size(2, 16, 16, null)))
        .endsWith("; name the cluster with --cluster NAME (default: the hostfile's name)");
    BenchResult hpl =
        BenchResult.builder("hpl")
            .verdict(Verdict.PASSED)
            .headline(new Metric("HPL", 90, "Gflops"))
            .nodes(List.of("a", "b", "c", "d"))
            .build();
    References.Judgement j = r.judge("ci", hpl);
    assertThat(j.passed()).isFalse();
    assertThat(j.entry()).isNull();
    assertThat(j.message()).startsWith("hpl: refs.yaml has no reference for hpl");
  }

  @Test
  void twoEquallyFittingReferencesAreAmbiguous() {
    References r =
        References.parse(
            "clusters:\n  ci:\n    hpl:\n      - nodes: 2\n        metrics: {HPL: {value: 1}}\n"
                + "      - ranks: 16\n        metrics: {HPL: {value: 2}}\n",
            "refs.yaml");
    assertThatThrownBy(() -> r.find("ci", "hpl", new References.Size(2, 16, 16, null)))
        .isInstanceOf(BadInputException.class)
        .hasMessage(
            "refs.yaml:6:9: this reference and the one at refs.yaml:4:9 both fit hpl on ci"
                + " (2 nodes, 16 ranks, 16 GPUs); give one of them another size key");
  }

  @Test
  void badFilesNameFileLineColumnAndKey() {
    String[][] cases = {
      {"", "refs.yaml: the references file is empty; expected 'clusters:'"},
      {
        "cluster:\n  ci: {}\n",
        "refs.yaml:1:1: cluster: unknown key 'cluster'; did you mean 'clusters'?"
      },
      {
        "clusters:\n  ci:\n    hpccc: [{metrics: {HPL: {value: 1}}}]\n",
        "refs.yaml:3:5: clusters.ci.hpccc: unknown preset 'hpccc'; did you mean 'hpcc'?"
      },
      {
        "clusters:\n  ci:\n    hpl:\n      - nodes: 2\n        metrics:\n"
            + "          HPL: {value: 100, lower: -5}\n",
        "refs.yaml:6:36: clusters.ci.hpl[0].metrics.HPL.lower: expected a percentage of the value"
            + " such as -5%, found -5"
      },
      {
        "clusters:\n  ci:\n    hpl:\n      - metrics:\n          HPL: {value: 100, lower: 5%}\n",
        "refs.yaml:5:36: clusters.ci.hpl[0].metrics.HPL.lower: expected a percentage from -100%"
            + " to 0%, such as -5%, found '5%'"
      },
      {
        "clusters:\n  ci:\n    hpl:\n      - metrics:\n          HPL: {value: fast}\n",
        "refs.yaml:5:24: clusters.ci.hpl[0].metrics.HPL.value: expected a number above 0, found"
            + " 'fast'"
      },
      {
        "clusters:\n  ci:\n    hpl:\n      - node: 2\n        metrics: {HPL: {value: 1}}\n",
        "refs.yaml:4:9: clusters.ci.hpl[0].node: unknown key 'node'; did you mean 'nodes'?"
      },
      {
        "clusters:\n  ci:\n    hpl:\n      - nodes: 0\n        metrics: {HPL: {value: 1}}\n",
        "refs.yaml:4:16: clusters.ci.hpl[0].nodes: expected a whole number of at least 1, found 0"
      },
      {
        "clusters:\n  ci:\n    hpl:\n      - nodes: 2\n",
        "refs.yaml:4:9: clusters.ci.hpl[0]: a reference needs 'metrics:'"
      },
      {
        "clusters:\n  'a b':\n    hpl: [{metrics: {HPL: {value: 1}}}]\n",
        "refs.yaml:2:3: clusters.a b: 'a b' cannot name a cluster"
      },
      // the job file's wordings: every known key when none is near, what was found instead
      {
        "clusters:\n  ci:\n    hpl:\n      - metrics: {HPL: {value: 1, banana: 2}}\n",
        "refs.yaml:4:35: clusters.ci.hpl[0].metrics.HPL.banana: unknown key 'banana'; expected one"
            + " of: value, lower, upper, unit (in clusters.ci.hpl[0].metrics.HPL)"
      },
      {"clusters: [ci]\n", "refs.yaml:1:11: clusters: expected a map of clusters, found a list"},
      {
        "clusters:\n  ci:\n    hpl:\n      - metrics: {HPL: {value: ~}}\n",
        "refs.yaml:4:32: clusters.ci.hpl[0].metrics.HPL.value: expected a single value, found"
            + " nothing"
      },
      {
        "clusters:\n  ci:\n    hpl:\n      - metrics: {HPL: {value: 1, upper: -5%}}\n",
        "refs.yaml:4:42: clusters.ci.hpl[0].metrics.HPL.upper: expected a percentage of 0% or"
            + " above, such as +10%, found '-5%'"
      },
      {
        "clusters:\n  ci:\n    hpl: [{metrics: {HPL: {value: 1}}}]\n---\nclusters: {}\n",
        "refs.yaml:5:1: a second YAML document (after '---'); a references file is one document"
      },
    };
    for (String[] c : cases) {
      assertThatThrownBy(() -> References.parse(c[0], "refs.yaml"))
          .as(c[0])
          .isInstanceOf(BadInputException.class)
          .hasMessageStartingWith(c[1]);
    }
  }

  @Test
  void theReferencesFileIsWordedAsTheJobFileIs() {
    String[][] alike = {
      {"mpi:\n  bananas: 1\n", "clusters:\n  ci:\n    hpl:\n      - bananas: 1\n"},
      {"name: [a]\n", "clusters:\n  ci:\n    hpl:\n      - {nodes: [2], metrics: {}}\n"},
      {"ssh:\n  fanout: 0\n", "clusters:\n  ci:\n    hpl:\n      - {nodes: 0, metrics: {}}\n"},
    };
    String[] words = {
      ": unknown key 'bananas'; expected one of: ",
      ": expected a single value, found a list",
      ": expected a whole number of at least 1, found 0"
    };
    for (int i = 0; i < alike.length; i++) {
      String job = alike[i][0];
      String refs = alike[i][1];
      assertThatThrownBy(() -> SpecLoader.parse(job, "job.yaml"))
          .as(job)
          .isInstanceOf(BadInputException.class)
          .hasMessageMatching("job\\.yaml:\\d+:\\d+: \\S+" + Pattern.quote(words[i]) + ".*");
      assertThatThrownBy(() -> References.parse(refs, "refs.yaml"))
          .as(refs)
          .isInstanceOf(BadInputException.class)
          .hasMessageMatching("refs\\.yaml:\\d+:\\d+: \\S+" + Pattern.quote(words[i]) + ".*");
    }
  }

  @Test
  void theClusterIsNamedByTheOperatorOrByTheHostfile() {
    assertThat(References.clusterName(null, Path.of("/etc/clusterrun/gpu-a.txt")))
        .isEqualTo("gpu-a");
    assertThat(References.clusterName(null, Path.of("hosts"))).isEqualTo("hosts");
    assertThat(References.clusterName("prod", Path.of("hosts.txt"))).isEqualTo("prod");
    assertThat(References.clusterNameProblem("prod-1")).isNull();
    assertThat(References.clusterNameProblem("*")).isNotNull();
    assertThat(References.clusterNameProblem("a/b")).contains("cannot name a cluster");
  }

  @Test
  void theExampleReferencesFileInTheDocsReads() throws Exception {
    Path p = Path.of("..", "examples", "bench", "references.yaml");
    References r = References.read(p);
    assertThat(r.entries()).isNotEmpty();
  }
}
