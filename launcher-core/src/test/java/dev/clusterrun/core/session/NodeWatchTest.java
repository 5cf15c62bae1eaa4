package dev.clusterrun.core.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clusterrun.core.cluster.Host;
import dev.clusterrun.core.cluster.Hostfile;
import dev.clusterrun.core.remote.ExecResult;
import dev.clusterrun.core.remote.NodeShell;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class NodeWatchTest {
  /** A node that answers at once while {@code up}, and hangs (as behind a cut link) when not. */
  static final class Node implements NodeShell {
    final String name;
    final AtomicBoolean up = new AtomicBoolean(true);
    final AtomicInteger asked = new AtomicInteger();

    Node(String name) {
      this.name = name;
    }

    @Override
    public String node() {
      return name;
    }

    @Override
    public ExecResult run(String script, Duration timeout) {
      asked.incrementAndGet();
      if (up.get()) {
        return new ExecResult(0, "", "", Duration.ZERO, null);
      }
      try {
        Thread.sleep(timeout.toMillis());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      return ExecResult.failed(name + ": timed out", timeout);
    }

    @Override
    public void close() {}
  }

  static Session session(Node... nodes) {
    Map<String, NodeShell> shells = new LinkedHashMap<>();
    List<Host> hosts = new java.util.ArrayList<>();
    int line = 1;
    for (Node n : nodes) {
      shells.put(n.name, n);
      hosts.add(new Host(n.name, 1, true, 0, line++));
    }
    return new Session(
        new Hostfile("hosts.txt", hosts),
        nodes[0].name,
        shells,
        Map.of(),
        new FanOut(nodes.length + 2),
        Progress.NONE);
  }

  @Test
  void aNodeThatStopsAnsweringIsReportedOnceAfterTheTimeoutAndTheHeadIsNeverAsked()
      throws Exception {
    Node head = new Node("node1");
    Node two = new Node("node2");
    Node three = new Node("node3");
    try (Session s = session(head, two, three)) {
      AtomicReference<NodeWatch.Lost> lost = new AtomicReference<>();
      AtomicInteger reports = new AtomicInteger();
      CountDownLatch told = new CountDownLatch(1);
      try (NodeWatch w =
          NodeWatch.start(
              s,
              Duration.ofMillis(1500),
              l -> {
                reports.incrementAndGet();
                lost.set(l);
                told.countDown();
              })) {
        Thread.sleep(1200);
        assertThat(w.lost()).as("every node answers").isEmpty();
        assertThat(two.asked.get()).isPositive();
        long cut = System.nanoTime();
        three.up.set(false);
        assertThat(told.await(5, TimeUnit.SECONDS)).isTrue();
        double after = (System.nanoTime() - cut) / 1e9;
        // Not before the timeout (1.5 s, less the beat since its last answer); soon after it.
        assertThat(after).isBetween(0.9, 8.0);
        assertThat(lost.get().node()).isEqualTo("node3");
        assertThat(lost.get().silent()).isGreaterThanOrEqualTo(Duration.ofMillis(1500));
        assertThat(w.lost()).containsExactly("node3");
        Thread.sleep(1000);
        assertThat(reports.get()).isEqualTo(1);
      }
      assertThat(head.asked.get()).isZero();
    }
  }

  @Test
  void closedItAsksNoMore() throws Exception {
    Node head = new Node("node1");
    Node two = new Node("node2");
    try (Session s = session(head, two)) {
      NodeWatch w = NodeWatch.start(s, Duration.ofSeconds(1), l -> {});
      Thread.sleep(700);
      w.close();
      int asked = two.asked.get();
      two.up.set(false);
      Thread.sleep(1500);
      assertThat(two.asked.get()).isLessThanOrEqualTo(asked + 1);
      assertThat(w.lost()).isEmpty();
    }
  }

  @Test
  void theBeatIsAFifthOfTheTimeoutWithinBounds() {
    assertThat(NodeWatch.period(Duration.ofSeconds(30))).isEqualTo(Duration.ofSeconds(5));
    assertThat(NodeWatch.period(Duration.ofSeconds(10))).isEqualTo(Duration.ofSeconds(2));
    assertThat(NodeWatch.period(Duration.ofSeconds(1))).isEqualTo(Duration.ofMillis(500));
    assertThat(NodeWatch.period(Duration.ofMinutes(10))).isEqualTo(Duration.ofSeconds(5));
  }
}
