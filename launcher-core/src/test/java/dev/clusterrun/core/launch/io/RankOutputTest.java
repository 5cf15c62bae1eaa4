package dev.clusterrun.core.launch.io;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clusterrun.core.enroot.LaunchAgent;
import dev.clusterrun.core.launch.mpirun.MpirunLauncher;
import dev.clusterrun.core.launch.plan.Plan;
import dev.clusterrun.core.launch.proof.Canary;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The ranks' own files followed and passed on as whole labelled lines: Open MPI 4's and 5's
 * layouts, lines cut anywhere between writes, stdout and stderr apart, the last unfinished line at
 * the end.
 */
class RankOutputTest {
  @TempDir Path dir;

  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  private void append(Path f, String s) throws Exception {
    Files.createDirectories(f.getParent());
    Files.writeString(
        f, s, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
  }

  private static String text(ByteArrayOutputStream b) {
    return b.toString(StandardCharsets.UTF_8);
  }

  @Test
  void linesCutAnywhereComeOutWholeEachWithItsRanksLabelAndStderrApart() throws Exception {
    RankOutput r = new RankOutput(dir, rank -> "node" + (rank / 2 + 1) + ":" + rank, out, err);
    Path o0 = dir.resolve("rank.0/stdout");
    Path o3 = dir.resolve("rank.3/stdout");
    Path e3 = dir.resolve("rank.3/stderr");
    append(o0, "hello fr");
    append(o3, "another ");
    append(e3, "warn");
    r.poll();
    assertThat(text(out)).as("nothing until a line is whole").isEmpty();
    append(o0, "om zero\nsecond");
    append(o3, "line\n");
    r.poll();
    assertThat(text(out)).isEqualTo("node1:0: hello from zero\nnode2:3: another line\n");
    append(e3, "ing\n");
    r.poll();
    assertThat(text(err)).isEqualTo("node2:3: warning\n");
    // The end: every file read to its end, the last unfinished line passed on with a newline.
    append(o0, " and last");
    r.finish();
    assertThat(text(out))
        .isEqualTo("node1:0: hello from zero\nnode2:3: another line\nnode1:0: second and last\n");
    assertThat(text(err)).isEqualTo("node2:3: warning\n");
  }

  @Test
  void openMpi5sLayoutHasTheJobsNamespaceAboveTheRanksAndFilesFoundLateAreReadFromTheirStart()
      throws Exception {
    RankOutput r = new RankOutput(dir, rank -> Integer.toString(rank), out, err);
    r.poll();
    append(dir.resolve("prterun-node1-4242@1/rank.07/stdout"), "a\nb\n");
    r.finish();
    assertThat(text(out)).isEqualTo("7: a\n7: b\n");
  }

  @Test
  void manyRanksWritingInSmallPiecesNeverMixInALine() throws Exception {
    RankOutput r = new RankOutput(dir, rank -> "n:" + rank, out, err);
    int ranks = 6;
    int lines = 2000;
    List<Path> files = new ArrayList<>();
    for (int k = 0; k < ranks; k++) {
      files.add(dir.resolve("rank." + k + "/stdout"));
    }
    for (int i = 0; i < lines; i++) {
      for (int k = 0; k < ranks; k++) {
        String line = "rank " + k + " line " + i + "\n";
        int cut = i % line.length();
        append(files.get(k), line.substring(0, cut));
        if (i % 7 == 0) {
          r.poll();
        }
        append(files.get(k), line.substring(cut));
      }
    }
    r.finish();
    int[] next = new int[ranks];
    for (String l : text(out).split("\n")) {
      assertThat(l).matches("n:(\\d): rank \\1 line \\d+");
      int k = l.charAt(2) - '0';
      assertThat(l).endsWith(" line " + next[k]);
      next[k]++;
    }
    assertThat(next).containsOnly(lines);
  }

  @Test
  void theMpirunWordsFollowTheDetectedOpenMpi() {
    JobIo labelled = new JobIo("0", true, false);
    assertThat(labelled.mpirunWords(LaunchAgent.Daemon.ORTED, "/workspace/runs/R"))
        .containsExactly("--output-filename", "/workspace/runs/R/.ranks:nojobid,nocopy");
    assertThat(labelled.mpirunWords(LaunchAgent.Daemon.PRTED, "/workspace/runs/R"))
        .containsExactly("--output", "dir=/workspace/runs/R/.ranks:nocopy,:raw");
    JobIo kept = new JobIo("none", false, true);
    assertThat(kept.mpirunWords(LaunchAgent.Daemon.ORTED, "/w"))
        .containsExactly("--stdin", "none", "--output-filename", "/w/ranks:nojobid");
    assertThat(kept.mpirunWords(LaunchAgent.Daemon.PRTED, "/w"))
        .containsExactly("--stdin", "none", "--output", "dir=/w/ranks,:raw");
    assertThat(JobIo.DEFAULT.mpirunWords(LaunchAgent.Daemon.ORTED, "/w")).isEmpty();
  }

  @Test
  void theLabelsNodeFollowsOpenMpisMappingAndIsLeftOutWhenTheJobPlacesRanksItself() {
    Canary.Placement p =
        new Canary.Placement(List.of("n1", "n2", "n3"), List.of(2, 2, 2), 5, null, null);
    assertThat(p.rankNodes("n2")).containsExactly("n2", "n2", "n1", "n1", "n3");
    Plan plan = Plan.builder().placement(p).build();
    assertThat(MpirunLauncher.labels(plan, "n1").apply(4)).isEqualTo("n3:4");
    Plan own =
        Plan.builder()
            .placement(new Canary.Placement(List.of("n1"), List.of(2), 2, null, "--map-by"))
            .build();
    assertThat(MpirunLauncher.labels(own, "n1").apply(1)).isEqualTo("1");
  }

  @Test
  void stdinTakesNoneAllOrARankAndNothingElse() {
    assertThat(JobIo.parseStdin("none")).isEqualTo("none");
    assertThat(JobIo.parseStdin("all")).isEqualTo("all");
    assertThat(JobIo.parseStdin("12")).isEqualTo("12");
    assertThat(JobIo.parseStdin(null)).isEqualTo("0");
    for (String bad : List.of("-1", "01", "x", "", "0,1")) {
      org.assertj.core.api.Assertions.assertThatThrownBy(() -> JobIo.parseStdin(bad))
          .isInstanceOf(dev.clusterrun.core.BadInputException.class)
          .hasMessageContaining("--stdin");
    }
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> JobIo.checkAgainst(new JobIo("0", true, false), List.of("--tag-output"), 2))
        .hasMessageContaining("--tag-output");
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> JobIo.checkAgainst(new JobIo("3", false, false), List.of(), 2))
        .hasMessageContaining("2 ranks");
    // The job's own --stdin stands when clusterrun's is the default.
    JobIo.checkAgainst(JobIo.DEFAULT, List.of("--stdin", "none"), 1);
  }
}
