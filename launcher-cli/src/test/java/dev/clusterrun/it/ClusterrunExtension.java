package dev.clusterrun.it;

import dev.clusterrun.it.LocalCluster.Result;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A {@link LocalClusterExtension} with the built clusterrun on the cluster, as most ITs begin: the
 * launcher installed in the shared directory, a hostfile there of every node with {@code slots}
 * slots each, and a workspace directory there (owned by the job user). Register it instead of a
 * {@link LocalClusterExtension}: {@code @RegisterExtension static final ClusterrunExtension HEAD =
 * new ClusterrunExtension(3, "hosts", 1, "ws");}; the class's own {@code @BeforeAll} runs after it,
 * for what only that class needs (its job files, {@link #setup}).
 */
final class ClusterrunExtension extends LocalClusterExtension {
  /** How long a test's clusterrun command may take, where the test needs no more. */
  static final Duration RUN_TIMEOUT = Duration.ofSeconds(150);

  private final String hostfileName;
  private final int slots;
  private final String workspaceName;
  private String launcher;

  /** {@code nodes} nodes; {@code workspace} null for none. */
  ClusterrunExtension(int nodes, String hostfile, int slots, String workspace) {
    this(nodes, LocalCluster.Options.DEFAULT, hostfile, slots, workspace);
  }

  ClusterrunExtension(
      int nodes, LocalCluster.Options options, String hostfile, int slots, String workspace) {
    super(nodes, options);
    this.hostfileName = hostfile;
    this.slots = slots;
    this.workspaceName = workspace;
  }

  @Override
  public void beforeAll(ExtensionContext context) {
    super.beforeAll(context);
    if (!isUp()) {
      return;
    }
    LocalCluster c = cluster();
    launcher = c.installClusterrun(Paths.get("target")).toString();
    c.writeAsJobUser(hosts(), c.hostfile(slots));
    if (workspaceName != null) {
      LocalCluster.ok(c.exec("node1", "mkdir", "-p", ws()));
    }
  }

  /** The installed launcher, by absolute path. */
  String launcher() {
    return launcher;
  }

  /** The hostfile of every node. */
  String hosts() {
    return shared() + "/" + hostfileName;
  }

  /** The workspace directory. */
  String ws() {
    return shared() + "/" + workspaceName;
  }

  /** The repository's {@code examples/NAME} files, in the shared directory's examples/. */
  void copyExamples(String... names) {
    LocalCluster.ok(cluster().exec("node1", "mkdir", "-p", shared() + "/examples"));
    for (String name : names) {
      cluster().writeAsJobUser(shared() + "/examples/" + name, Runs.repoFile("examples/" + name));
    }
  }

  /**
   * {@code clusterrun setup --nodes HOSTS --data-path DATA} on the head; fails unless it passes.
   */
  Result setup(String dataPath) {
    return LocalCluster.ok(trySetup(dataPath, Duration.ofSeconds(240)));
  }

  /** As {@link #setup}, whatever it gives back. */
  Result trySetup(String dataPath, Duration timeout) {
    return cluster()
        .exec(
            "node1",
            false,
            null,
            timeout,
            List.of(launcher, "setup", "--nodes", hosts(), "--data-path", dataPath));
  }

  /**
   * {@code WORDS... --nodes HOSTS --workspace WS}, to add to: clusterrun's arguments for this
   * cluster's nodes and workspace.
   */
  List<String> onNodes(String... words) {
    List<String> a = new ArrayList<>(List.of(words));
    a.addAll(List.of("--nodes", hosts(), "--workspace", ws()));
    return a;
  }

  /** The launcher's command line with {@code args}. */
  List<String> command(List<String> args) {
    List<String> cmd = new ArrayList<>(List.of(launcher));
    cmd.addAll(args);
    return cmd;
  }

  /**
   * {@code clusterrun ARGS} with {@code env} as the job user on the head, from the shared
   * directory; prints the command and what it gave back on stderr.
   */
  Result run(Duration timeout, List<String> env, List<String> args) {
    return Runs.shown(cluster(), shared(), timeout, env, command(args));
  }
}
