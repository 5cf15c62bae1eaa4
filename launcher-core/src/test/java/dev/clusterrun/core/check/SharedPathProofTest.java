package dev.clusterrun.core.check;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clusterrun.core.cluster.Host;
import dev.clusterrun.core.cluster.Hostfile;
import dev.clusterrun.core.enroot.PathTemplate;
import dev.clusterrun.core.remote.NodeShell;
import dev.clusterrun.core.session.FanOut;
import dev.clusterrun.core.session.Progress;
import dev.clusterrun.core.session.Session;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The proof with real {@code sh} "nodes" whose data paths are shared or node-local. */
class SharedPathProofTest {
  private static final Duration T = Duration.ofSeconds(20);

  @TempDir Path tmp;
  Path shared;
  FanOut pool;
  final Map<String, NodeShell> shells = new LinkedHashMap<>();
  final Map<String, String> data = new LinkedHashMap<>();

  @BeforeEach
  void setUp() throws IOException, InterruptedException {
    Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rwxr-xr-x"));
    shared = Files.createDirectories(tmp.resolve("shared/enroot"));
    pool = new FanOut(4);
  }

  @AfterEach
  void tearDown() {
    pool.close();
  }

  private void node(String name, NodeShell shell, Path dataPath) {
    shells.put(name, shell);
    data.put(name, dataPath.toString());
  }

  private SharedPathProof.Verdict prove() throws InterruptedException {
    return new SharedPathProof(pool, T)
        .prove("head", shells, java.util.List.of(new SharedPathProof.Subject(data, false)))
        .get(0);
  }

  private ShNodeShell sh(String name) {
    return ShNodeShell.of(name, tmp.toString());
  }

  /** Every node of {@code r} came to {@code status}. */
  private static void assertEveryNode(SharedPathProof.Verdict r, SharedPathProof.Status status) {
    assertThat(r.nodes().values())
        .extracting(SharedPathProof.NodeProof::status)
        .containsOnly(status);
  }

  private void assertNoProbeLeft(Path dir) throws IOException, InterruptedException {
    try (Stream<Path> s = Files.list(dir)) {
      assertThat(s.map(p -> p.getFileName().toString()))
          .noneMatch(n -> n.startsWith(".clusterrun-probe-"));
    }
  }

  private SharedPathProof.Verdict proveTemplate(String template) throws InterruptedException {
    List<Host> hosts = new ArrayList<>();
    shells.keySet().forEach(n -> hosts.add(new Host(n, 1, false, 0, hosts.size() + 1)));
    Session session =
        new Session(
            new Hostfile("hosts.txt", hosts), "head", shells, Map.of(), pool, Progress.NONE);
    return SharedPathProof.ofPath(
        session, PathTemplate.parse("--data-path", template, PathTemplate.Kind.STORAGE), T);
  }

  /**
   * A per-user template is proven as enroot expands it for the session's user on each node (made by
   * the head), never as written; a node where it would not expand is named.
   */
  @Test
  void aPerUserTemplateIsProvenAsExpandedForTheUserNeverAsWritten() throws Exception {
    String uid =
        new String(new ProcessBuilder("id", "-u").start().getInputStream().readAllBytes()).strip();
    node("head", sh("head").withEnv("USER", "ana"), shared);
    node("n2", sh("n2").withEnv("USER", "ana"), shared);
    SharedPathProof.Verdict r = proveTemplate(shared + "/$(id -u)/$USER");
    String expanded = shared + "/" + uid + "/ana";
    assertThat(r.headProblem()).isNull();
    assertEveryNode(r, SharedPathProof.Status.SHARED);
    assertThat(r.nodes().get("n2").path()).isEqualTo(expanded);
    assertThat(Paths.get(expanded)).isDirectory();
    try (Stream<Path> all = Files.walk(tmp)) {
      assertThat(all.map(p -> p.getFileName().toString())).noneMatch(n -> n.contains("$"));
    }
    assertNoProbeLeft(Paths.get(expanded));

    shells.put("n2", sh("n2").withEnv("USER", ""));
    r = proveTemplate(shared + "/$USER");
    assertThat(r.problem("head")).isEmpty();
    assertThat(r.problem("n2"))
        .hasValue("$USER is empty for the user here, so " + shared + "/$USER is not per user");
  }

  @Test
  void nodesOnTheSameStorageAreProvenSharedAndTheProbeIsRemoved()
      throws IOException, InterruptedException {
    node("head", sh("head"), shared);
    node("n2", sh("n2"), shared);
    node("n3", sh("n3"), shared);
    SharedPathProof.Verdict r = prove();
    assertEveryNode(r, SharedPathProof.Status.SHARED);
    assertThat(r.nodes().get("n2").detail()).contains("the head read its own");
    assertThat(r.cleanupProblem()).isNull();
    assertNoProbeLeft(shared);
  }

