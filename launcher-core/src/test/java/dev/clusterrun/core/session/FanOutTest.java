package dev.clusterrun.core.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class FanOutTest {
  static List<String> nodes(int n) {
    List<String> l = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      l.add("node" + i);
    }
    return l;
  }

  @Test
  void resultsComeBackInHostfileOrderWhateverTheFinishingOrder() throws Exception {
    List<String> ns = nodes(20);
    List<String> finished = Collections.synchronizedList(new ArrayList<>());
    List<String> out =
        new FanOut(8)
            .map(
                "test",
                ns,
                n -> {
                  sleep(100 - 5 * Integer.parseInt(n.substring(4)));
                  return n.toUpperCase();
                },
                new Progress() {
                  @Override
                  public void finished(String phase, String node, List<String> pending) {
                    finished.add(node);
                    assertThat(pending).doesNotContain(node);
                  }
                });
    assertThat(out).containsExactlyElementsOf(ns.stream().map(String::toUpperCase).toList());
    assertThat(finished).containsExactlyInAnyOrderElementsOf(ns).isNotEqualTo(ns);
  }

  @Test
  void parallelismIsBoundedAndUsed() throws Exception {
    AtomicInteger now = new AtomicInteger();
    AtomicInteger max = new AtomicInteger();
    new FanOut(5)
        .map(
            nodes(40),
            n -> {
              max.accumulateAndGet(now.incrementAndGet(), Math::max);
              sleep(30);
              now.decrementAndGet();
              return n;
            });
    assertThat(max.get()).isEqualTo(5);
  }

  @Test
  void defaultIs64() {
    assertThat(new FanOut().parallelism()).isEqualTo(64);
    assertThatThrownBy(() -> new FanOut(0)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void aSlowNodeDoesNotHoldBackTheOthersAndIsReportedPending() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    CountDownLatch othersDone = new CountDownLatch(9);
    AtomicReference<List<String>> lastPending = new AtomicReference<>();
    Thread releaser =
        new Thread(
            () -> {
              try {
                othersDone.await(10, TimeUnit.SECONDS);
              } catch (InterruptedException e) {
                return;
              }
              release.countDown();
            });
    releaser.start();
    List<String> out =
        new FanOut(4)
            .map(
                "test",
                nodes(10),
                n -> {
                  if (n.equals("node0")) {
                    await(release);
                  }
                  return n;
                },
                new Progress() {
                  @Override
                  public void finished(String phase, String node, List<String> pending) {
                    if (!node.equals("node0")) {
                      lastPending.set(pending);
                      othersDone.countDown();
                    }
                  }
                });
    assertThat(out).hasSize(10);
    assertThat(lastPending.get()).containsExactly("node0");
  }

  @Test
  void interruptionCancelsTheRest() throws Exception {
    AtomicInteger started = new AtomicInteger();
    AtomicInteger interrupted = new AtomicInteger();
    AtomicReference<Throwable> thrown = new AtomicReference<>();
    Thread caller =
        new Thread(
            () -> {
              try {
                new FanOut(2)
                    .map(
                        nodes(50),
                        n -> {
                          started.incrementAndGet();
                          try {
                            Thread.sleep(10_000);
                          } catch (InterruptedException e) {
                            interrupted.incrementAndGet();
                          }
                          return n;
                        });
              } catch (Throwable t) {
                thrown.set(t);
              }
            });
    caller.start();
    while (started.get() < 2) {
      Thread.sleep(5);
    }
    caller.interrupt();
    caller.join(5000);
    assertThat(caller.isAlive()).isFalse();
    assertThat(thrown.get()).isInstanceOf(InterruptedException.class);
    Thread.sleep(100);
    // Every task that started was stopped (none sleeps on), and the other ~46 never started.
    assertThat(interrupted.get()).isEqualTo(started.get());
    assertThat(started.get()).isBetween(2, 4);
  }

  @Test
  void aThrowingTaskDoesNotStopTheOthersAndIsRethrownAtTheEnd() {
    AtomicInteger ran = new AtomicInteger();
    assertThatThrownBy(
            () ->
                new FanOut(3)
                    .map(
                        nodes(10),
                        n -> {
                          ran.incrementAndGet();
                          if (n.equals("node2")) {
                            throw new IllegalStateException("boom on " + n);
                          }
                          return n;
                        }))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("boom on node2");
    assertThat(ran.get()).isEqualTo(10);
  }

  static void sleep(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  static void await(CountDownLatch l) {
    try {
      l.await(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
