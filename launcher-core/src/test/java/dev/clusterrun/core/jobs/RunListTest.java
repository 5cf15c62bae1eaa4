package dev.clusterrun.core.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clusterrun.core.remote.ExecResult;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RunListTest {
  static final String A = "20261127-040000-train-ab12";
  static final String B = "20261127-041500-bench-77ff";

  static ExecResult answer(String... lines) {
    return new ExecResult(0, String.join("\n", lines) + "\n", "", Duration.ZERO, null);
  }

  /** The head: mpirun of A (its clusterrun alive) and a rank; B's mpirun, its clusterrun gone. */
  static RunScan.Node head() {
    return RunScan.parse(
        "node1",
        answer(
            "node\tcrjob\t1764200000\t100",
            "proc\t500\t400\t1000\t"
                + A
                + "\tmpirun\tmpirun -np 3 --hostfile /workspace/runs/"
                + A
                + "/hosts.txt python3 train.py",
            "head\t" + A + "\t400\t900\talive",
            "proc\t501\t500\t1010\t" + A + "\tpython3\tpython3 train.py",
            "proc\t600\t1\t90000\t" + B + "\tmpirun\tmpirun -np 2 xhpl",
            "head\t" + B + "\t590\t89000\tgone"));
  }

  static RunScan.Node other(String node) {
    return RunScan.parse(
        node,
        answer(
            "node\tcrjob\t1764200000\t100",
            "proc\t700\t650\t1100\t" + A + "\torted\torted -mca ess env",
            "proc\t701\t700\t1120\t" + A + "\tpython3\tpython3 train.py"));
  }

  static RunList.Run find(RunList l, String id) {
    return l.runs().stream().filter(r -> r.runId().equals(id)).findFirst().orElseThrow();
  }

  @Test
  void aRunIsEveryNodeItHasProcessesOnWithItsHeadStartAndCommand() {
    RunList l = RunList.of(List.of(head(), other("node2"), other("node3")), Map.of());
    assertThat(l.runs()).extracting(RunList.Run::runId).containsExactly(A, B);
    RunList.Run a = find(l, A);
    assertThat(a.nodes()).containsExactly("node1", "node2", "node3");
    assertThat(a.head()).isEqualTo("node1");
    assertThat(a.state()).isEqualTo("running");
    assertThat(a.user()).isEqualTo("crjob");
    assertThat(a.command()).startsWith("mpirun -np 3");
    assertThat(a.headPids()).containsExactly(500L);
    // boot 1764200000 s + 1000 ticks / 100 per s
    assertThat(a.started().getEpochSecond()).isEqualTo(1764200010L);
    RunList.Run b = find(l, B);
    assertThat(b.nodes()).containsExactly("node1");
    assertThat(b.state()).isEqualTo("headless");
    assertThat(l.renderTable())
        .contains("RUN ID")
        .containsPattern(
            A
                + " +crjob +node1 +running +2025-11-26 \\d\\d:\\d\\d:\\d\\dZ +node1,node2,node3 +mpirun -np 3")
        .containsPattern(B + " .* headless .* node1 +mpirun -np 2 xhpl");
  }

  @Test
  void aRunWithATimeLimitShowsTheTimeLeftAndTheOthersADash(
      @org.junit.jupiter.api.io.TempDir java.nio.file.Path ws) throws Exception {
    java.time.Instant now = java.time.Instant.parse("2026-11-28T12:00:00Z");
    java.nio.file.Path dir = ws.resolve("runs/" + A);
    java.nio.file.Files.createDirectories(dir);
    java.nio.file.Files.writeString(
        dir.resolve(dev.clusterrun.core.launch.run.JobRunner.TIME_LIMIT_FILE),
        now.plusSeconds(3725).toString() + "\n");
    RunList plain = RunList.of(List.of(head(), other("node2")), Map.of());
    assertThat(plain.renderTable(now)).doesNotContain("TIME LEFT");
    RunList l = plain.withTimeLimits(id -> RunDirectories.timeLimitEnds(ws, id));
    assertThat(find(l, A).timeLimitEnds()).isEqualTo(now.plusSeconds(3725));
    assertThat(find(l, B).timeLimitEnds()).isNull();
    assertThat(l.renderTable(now))
        .containsPattern("STARTED +TIME LEFT +NODES")
        .containsPattern(A + " .*Z +1h 2m 6s +node1,node2 +mpirun")
        .containsPattern(B + " .*Z +- +node1 +mpirun");
    assertThat(l.renderTable(now.plusSeconds(4000))).contains("0s (stopping)");
    assertThat(l.renderJson()).contains("\"timeLimitEnds\" : \"2026-11-28T13:02:05Z\"");
  }

  @Test
  void aNodeThatCouldNotBeAskedIsNamedAndTheRunStaysListedOnTheOthers() {
    RunScan.Node cut =
        RunScan.parse("node3", ExecResult.failed("connection timed out", Duration.ZERO));
    RunList l =
        RunList.of(List.of(head(), other("node2"), cut), Map.of("node4", "No route to host"));
    assertThat(find(l, A).nodes()).containsExactly("node1", "node2");
    assertThat(l.unreachable()).containsOnlyKeys("node4", "node3");
    assertThat(l.renderJson())
        .contains("\"node3\" : \"connection timed out\"")
        .contains("\"runId\" : \"" + A + "\"");
  }

  @Test
  void withoutTheHeadAnsweringTheStateIsUnknownAndTheCommandIsTheTopProcesss() {
    RunList l = RunList.of(List.of(other("node2")), Map.of());
    RunList.Run a = find(l, A);
    assertThat(a.head()).isNull();
    assertThat(a.state()).isEqualTo("unknown");
    assertThat(a.command()).isEqualTo("orted -mca ess env");
  }

  @Test
  void anAnswerWithoutItsNodeLineOrAFailingScanIsTheNodesProblem() {
    assertThat(RunScan.parse("n", answer("garbage")).error()).contains("no answer");
    assertThat(RunScan.parse("n", new ExecResult(1, "", "grep: boom", Duration.ZERO, null)).error())
        .contains("exited 1: grep: boom");
    assertThat(RunList.of(List.of(), Map.of()).renderTable()).contains("no runs");
  }
}
