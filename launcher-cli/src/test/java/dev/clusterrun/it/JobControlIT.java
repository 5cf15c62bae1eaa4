package dev.clusterrun.it;

import static dev.clusterrun.it.LocalCluster.ok;
import static org.assertj.core.api.Assertions.assertThat;

import dev.clusterrun.core.remote.ShellQuote;
import dev.clusterrun.it.LocalCluster.Result;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Job control without a daemon, on three nodes: {@code run --detach} returns once the checks
 * passed, {@code ps} lists the run with its nodes, {@code logs -f} follows it, {@code stop} from
 * another node ends it and nothing with its run id is left on any node; an unknown id is bad input;
 * a node cut off is named by {@code ps}, which still lists the run on the others.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class JobControlIT {
  @RegisterExtension
  static final ClusterrunExtension HEAD = new ClusterrunExtension(3, "jc-hosts", 1, "jc-ws");

  static final Duration TIMEOUT = Duration.ofSeconds(180);
  static final Pattern RUN_ID =
      Pattern.compile("^(\\d{8}-\\d{6}-jc-[0-9a-f]{4})$", Pattern.MULTILINE);

  static List<String> imageFlags = List.of();

  @BeforeAll
  static void jobAndSetup() {
    // Every rank prints a numbered line twice a second, for at most five minutes.
    HEAD.cluster()
        .writeAsJobUser(
            HEAD.shared() + "/jc.yaml",
            "name: jc\n"
                + "container:\n"
                + "  image: "
                + HEAD.cluster().tinyImage()
                + "\n"
                + "workspace:\n"
                + "  mount: /workspace\n"
                + "command: [sh, -c, 'i=0; while [ $i -lt 600 ]; do echo \"tick $i $(hostname)\";"
                + " i=$((i+1)); sleep 0.5; done']\n");
    imageFlags = Runs.givenImageFlags(HEAD.cluster(), HEAD.shared() + "/it-image.sqsh");
    HEAD.setup(HEAD.shared() + "/jc-enroot-data");
  }

  @Test
  @Order(1)
  void detachPsLogsFollowAndStopFromAnotherNodeLeaveNothing() throws Exception {
    long t0 = System.nanoTime();
    Result d = detach();
    double took = (System.nanoTime() - t0) / 1e9;
    System.err.printf("--- run --detach returned in %.1f s%n", took);
    ok(d);
    Matcher m = RUN_ID.matcher(d.stdout());
    assertThat(m.find()).as("the run id on stdout: %s", d).isTrue();
    String id = m.group(1);
    assertThat(d.stderr()).contains("started in the background").contains("checks passed");
    assertThat(took).as("seconds until --detach returned").isLessThan(90);
    try {
      // The job goes on without the foreground: every node has processes of the run.
      waitForProcessesOnEveryNode(id);
      Result ps = as("node1", List.of("ps", "--nodes", HEAD.hosts()));
      ok(ps);
      String line = lineOf(ps.stdout(), id);
      assertThat(line)
          .contains("node1,node2,node3")
          .contains("running")
          .contains(HEAD.cluster().jobUser());
      Result json = as("node3", List.of("ps", "--nodes", HEAD.hosts(), "--json"));
      ok(json);
      assertThat(json.stdout())
          .contains("\"runId\" : \"" + id + "\"")
          .contains("\"head\" : \"node1\"");

      // logs -f follows the run: it sees lines appear, and ends when the run ends.
      Result before = as("node2", List.of("logs", id, "--workspace", HEAD.ws()));
      ok(before);
      int seen = lastTick(before.stdout());
      CompletableFuture<Result> follow =
          CompletableFuture.supplyAsync(
              () -> as("node3", List.of("logs", "-f", id, "--workspace", HEAD.ws())));
      Thread.sleep(3000);
      assertThat(follow.isDone()).as("logs -f ended while the run runs").isFalse();

      // stop from another node than the head, as the job user.
      Result stop = as("node2", List.of("stop", id, "--nodes", HEAD.hosts()));
      ok(stop);
      assertThat(stop.stderr())
          .contains("mpirun on node1 got SIGINT")
          .contains("run " + id + " is gone from every node");
      for (String n : HEAD.cluster().nodes()) {
        assertThat(withRunId(n, id)).as("processes of the run on %s", n).isEmpty();
      }
      Result followed = follow.get(60, TimeUnit.SECONDS);
      ok(followed);
      assertThat(lastTick(followed.stdout()))
          .as("logs -f saw lines appear")
          .isGreaterThan(seen + 3);
      assertThat(Paths.get(HEAD.ws(), "runs", id, "summary.json")).exists();
      // The background clusterrun finished the run: its last line is in clusterrun.log.
      Path said = Paths.get(HEAD.ws(), "runs", id, "clusterrun.log");
      long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      while (System.nanoTime() < until
          && !(Files.exists(said) && Files.readString(said).contains("run directory"))) {
        Thread.sleep(300);
      }
      assertThat(Files.readString(said))
          .contains("running: enroot start")
          .containsPattern("run " + id + " \\S+ \\(exit -?\\d+\\) in .* run directory");
      Result after = as("node1", List.of("ps", "--nodes", HEAD.hosts()));
      ok(after);
      assertThat(after.stdout()).doesNotContain(id);
    } finally {
      as("node1", List.of("stop", id, "--nodes", HEAD.hosts(), "--workspace", HEAD.ws()));
    }
  }

  @Test
  @Order(2)
  void stopOfAnUnknownRunIsBadInputNamingIt() {
    Result r = as("node2", List.of("stop", "20200101-000000-nope-beef", "--nodes", HEAD.hosts()));
    assertThat(r.exitCode()).as("%s", r).isEqualTo(2);
    assertThat(r.stderr()).contains("clusterrun: 20200101-000000-nope-beef: no run of that id");
    Result l = as("node2", List.of("logs", "20200101-000000-nope-beef", "--workspace", HEAD.ws()));
    assertThat(l.exitCode()).as("%s", l).isEqualTo(2);
    assertThat(l.stderr()).contains("20200101-000000-nope-beef");
  }

  @Test
  @Order(3)
  void psWithANodeCutNamesItAndStillListsTheRunOnTheOthers() throws Exception {
    Result d = detach("--node-timeout", "10m");
    ok(d);
    Matcher m = RUN_ID.matcher(d.stdout());
    assertThat(m.find()).as("%s", d).isTrue();
    String id = m.group(1);
    try {
      waitForProcessesOnEveryNode(id);
      HEAD.cluster().cut("node3");
      Result ps;
      try {
        ps = as("node2", List.of("ps", "--nodes", HEAD.hosts(), "--connect-timeout", "3s"));
      } finally {
        HEAD.cluster().uncut("node3");
      }
      assertThat(ps.exitCode()).as("%s", ps).isEqualTo(3);
      assertThat(ps.stderr()).contains("clusterrun: node3: ");
      assertThat(lineOf(ps.stdout(), id)).contains("node1,node2 ").doesNotContain("node3");
    } finally {
      ok(as("node1", List.of("stop", id, "--nodes", HEAD.hosts())));
      for (String n : HEAD.cluster().nodes()) {
        assertThat(withRunId(n, id)).as("processes of the run on %s", n).isEmpty();
      }
    }
  }

  // ----------------------------------------------------------------------------------------------

  static Result detach(String... extra) {
    List<String> args = HEAD.onNodes("run", "--detach", "jc.yaml");
    args.addAll(imageFlags);
    args.addAll(List.of(extra));
    return as("node1", args);
  }

  static void waitForProcessesOnEveryNode(String id) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (System.nanoTime() < deadline) {
      Result ps = as("node1", List.of("ps", "--nodes", HEAD.hosts()));
      if (ps.stdout().contains(id) && lineOf(ps.stdout(), id).contains("node1,node2,node3")) {
        return;
      }
      Thread.sleep(500);
    }
    throw new AssertionError("run " + id + " never ran on every node");
  }

  static String lineOf(String out, String id) {
    for (String l : out.split("\n")) {
      if (l.startsWith(id + " ")) {
        return l;
      }
    }
    throw new AssertionError("no line of " + id + " in:\n" + out);
  }

  static int lastTick(String out) {
    int last = -1;
    Matcher m = Pattern.compile("tick (\\d+)").matcher(out);
    while (m.find()) {
      last = Math.max(last, Integer.parseInt(m.group(1)));
    }
    return last;
  }

  /**
   * PIDs on {@code node} (read as root from /proc) with CLUSTERRUN_RUN_ID=id in their environment.
   */
  static List<String> withRunId(String node, String id) {
    Result r =
        HEAD.cluster()
            .exec(
                node,
                true,
                null,
                Duration.ofSeconds(30),
                List.of(
                    "sh",
                    "-c",
                    "for f in $(printf '%s\\n' \"CLUSTERRUN_RUN_ID=$1\" | grep -lzxF -f -"
                        + " /proc/[0-9]*/environ 2>/dev/null); do d=${f%/*}; echo \"${d#/proc/}"
                        + " $(tr '\\000' ' ' < $d/cmdline 2>/dev/null)\"; done; exit 0",
                    "scan",
                    id));
    ok(r);
    List<String> out = new ArrayList<>();
    for (String l : r.stdout().split("\n")) {
      if (!l.isBlank()) {
        out.add(l);
      }
    }
    return out;
  }

  /** clusterrun with {@code args} on {@code node} as the job user, in the shared directory. */
  static Result as(String node, List<String> args) {
    String script =
        "cd "
            + ShellQuote.quote(HEAD.shared())
            + " && exec "
            + HEAD.launcher()
            + " "
            + ShellQuote.join(args);
    Result r = HEAD.cluster().exec(node, false, null, TIMEOUT, List.of("sh", "-c", script));
    System.err.println("--- " + node + ": clusterrun " + String.join(" ", args) + "\n" + r);
    return r;
  }
}
