package dev.clusterrun.it;

import static dev.clusterrun.it.LocalCluster.ok;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.clusterrun.core.remote.ShellQuote;
import dev.clusterrun.it.LocalCluster.Result;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the ITs do with the launcher on the head (node1, as the job user) and what they assert of a
 * run: its last line, its summary.json, the processes it leaves on the nodes. One place for what
 * each IT class had its own copy of.
 */
final class Runs {
  private Runs() {}

  /** A run's last line on stderr: run id, outcome, exit code, run directory (groups 1, 2, 3, 4). */
  static final Pattern RUN_LINE =
      Pattern.compile(
          "clusterrun: run (\\S+) (\\S+) \\(exit (-?\\d+)\\) in .* run directory (\\S+)");

  private static final ObjectMapper JSON = new ObjectMapper();

  /** The run's last line in what {@code r} printed; fails the test when there is none. */
  static Matcher runLine(Result r) {
    Matcher m = RUN_LINE.matcher(r.stderr());
    assertThat(m.find()).as("the run's last line in %s", r).isTrue();
    return m;
  }

  /** The run's summary.json, from the run directory its last line names. */
  static JsonNode summary(Result r) {
    Path dir = Paths.get(runLine(r).group(4));
    try {
      return JSON.readTree(Files.readString(dir.resolve("summary.json")));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The texts of a JSON array. */
  static List<String> texts(JsonNode array) {
    List<String> out = new ArrayList<>();
    array.forEach(n -> out.add(n.asText()));
    return out;
  }

  /** The non-blank lines {@code r} printed on stdout. */
  static List<String> lines(Result r) {
    List<String> out = new ArrayList<>();
    for (String l : r.stdout().split("\n")) {
      if (!l.isBlank()) {
        out.add(l);
      }
    }
    return out;
  }

  /**
   * Live (not zombie) processes on {@code node}, read from /proc as root: any {@code orted}, any
   * carrying {@code CLUSTERRUN_RUN_ID=runId} in its environment (when runId is not empty), and any
   * whose command line is exactly {@code args}. One "PID COMM ARGS" line each. The nodes share this
   * machine's process table, so this sees the processes of every node.
   */
  static List<String> processes(LocalCluster c, String node, String runId, String args) {
    return procs(c, node, runId, args, "");
  }

  /**
   * As {@link #processes}, but only those in {@code node}'s own network namespace: the processes of
   * that node alone.
   */
  static List<String> processesInNode(LocalCluster c, String node, String runId, String args) {
    return procs(c, node, runId, args, Long.toString(c.holderPid(node)));
  }

  private static List<String> procs(
      LocalCluster c, String node, String runId, String args, String holder) {
    String script =
        String.join(
            "\n",
            "id=$1; want=$2; net=''; [ -n \"$3\" ] && net=$(readlink /proc/$3/ns/net)",
            "for d in /proc/[0-9]*; do",
            "  p=${d#/proc/}",
            "  [ \"$p\" = $$ ] && continue",
            "  [ -z \"$net\" ] || [ \"$(readlink \"$d/ns/net\" 2>/dev/null)\" = \"$net\" ] || continue",
            "  st=$(sed 's/.*) //' \"$d/stat\" 2>/dev/null | cut -d' ' -f1)",
            "  [ -n \"$st\" ] && [ \"$st\" != Z ] || continue",
            "  comm=$(cat \"$d/comm\" 2>/dev/null)",
            "  cmd=$(tr '\\000' ' ' < \"$d/cmdline\" 2>/dev/null)",
            "  hit=''",
            "  [ \"$comm\" = orted ] && hit=1",
            "  [ \"$cmd\" = \"$want \" ] && hit=1",
            "  if [ -n \"$id\" ] && tr '\\000' '\\n' < \"$d/environ\" 2>/dev/null"
                + " | grep -qxF \"CLUSTERRUN_RUN_ID=$id\"; then hit=1; fi",
            "  [ -n \"$hit\" ] && echo \"$p $comm $cmd\"",
            "done",
            "exit 0");
    return lines(ok(c.exec(node, true, "sh", "-c", script, "procs", runId, args, holder)));
  }

  /** A line of examples/local-cluster/mpi/ring.c's output. */
  static final Pattern RING =
      Pattern.compile(
          "rank=(\\d+) size=3 host=(\\S+) mntns=(\\S+) ring=(\\d+) allreduce=(\\d+) ok=(\\d)");

  /** host → mount namespace of its rank, asserting 3 ranks on 3 hosts passed the data round. */
  static Map<String, String> ringRanks(String stdout) {
    Map<String, String> ns = new HashMap<>();
    int ranks = 0;
    for (String l : stdout.split("\n")) {
      Matcher m = RING.matcher(l);
      if (m.matches()) {
        ranks++;
        int rank = Integer.parseInt(m.group(1));
        assertThat(Integer.parseInt(m.group(4))).as(l).isEqualTo((rank + 2) % 3);
        assertThat(m.group(5)).as(l).isEqualTo("6");
        assertThat(m.group(6)).as(l).isEqualTo("1");
        ns.put(m.group(2), m.group(3));
      }
    }
    assertThat(ranks).as(stdout).isEqualTo(3);
    assertThat(ns.keySet()).containsExactlyInAnyOrder("node1", "node2", "node3");
    return ns;
  }

  /** node → its own mount namespace (outside any container). */
  static Map<String, String> nodeMountNamespaces(LocalCluster c) {
    Map<String, String> ns = new HashMap<>();
    for (String node : c.nodes()) {
      ns.put(node, ok(c.exec(node, "readlink", "/proc/self/ns/mnt")).out());
    }
    return ns;
  }

  // ---------------------------------------------------------------------------------------------
  // The head

  /** The repository's root (examples/ and the rest), found from cluster.sh. */
  static Path repo() {
    return LocalCluster.script().getParent().getParent().getParent();
  }

  /** A file of the repository, e.g. {@code examples/hello-mpi.yaml}. */
  static String repoFile(String relative) {
    try {
      return Files.readString(repo().resolve(relative));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * {@code --container-image COPY} when {@code CLUSTERRUN_IT_IMAGE} names an image (copied to
   * {@code copy}, owned by the job user), else empty: the job's own image then.
   */
  static List<String> givenImageFlags(LocalCluster c, String copy) {
    String given = System.getenv("CLUSTERRUN_IT_IMAGE");
    if (given == null || given.isBlank()) {
      return List.of();
    }
    copyGivenImage(c, given, copy);
    return List.of("--container-image", copy);
  }

  /**
   * As {@link #givenImageFlags}, and with a real enroot ({@code CLUSTERRUN_IT_REAL_ENROOT=1}) the
   * image must be given: the test fails when it is not.
   */
  static List<String> requiredImageFlags(LocalCluster c, String copy) {
    List<String> flags = givenImageFlags(c, copy);
    if (flags.isEmpty()) {
      requireGivenImageWithRealEnroot();
    }
    return flags;
  }

  /**
   * {@code flags}, or when they are empty {@code --container-image} of the cluster's tiny image.
   */
  static List<String> orTinyImage(LocalCluster c, List<String> flags) {
    return flags.isEmpty() ? List.of("--container-image", c.tinyImage()) : flags;
  }

  /** Fails when a real enroot is asked for without {@code CLUSTERRUN_IT_IMAGE}. */
  static void requireGivenImageWithRealEnroot() {
    assertThat(LocalClusterExtension.realEnrootRequested())
        .as("CLUSTERRUN_IT_REAL_ENROOT=1 needs CLUSTERRUN_IT_IMAGE (from build-image.sh)")
        .isFalse();
  }

  /**
   * The job's image as a squashfs file at {@code path}: {@code CLUSTERRUN_IT_IMAGE} copied there
   * when given, else the tiny image imported there by the nodes' enroot.
   */
  static void imageFileAt(LocalCluster c, String path) {
    String given = System.getenv("CLUSTERRUN_IT_IMAGE");
    if (given != null && !given.isBlank()) {
      copyGivenImage(c, given, path);
    } else {
      requireGivenImageWithRealEnroot();
      ok(c.exec("node1", "enroot", "import", "-o", path, "docker://clusterrun/tiny"));
    }
  }

  private static void copyGivenImage(LocalCluster c, String given, String copy) {
    try {
      Files.copy(Paths.get(given), Paths.get(copy), StandardCopyOption.REPLACE_EXISTING);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    ok(c.exec("node1", true, "chown", c.jobUser(), copy));
  }

  /**
   * What clusterrun's setup would write, as the drop-in {@code enroot.conf.d/50-NAME.conf} on every
   * node: the runtime path per user in /tmp, the data and cache paths per user under {@code data}
   * and {@code cache} ({@code DIR/user-UID}), and with {@code mountHome} the home mounted.
   */
  static void enrootPaths(
      LocalCluster c, String name, String data, String cache, boolean mountHome) {
    c.writeEnrootFile(
        "enroot.conf.d/50-" + name + ".conf",
        "ENROOT_RUNTIME_PATH /tmp/enroot-runtime-$(id -u)\n"
            + ("ENROOT_DATA_PATH " + data + "/user-$(id -u)\n")
            + ("ENROOT_CACHE_PATH " + cache + "/user-$(id -u)\n")
            + (mountHome ? "ENROOT_MOUNT_HOME yes\n" : ""),
        "rw-r--r--");
  }

  /**
   * The container {@code name} on the head, made by enroot from the job's image at {@code path}
   * ({@link #imageFileAt}).
   */
  static void containerAt(LocalCluster c, String name, String path) {
    imageFileAt(c, path);
    ok(c.exec("node1", "enroot", "create", "-n", name, path));
  }

  /**
   * examples/local-cluster/mpi/ring.c written to {@code dir} as the job user and compiled there to
   * {@code dir/ring} by the head's mpicc (the stand-in's containers see the node's /usr: the node's
   * mpicc is the container's).
   */
  static void compileRing(LocalCluster c, String dir) {
    c.writeAsJobUser(dir + "/ring.c", repoFile("examples/local-cluster/mpi/ring.c"));
    ok(c.exec("node1", "mpicc", "-O2", "-o", dir + "/ring", dir + "/ring.c"));
  }

  /** mpirun's flags that keep Open MPI's TCP traffic (btl and oob) on the cluster's network. */
  static List<String> mcaOnClusterNetwork(LocalCluster c) {
    return List.of(
        "--mca", "btl_tcp_if_include", c.subnet(), "--mca", "oob_tcp_if_include", c.subnet());
  }

  /**
   * Keeps Open MPI on the cluster's network on a multi-homed host: mca-params.conf in the job
   * user's home, read by mpirun and orted (every container mounts the home directory).
   */
  static void keepMpiOnClusterNetwork(LocalCluster c) {
    ok(c.exec("node1", "mkdir", "-p", c.jobHome() + "/.openmpi"));
    c.writeAsJobUser(
        c.jobHome() + "/.openmpi/mca-params.conf",
        "btl_tcp_if_include = " + c.subnet() + "\noob_tcp_if_include = " + c.subnet() + "\n");
  }

  /** {@code cd DIR && exec env ENV... ARGV} on the head as the job user. */
  static Result inDir(
      LocalCluster c, String dir, Duration timeout, List<String> env, List<String> argv) {
    return c.exec("node1", false, null, timeout, List.of("sh", "-c", script(dir, env, argv)));
  }

  /** As {@link #inDir}, and prints the command and what it gave back on stderr. */
  static Result shown(
      LocalCluster c, String dir, Duration timeout, List<String> env, List<String> argv) {
    Result r = inDir(c, dir, timeout, env, argv);
    System.err.println("--- " + String.join(" ", argv) + "\n" + r);
    return r;
  }

  /**
   * {@code cd DIR && exec ARGV} on the head as {@code user}; prints the command and what it gave
   * back on stderr.
   */
  static Result shownAs(
      LocalCluster c, LocalCluster.JobUser user, String dir, Duration timeout, List<String> argv) {
    String sh = script(dir, List.of(), argv);
    Result r = c.execAs(user, "node1", null, timeout, List.of("sh", "-c", sh));
    System.err.println("--- as " + user.name() + ": " + String.join(" ", argv) + "\n" + r);
    return r;
  }

  private static String script(String dir, List<String> env, List<String> argv) {
    List<String> cmd = new ArrayList<>();
    if (!env.isEmpty()) {
      cmd.add("env");
      cmd.addAll(env);
    }
    cmd.addAll(argv);
    return "cd " + ShellQuote.quote(dir) + " && exec " + ShellQuote.join(cmd);
  }

  /**
   * Runs {@code argv} (clusterrun and its arguments, a job of {@code sleep 987}) from {@code dir}
   * on the head, waits until one {@code sleep 987} of the run runs on each node, interrupts
   * clusterrun as Ctrl-C does, and asserts that it exits 130, its last line says {@code
   * interrupted}, and no process of the run (nor any orted) is left on any node. Returns what
   * clusterrun gave back.
   */
  static Result interruptedOnceRunning(LocalCluster c, String dir, List<String> argv)
      throws Exception {
    JobSignals.Running j = JobSignals.start(c, dir, argv, "sleep 987", c.nodes().size());
    JobSignals.send(c, j, "INT");
    Result r = j.result().get(90, TimeUnit.SECONDS);
    System.err.println("--- " + String.join(" ", argv) + ", SIGINT once running\n" + r);
    assertThat(r.exitCode()).as("%s", r).isEqualTo(130);
    String runId = runLine(r).group(1);
    assertThat(runId).isEqualTo(j.runId());
    assertThat(runLine(r).group(2)).isEqualTo("interrupted");
    for (String node : c.nodes()) {
      assertThat(processes(c, node, runId, "sleep 987"))
          .as("orted or processes of run %s on %s", runId, node)
          .isEmpty();
    }
    return r;
  }

  /**
   * Runs {@code argv} (clusterrun and its arguments, a job of {@code sleep 120}) from the shared
   * directory on the head, kills clusterrun with SIGKILL once the job runs on every node, and
   * asserts that it exits 137, no process of its run is left on any node within 10 s (seen by a
   * search of every node begun by then), and the head's watcher, once done, wrote what it stopped
   * (the head's {@code sleep 120} among them) in the run directory.
   */
  static void killedLeavesNothingBehind(ClusterrunExtension head, List<String> argv)
      throws Exception {
    LocalCluster c = head.cluster();
    try {
      JobSignals.Running j =
          JobSignals.start(c, head.shared(), argv, "sleep 120", c.nodes().size());
      JobSignals.send(c, j, "KILL");
      Result r = j.result().get(60, TimeUnit.SECONDS);
      assertThat(r.exitCode()).as("%s", r).isEqualTo(137);
      List<String> left = JobSignals.leftAfter(c, j.runId(), Duration.ofSeconds(10));
      Path record =
          Paths.get(head.ws(), "runs", j.runId(), "lifeline-" + c.nodes().get(0) + ".log");
      assertThat(left)
          .as(
              "processes of run %s 10 s after clusterrun was killed (the head's watcher wrote: %s)",
              j.runId(), Files.exists(record) ? Files.readString(record) : "nothing")
          .isEmpty();
      assertThat(record).as("the head's watcher's record").exists();
      // The watcher may still be at its second search (1 s after the first) when nothing is left.
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      while (!Files.readString(record).contains(": done") && System.nanoTime() < deadline) {
        Thread.sleep(200);
      }
      assertThat(Files.readString(record))
          .contains("clusterrun ended without ending the run; stopping its processes")
          // The job's sleep, found by the watcher; "(exiting)" when it was ending on its own
          // (its node's session gone with clusterrun) as the watcher read its command line.
          .containsPattern("(?m)^leftover [0-9]+ (sleep 120 |\\(exiting\\))$")
          .contains(": done");
      // logs -f of a killed run ends (it has no summary) and says what became of the job.
      Result logs =
          head.run(
              Duration.ofSeconds(30),
              List.of(),
              List.of("logs", "-f", j.runId(), "--workspace", head.ws()));
      assertThat(logs.exitCode()).as("%s", logs).isZero();
      assertThat(logs.stderr())
          .contains(j.runId() + ": the clusterrun that ran it ended without ending it")
          .contains("lifeline-" + c.nodes().get(0) + ".log");
    } finally {
      JobSignals.endMasters(c);
    }
  }
}