  @Test
  void aNodeWithItsOwnDirectoryIsNotSharedAndSaysWhatItSaw()
      throws IOException, InterruptedException {
    Path local = Files.createDirectories(tmp.resolve("n3-local/enroot"));
    node("head", sh("head"), shared);
    node("n2", sh("n2"), shared);
    node("n3", sh("n3"), local);
    node("n4", sh("n4"), tmp.resolve("does/not/exist"));
    SharedPathProof.Verdict r = prove();
    assertThat(r.nodes().get("n2").status()).isEqualTo(SharedPathProof.Status.SHARED);
    SharedPathProof.NodeProof n3 = r.nodes().get("n3");
    assertThat(n3.status()).isEqualTo(SharedPathProof.Status.NOT_SHARED);
    assertThat(n3.detail())
        .startsWith("does not see the head's probe " + shared + "/.clusterrun-probe-")
        .contains("(its ENROOT_DATA_PATH is " + local + ")");
    SharedPathProof.NodeProof n4 = r.nodes().get("n4");
    assertThat(n4.status()).isEqualTo(SharedPathProof.Status.NOT_SHARED);
    assertThat(n4.detail()).startsWith("has no directory " + tmp.resolve("does/not/exist"));
    assertNoProbeLeft(shared);
    assertNoProbeLeft(local);
  }

  @Test
  void samePathButNodeLocalStorageIsNotShared() throws Exception {
    Path local = Files.createDirectories(tmp.resolve("local-disk"));
    ShNodeShell n3 =
        sh("n3")
            .withPrefix(
                "unshare",
                "-m",
                "sh",
                "-c",
                "mount --bind \"$1\" \"$2\" && shift 2 && exec \"$@\"",
                "mnt",
                local.toString(),
                shared.toString());
    Assumptions.assumeTrue(
        n3.run("true", T).ok(), "mount namespaces are not available on this machine");
    node("head", sh("head"), shared);
    node("n3", n3, shared);
    SharedPathProof.Verdict r = prove();
    assertThat(r.nodes().get("n3").status()).isEqualTo(SharedPathProof.Status.NOT_SHARED);
    assertThat(r.nodes().get("n3").detail())
        .startsWith("does not see the head's probe")
        .doesNotContain("its ENROOT_DATA_PATH");
  }

  @Test
  void aNodeThatReadsButCannotWriteIsAnError() throws IOException, InterruptedException {
    node("head", sh("head"), shared);
    node(
        "n2",
        sh("n2").withPrefix("setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"),
        shared);
    SharedPathProof.Verdict r = prove();
    SharedPathProof.NodeProof n2 = r.nodes().get("n2");
    assertThat(n2.status()).isEqualTo(SharedPathProof.Status.ERROR);
    assertThat(n2.detail())
        .startsWith("read the head's probe but could not write")
        .contains("Permission denied");
    assertNoProbeLeft(shared);
  }

  @Test
  void whenTheHeadCannotWriteEveryNodeIsAnError() throws IOException, InterruptedException {
    Path file = Files.writeString(tmp.resolve("a-file"), "x");
    node("head", sh("head"), file);
    node("n2", sh("n2"), shared);
    SharedPathProof.Verdict r = prove();
    assertEveryNode(r, SharedPathProof.Status.ERROR);
    assertThat(r.nodes().get("n2").detail()).startsWith("the head could not write " + file);
  }

  /** Counts the commands a node is sent. */
  private static NodeShell counted(NodeShell s, java.util.concurrent.atomic.AtomicInteger calls) {
    return new NodeShell() {
      @Override
      public String node() {
        return s.node();
      }

      @Override
      public dev.clusterrun.core.remote.ExecResult run(String script, Duration timeout) {
        calls.incrementAndGet();
        return s.run(script, timeout);
      }

      @Override
      public void close() {
        s.close();
      }
    };
  }

