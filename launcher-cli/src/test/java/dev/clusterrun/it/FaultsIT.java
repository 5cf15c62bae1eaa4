package dev.clusterrun.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.clusterrun.core.remote.ShellQuote;
import dev.clusterrun.it.LocalCluster.Result;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * clusterrun under the faults of real clusters, on three nodes that all carry Docker's bridge
 * ({@code docker0} 172.17.0.1/16, the same address on every node): a real MPI program passes
 * because run keeps Open MPI to the network the nodes were reached on; and it does not without
 * that. Nothing here selects an interface for Open MPI but clusterrun: no {@code
 * ~/.openmpi/mca-params.conf}, no {@code OMPI_MCA_*} in the environment, no MCA in the job file.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class FaultsIT {
  @RegisterExtension
  static LocalClusterExtension CLUSTER =
      new LocalClusterExtension(3, LocalCluster.Options.DEFAULT.withDockerBridge());

  static final Duration RUN_TIMEOUT = Duration.ofSeconds(180);

  static final Pattern RING =
      Pattern.compile(
          "rank=(\\d+) size=3 host=(\\S+) mntns=(\\S+) ring=(\\d+) allreduce=(\\d+) ok=(\\d)");
  static final Pattern RUN_LINE =
      Pattern.compile(
          "clusterrun: run (\\S+) (\\S+) \\(exit (-?\\d+)\\) in .* run directory (\\S+)");

  static String shared;
  static String launcher;
  static String hosts;
  static String ws;
  static List<String> imageFlags = List.of();

  static LocalCluster c() {
    return CLUSTER.cluster();
  }

  @BeforeAll
  static void launcherJobAndProgramThenSetup() throws IOException {
    LocalCluster c = c();
    shared = c.sharedDir().toString();
    launcher = c.installClusterrun(Paths.get("target")).toString();
    hosts = shared + "/faults-hosts";
    ws = shared + "/faults-ws";
    Path repo = LocalCluster.script().getParent().getParent().getParent();
    ok(c.exec("node1", "mkdir", "-p", shared + "/examples", ws));
    writeAsJobUser(hosts, c.hostfile(1));
    // The job file without any MCA setting: only clusterrun may choose the interface.
    writeAsJobUser(
        shared + "/faults-ring.yaml",
        "name: faults-ring\n"
            + "container:\n"
            + "  image: docker://clusterrun/tiny\n"
            + "workspace:\n"
            + "  mount: /workspace\n"
            + "command: [/workspace/ring]\n");
    writeAsJobUser(
        ws + "/ring.c", Files.readString(repo.resolve("examples/local-cluster/mpi/ring.c")));
    ok(c.exec("node1", "mpicc", "-O2", "-o", ws + "/ring", ws + "/ring.c"));
    String image = System.getenv("CLUSTERRUN_IT_IMAGE");
    if (image != null && !image.isBlank()) {
      Path copy = Paths.get(shared, "it-image.sqsh");
      Files.copy(Paths.get(image), copy, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
      imageFlags = List.of("--container-image", copy.toString());
    }
    ok(
        c.exec(
            "node1",
            false,
            null,
            RUN_TIMEOUT,
            List.of(
                launcher,
                "setup",
                "--nodes",
                hosts,
                "--data-path",
                shared + "/faults-enroot-data")));
  }

  // ----------------------------------------------------------------------------------------------
  // Docker's bridge on every node

  @Test
  @Order(1)
  void checkWarnsThatDocker0HasTheSameAddressOnEveryNode() {
    assertThat(c().dockerBridge()).contains("docker0 172.17.0.1/16");
    assertThat(c().jobHome().resolve(".openmpi/mca-params.conf")).doesNotExist();
    Result r = inShared(List.of(), List.of("check", "--nodes", hosts));
    ok(r);
    assertThat(r.stdout())
        .contains(
            "! network on node2: docker0 172.17.0.1 is also on node1, node3 (Docker's bridge)")
        .contains("clusterrun run keeps Open MPI to " + c().subnet() + " by itself");
  }

  @Test
  @Order(2)
  void aRealMpiProgramPassesWithDocker0OnEveryNode() throws IOException {
    Result plan = inShared(List.of(), job(List.of("plan")));
    ok(plan);
    assertThat(plan.stdout()).containsPattern("mpi.network +auto +default \\(auto: run finds");

    Result r = inShared(List.of(), job(List.of("run")));
    ok(r);
    assertThat(r.stderr())
        .contains(
            "clusterrun: network: "
                + c().subnet()
                + " (auto: the network the head reached every node on");
    List<String> hostsSeen = new ArrayList<>();
    for (String l : r.stdout().split("\n")) {
      Matcher m = RING.matcher(l);
      if (m.matches()) {
        int rank = Integer.parseInt(m.group(1));
        assertThat(Integer.parseInt(m.group(4))).as(l).isEqualTo((rank + 2) % 3);
        assertThat(m.group(5)).as(l).isEqualTo("6");
        hostsSeen.add(m.group(2));
      }
    }
    assertThat(hostsSeen).containsExactlyInAnyOrder("node1", "node2", "node3");
    // The command it ran, kept in the run directory, carries the selection.
    JsonNode s = summary(r);
    assertThat(s.path("outcome").asText()).isEqualTo("succeeded");
    String planText = Files.readString(Paths.get(s.path("runDir").asText(), "plan.txt"));
    assertThat(planText)
        .contains("--mca btl_tcp_if_include " + c().subnet())
        .contains("--mca oob_tcp_if_include " + c().subnet());
  }

  @Test
  @Order(3)
  void withoutTheSelectionTheSameRunHangsOrFails() {
    // --network none: Open MPI's own choice, as a hand-typed mpirun makes it. The canary (a short
    // mpirun of the same shape) or the job hangs on docker0; SIGINT after 40 s stops it.
    List<String> args = job(List.of("run", "--network", "none"));
    List<String> cmd = new ArrayList<>(List.of("timeout", "-s", "INT", "40", launcher));
    cmd.addAll(args);
    Result r = shell(cmd);
    assertThat(r.exitCode()).as("%s", r).isNotZero();
    long ranks = r.stdout().lines().filter(l -> RING.matcher(l).matches()).count();
    assertThat(ranks).as("%s", r).isLessThan(3);
    assertThat(r.stderr()).contains("clusterrun: network: none");
  }

  // ----------------------------------------------------------------------------------------------

  /** {@code COMMAND faults-ring.yaml --nodes H --workspace WS [image] EXTRA}. */
  static List<String> job(List<String> commandAndFlags) {
    List<String> args = new ArrayList<>(commandAndFlags.subList(0, 1));
    args.addAll(List.of("faults-ring.yaml", "--nodes", hosts, "--workspace", ws));
    args.addAll(imageFlags);
    args.addAll(commandAndFlags.subList(1, commandAndFlags.size()));
    return args;
  }

  static Result inShared(List<String> env, List<String> args) {
    List<String> cmd = new ArrayList<>();
    cmd.add("env");
    cmd.addAll(env);
    cmd.add(launcher);
    cmd.addAll(args);
    return shell(cmd);
  }

  static Result shell(List<String> cmd) {
    String script = "cd " + ShellQuote.quote(shared) + " && exec " + ShellQuote.join(cmd);
    Result r = c().exec("node1", false, null, RUN_TIMEOUT, List.of("sh", "-c", script));
    System.err.println("--- " + String.join(" ", cmd) + "\n" + r);
    return r;
  }

  static void writeAsJobUser(String path, String content) {
    ok(
        c().exec(
                "node1",
                false,
                content,
                Duration.ofSeconds(30),
                List.of("sh", "-c", "cat > " + ShellQuote.quote(path))));
  }

  static Result ok(Result r) {
    assertThat(r.exitCode()).as("%s", r).isZero();
    return r;
  }

  static JsonNode summary(Result r) {
    Matcher m = RUN_LINE.matcher(r.stderr());
    assertThat(m.find()).as("the run's last line in %s", r).isTrue();
    try {
      return new ObjectMapper()
          .readTree(Files.readString(Paths.get(m.group(4)).resolve("summary.json")));
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
