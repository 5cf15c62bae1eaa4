package dev.clusterrun.it;

import java.util.Optional;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Brings a {@link LocalCluster} up once per test class and down after it. Register it as a static
 * field: {@code @RegisterExtension static LocalClusterExtension CLUSTER = new
 * LocalClusterExtension(3);}.
 *
 * <p>When the machine cannot run the cluster (not root, no namespaces, missing packages), the class
 * is skipped with the reason printed; with {@code CI=true} in the environment it fails instead, so
 * CI never passes by skipping.
 */
public final class LocalClusterExtension implements BeforeAllCallback, AfterAllCallback {
  private final int nodes;
  private final LocalCluster.EnrootMode mode;
  private final LocalCluster.Options options;
  private LocalCluster cluster;

  public LocalClusterExtension(int nodes) {
    this(nodes, defaultMode());
  }

  public LocalClusterExtension(int nodes, LocalCluster.EnrootMode mode) {
    this(nodes, mode, LocalCluster.Options.DEFAULT);
  }

  /**
   * {@code nodes} nodes made as {@code options} say, e.g. {@code
   * Options.DEFAULT.withDockerBridge()}.
   */
  public LocalClusterExtension(int nodes, LocalCluster.Options options) {
    this(nodes, defaultMode(), options);
  }

  public LocalClusterExtension(
      int nodes, LocalCluster.EnrootMode mode, LocalCluster.Options options) {
    this.nodes = nodes;
    this.mode = mode;
    this.options = options;
  }

  /** The stand-in, unless {@code CLUSTERRUN_IT_REAL_ENROOT=1} asks for the host's real enroot. */
  public static LocalCluster.EnrootMode defaultMode() {
    return realEnrootRequested() ? LocalCluster.EnrootMode.HOST : LocalCluster.EnrootMode.STANDIN;
  }

  public static boolean realEnrootRequested() {
    return "1".equals(System.getenv("CLUSTERRUN_IT_REAL_ENROOT"));
  }

  /** The running cluster (after beforeAll). */
  public LocalCluster cluster() {
    if (cluster == null) {
      throw new IllegalStateException("the local cluster is not up");
    }
    return cluster;
  }

  @Override
  public void beforeAll(ExtensionContext context) {
    Optional<String> missing = LocalCluster.missingPrerequisites();
    if (missing.isPresent()) {
      String why = "local cluster unavailable: " + missing.get();
      if ("true".equalsIgnoreCase(System.getenv("CI"))) {
        throw new IllegalStateException(why + " (CI=true: failing instead of skipping)");
      }
      System.err.println(context.getDisplayName() + ": skipped: " + why);
      Assumptions.abort(why);
    }
    cluster = LocalCluster.up(nodes, mode, options);
  }

  @Override
  public void afterAll(ExtensionContext context) {
    if (cluster != null) {
      try {
        cluster.close();
      } finally {
        cluster = null;
      }
    }
  }
}