  @Test
  void twoDirectoriesAreProvenInTheRoundsOfOneEachWithItsOwnVerdict() throws Exception {
    // The run's proof: the data path (as the facts give it) and the workspace, which the head
    // creates first; n3 reaches the workspace through a directory of its own.
    Path ws = tmp.resolve("shared/ws-not-there-yet");
    Path n3ws = Files.createDirectories(tmp.resolve("n3-local/ws"));
    java.util.concurrent.atomic.AtomicInteger headCalls =
        new java.util.concurrent.atomic.AtomicInteger();
    java.util.concurrent.atomic.AtomicInteger n2Calls =
        new java.util.concurrent.atomic.AtomicInteger();
    node("head", counted(sh("head"), headCalls), shared);
    node("n2", counted(sh("n2"), n2Calls), shared);
    node("n3", sh("n3"), shared);
    Map<String, String> wsPaths = new LinkedHashMap<>();
    wsPaths.put("head", ws.toString());
    wsPaths.put("n2", ws.toString());
    wsPaths.put("n3", n3ws.toString());

    java.util.List<SharedPathProof.Verdict> v =
        new SharedPathProof(pool, T)
            .prove(
                "head",
                shells,
                java.util.List.of(
                    new SharedPathProof.Subject(data, false),
                    new SharedPathProof.Subject(wsPaths, true)));

    assertThat(v).hasSize(2);
    assertEveryNode(v.get(0), SharedPathProof.Status.SHARED);
    assertThat(Files.isDirectory(ws)).as("the head created the workspace").isTrue();
    assertThat(v.get(1).problem("n2")).isEmpty();
    assertThat(v.get(1).problem("n3").orElseThrow())
        .startsWith("does not see the head's probe " + ws + "/.clusterrun-probe-");
    // One command to write, one to read back: for both directories.
    assertThat(headCalls.get()).isEqualTo(2);
    assertThat(n2Calls.get()).isEqualTo(1);
    assertNoProbeLeft(shared);
    assertNoProbeLeft(ws);
    assertNoProbeLeft(n3ws);
  }

  @Test
  void aDirectoryTheHeadCannotCreateIsTheHeadsProblem() throws Exception {
    Path file = Files.writeString(tmp.resolve("a-file"), "x");
    node("head", sh("head"), shared);
    node("n2", sh("n2"), shared);
    SharedPathProof.Verdict v =
        new SharedPathProof(pool, T)
            .prove(
                "head",
                shells,
                java.util.List.of(SharedPathProof.Subject.created(file + "/ws", shells.keySet())))
            .get(0);
    assertThat(v.headProblem()).contains("Not a directory");
    assertThat(v.problem("n2").orElseThrow()).startsWith("the head could not create it: ");
  }

  @Test
  void carriedRoundsAskAgainOnlyTheNodesThatDidNotSeeTheHeadsProbeYet() throws Exception {
    Path local = Files.createDirectories(tmp.resolve("n3-local/enroot"));
    Path ws = tmp.resolve("shared/ws");
    ShNodeShell head = sh("head");
    ShNodeShell n2 = sh("n2");
    ShNodeShell n3 = sh("n3");
    ShNodeShell n4 = sh("n4");
    node("head", head, shared);
    node("n2", n2, shared);
    node("n3", n3, local);
    node("n4", n4, shared);
    CarriedProof c = new CarriedProof(true, ws.toString());
    // What the session's first commands print after the facts (which leave ENROOT_DATA_PATH and
    // CR_HOSTNAME, as facts.sh's header says): n4 looked before the head had written its probes, n2
    // and n3 after.
    Map<String, dev.clusterrun.core.remote.ExecResult> early = new LinkedHashMap<>();
    early.put("n4", firstCommand(n4, shared, c.nodeTail()));
    var headOut = n(head, shared, c.headTail());
    early.put("n2", firstCommand(n2, shared, c.nodeTail()));
    early.put("n3", firstCommand(n3, local, c.nodeTail()));
    assertThat(early.get("n4").stdout()).contains("p0.seen=missing");
    Map<String, String> hostnames = Map.of("head", "head", "n2", "n2", "n3", "n3", "n4", "n4");

    java.util.List<SharedPathProof.Verdict> v =
        c.finish(new SharedPathProof(pool, T), "head", shells, data, hostnames, headOut, early);

    SharedPathProof.Verdict d = v.get(0);
    assertThat(d.nodes().get("n2").status()).isEqualTo(SharedPathProof.Status.SHARED);
    assertThat(d.nodes().get("n4").status()).isEqualTo(SharedPathProof.Status.SHARED);
    assertThat(d.nodes().get("n3").status()).isEqualTo(SharedPathProof.Status.NOT_SHARED);
    assertThat(d.nodes().get("n3").detail()).contains("does not see the head's probe");
    assertThat(v.get(1).notShared()).isEmpty();
    assertThat(v.get(1).nodes()).containsOnlyKeys("head", "n2", "n3", "n4");
    // n2 answered in its first command: not asked again; n4 was, once; n3 once more, to be
    // proven not shared, and nothing of the probes is left anywhere.
    assertThat(n2.calls).isEqualTo(1);
    assertThat(n4.calls).isEqualTo(2);
    assertThat(n3.calls).isEqualTo(2);
    assertNoProbeLeft(shared);
    assertNoProbeLeft(local);
    assertNoProbeLeft(ws);
  }

