package dev.clusterrun.it;

import java.lang.reflect.Method;
import java.util.Optional;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.InvocationInterceptor;
import org.junit.jupiter.api.extension.ReflectiveInvocationContext;
import org.opentest4j.TestAbortedException;

/**
 * Brings a {@link LocalCluster} up once per test class and down after it. Register it as a static
 * field: {@code @RegisterExtension static LocalClusterExtension CLUSTER = new
 * LocalClusterExtension(3);}. An IT that runs clusterrun registers {@link ClusterrunExtension}
 * instead, which also installs the launcher, a hostfile and a workspace.
 *
 * <p>When the machine cannot run the cluster (not root, no namespaces, missing packages), or the
 * class's own {@code @BeforeAll} finds a prerequisite missing (a JUnit assumption), every test of
 * the class is reported skipped with the reason, never a class that runs 0 tests without a word;
 * with {@code CI=true} in the environment it fails instead, so CI never passes by skipping.
 */
public class LocalClusterExtension
    implements BeforeAllCallback, AfterAllCallback, ExecutionCondition, InvocationInterceptor {
  private final int nodes;
  private final LocalCluster.EnrootMode mode;
  private final LocalCluster.Options options;
  private LocalCluster cluster;

  /** Why this class's tests are skipped (a prerequisite is missing), or null when they run. */
  private String skipped;

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

  /** Whether the cluster is up: after beforeAll, unless a missing prerequisite skips the class. */
  boolean isUp() {
    return cluster != null;
  }

  /** The running cluster (after beforeAll). */
  public LocalCluster cluster() {
    if (cluster == null) {
      throw new IllegalStateException("the local cluster is not up");
    }
    return cluster;
  }

  /** The directory every node sees at the same path (after beforeAll). */
  public String shared() {
    return cluster().sharedDir().toString();
  }

  @Override
  public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
    if (context.getTestMethod().isEmpty()) {
      // The class runs (its beforeAll says why it cannot), so each test is reported, skipped.
      return ConditionEvaluationResult.enabled("the class's tests say for themselves");
    }
    return skipped == null
        ? ConditionEvaluationResult.enabled("the local cluster is up")
        : ConditionEvaluationResult.disabled(skipped);
  }

  @Override
  public void beforeAll(ExtensionContext context) {
    skipped = null;
    Optional<String> missing = LocalCluster.missingPrerequisites();
    if (missing.isPresent()) {
      skip(context, "local cluster unavailable: " + missing.get());
      return;
    }
    cluster = LocalCluster.up(nodes, mode, options);
  }

  /**
   * A class's own {@code @BeforeAll} that finds a prerequisite missing (a JUnit assumption, e.g. an
   * image a real enroot does not have) skips every test of the class, each reported with the
   * reason, instead of the class running no test without a word; with {@code CI=true} it fails.
   */
  @Override
  public void interceptBeforeAllMethod(
      Invocation<Void> invocation,
      ReflectiveInvocationContext<Method> invocationContext,
      ExtensionContext context)
      throws Throwable {
    try {
      proceedUnlessSkipped(invocation);
    } catch (TestAbortedException e) {
      skip(context, e.getMessage());
    }
  }

  @Override
  public void interceptAfterAllMethod(
      Invocation<Void> invocation,
      ReflectiveInvocationContext<Method> invocationContext,
      ExtensionContext context)
      throws Throwable {
    proceedUnlessSkipped(invocation);
  }

  private void proceedUnlessSkipped(Invocation<Void> invocation) throws Throwable {
    if (skipped != null) {
      invocation.skip();
    } else {
      invocation.proceed();
    }
  }

  /**
   * Fails under {@code CI=true}; elsewhere marks every test of the class skipped for {@code why}.
   */
  private void skip(ExtensionContext context, String why) {
    if ("true".equalsIgnoreCase(System.getenv("CI"))) {
      throw new IllegalStateException(why + " (CI=true: failing instead of skipping)");
    }
    System.err.println(context.getDisplayName() + ": skipped: " + why);
    skipped = why;
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