  @Test
  void aNodeThatLookedBeforeTheHeadWroteIsAskedUnderANameItNeverLookedUp() throws Exception {
    // n2 sees the shared directory as an NFS client with a cached failed lookup would: every
    // name there but those it looked up while they did not exist (nfs(5), lookupcache).
    Path view = Files.createDirectories(tmp.resolve("n2-view"));
    java.util.Set<String> missed = new java.util.HashSet<>();
    ShNodeShell n2sh = sh("n2");
    NodeShell n2 =
        new NodeShell() {
          @Override
          public String node() {
            return "n2";
          }

          @Override
          public dev.clusterrun.core.remote.ExecResult run(String script, Duration timeout) {
            try {
              try (Stream<Path> old = Files.list(view)) {
                for (Path l : old.toList()) {
                  Files.delete(l);
                }
              }
              try (Stream<Path> now = Files.list(shared)) {
                for (Path f : now.toList()) {
                  String name = f.getFileName().toString();
                  if (!missed.contains(name)) {
                    Files.createSymbolicLink(view.resolve(name), f);
                  }
                }
              }
            } catch (IOException e) {
              throw new java.io.UncheckedIOException(e);
            }
            return n2sh.run(script, timeout);
          }

          @Override
          public void close() {}
        };
    ShNodeShell head = sh("head");
    node("head", head, shared);
    node("n2", n2, view);
    CarriedProof c = new CarriedProof(true, null);
    Map<String, dev.clusterrun.core.remote.ExecResult> early = new LinkedHashMap<>();
    early.put("n2", firstCommand(n2, view, c.nodeTail()));
    assertThat(early.get("n2").stdout()).contains("p0.seen=missing");
    var headOut = n(head, shared, c.headTail());
    try (Stream<Path> written = Files.list(shared)) {
      written.forEach(f -> missed.add(f.getFileName().toString()));
    }
    assertThat(missed).hasSize(1);

    java.util.List<SharedPathProof.Verdict> v = finishOnHeadAndN2(c, headOut, early);

    assertThat(v.get(0).nodes().get("n2").status()).isEqualTo(SharedPathProof.Status.SHARED);
    assertNoProbeLeft(shared);
  }

  @Test
  void aCarriedProofOfTheDataPathAloneHasNoWorkspaceVerdict() throws Exception {
    // What `clusterrun check` carries: the data path, no workspace.
    ShNodeShell head = sh("head");
    ShNodeShell n2 = sh("n2");
    node("head", head, shared);
    node("n2", n2, shared);
    CarriedProof c = new CarriedProof(true, null);
    var headOut = n(head, shared, c.headTail());
    Map<String, dev.clusterrun.core.remote.ExecResult> early = new LinkedHashMap<>();
    early.put("n2", firstCommand(n2, shared, c.nodeTail()));

    java.util.List<SharedPathProof.Verdict> v = finishOnHeadAndN2(c, headOut, early);

    assertThat(v.get(0).nodes().get("n2").status()).isEqualTo(SharedPathProof.Status.SHARED);
    assertThat(v.get(1)).isNull();
    assertThat(n2.calls).isEqualTo(1);
    assertNoProbeLeft(shared);
  }

  /** {@code tail} as a node's first command runs it: after its facts. */
  /** The carried proof finished on the head, for the head and n2 (each its own hostname). */
  private java.util.List<SharedPathProof.Verdict> finishOnHeadAndN2(
      CarriedProof c,
      dev.clusterrun.core.remote.ExecResult headOut,
      Map<String, dev.clusterrun.core.remote.ExecResult> early)
      throws Exception {
    return c.finish(
        new SharedPathProof(pool, T),
        "head",
        shells,
        data,
        Map.of("head", "head", "n2", "n2"),
        headOut,
        early);
  }

  private dev.clusterrun.core.remote.ExecResult firstCommand(
      NodeShell shell, Path dataPath, String tail) {
    return n(shell, dataPath, tail);
  }

  private dev.clusterrun.core.remote.ExecResult n(NodeShell shell, Path dataPath, String tail) {
    return shell.run(
        "ENROOT_DATA_PATH="
            + dataPath
            + "; export ENROOT_DATA_PATH; CR_HOSTNAME="
            + shell.node()
            + "\n"
            + tail,
        T);
  }
}
