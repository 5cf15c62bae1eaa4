package dev.clusterrun.core.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import dev.clusterrun.core.BadInputException;
import dev.clusterrun.core.cluster.Host;
import dev.clusterrun.core.cluster.Hostfile;
import dev.clusterrun.core.remote.HeadDetector;
import dev.clusterrun.core.remote.Keys;
import dev.clusterrun.core.remote.LocalNodeShell;
import dev.clusterrun.core.remote.MinaServer;
import dev.clusterrun.core.remote.NodeShell;
import dev.clusterrun.core.remote.SshNodeShell;
import dev.clusterrun.core.remote.SshTarget;
import dev.clusterrun.core.spec.SshSpec.KnownHostsPolicy;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SessionTest {
  @TempDir Path dir;

  @Test
  void opensAllInParallelAndReportsTheUnreachableAsData() throws Exception {
    Path key = Keys.keygen(dir, "id_ecdsa", "ecdsa", "");
    int refusedPort;
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
      refusedPort = s.getLocalPort();
    }
    try (MinaServer a = new MinaServer(false);
        MinaServer b = new MinaServer(false)) {
      a.authorize(Path.of(key + ".pub"));
      b.authorize(Path.of(key + ".pub"));
      Path kh = dir.resolve("known_hosts");
      Files.writeString(kh, a.knownHostsLine() + "\n" + b.knownHostsLine() + "\n");
      Map<String, Integer> ports =
          Map.of("node1", a.port(), "node2", refusedPort, "node3", b.port());
      HeadDetector head = new HeadDetector(Set.of("head"), Set.of(), n -> new InetAddress[0]);
      List<String> events = Collections.synchronizedList(new ArrayList<>());
      List<Host> hosts = new ArrayList<>();
      for (String n : List.of("head", "node1", "node2", "node3", "node1", "bad")) {
        hosts.add(new Host(n, 1, false, 0, hosts.size() + 1));
      }
      try (Session shells =
          Session.open(
              new Hostfile("hosts.txt", hosts),
              head,
              n -> {
                if (n.equals("bad")) {
                  throw new BadInputException(n, "ssh -G failed: broken config");
                }
                return SshTarget.of(n, "127.0.0.1", ports.get(n), "tester")
                    .withIdentityFiles(List.of(key))
                    .withIdentityAgent("none")
                    .withKnownHosts(List.of(kh), List.of(), KnownHostsPolicy.STRICT, false)
                    .withConnectTimeout(Duration.ofSeconds(5));
              },
              new FanOut(3),
              new Progress() {
                @Override
                public void started(String phase, String node) {
                  events.add("start " + node);
                }

                @Override
                public void finished(String phase, String node, List<String> pending) {
                  events.add("done " + node);
                }
              },
              null)) {
        assertThat(shells.head()).contains("head");
        assertThat(shells.shells().keySet()).containsExactly("head", "node1", "node3");
        assertThat(shells.shells().get("head")).isInstanceOf(LocalNodeShell.class);
        assertThat(shells.shells().get("node1")).isInstanceOf(SshNodeShell.class);
        assertThat(shells.unreachable())
            .containsExactly(
                entry("node2", "connection refused (127.0.0.1 port " + refusedPort + ")"),
                entry("bad", "ssh configuration: bad: ssh -G failed: broken config"));
        assertThat("node2: " + shells.unreachable().get("node2"))
            .startsWith("node2: connection refused");
        assertThat(events).hasSize(10).contains("start node2", "done node2");
        for (NodeShell s : shells.shells().values()) {
          assertThat(s.run("echo " + s.node(), Duration.ofSeconds(10)).stdout())
              .isEqualTo(s.node() + "\n");
        }
      }
    }
  }

  @Test
  void closersRunBeforeTheConnectionsCloseLastFirstAndEvenWhenInterrupted() throws Exception {
    Path marker = dir.resolve("marker");
    List<String> order = Collections.synchronizedList(new ArrayList<>());
    LocalNodeShell head = new LocalNodeShell("head");
    Session s =
        new Session(
            new Hostfile("hosts.txt", List.of(new Host("head", 1, false, 0, 1))),
            "head",
            Map.of("head", head),
            Map.of(),
            new FanOut(2),
            Progress.NONE);
    s.onClose(() -> order.add("first"));
    s.onClose(
        () -> {
          // a closer that needs the head's shell, on an interrupted thread
          head.run("echo done > " + marker, Duration.ofSeconds(10));
          order.add("second");
        });
    s.onClose(
        () -> {
          throw new IllegalStateException("a failing closer");
        });
    Thread.currentThread().interrupt();
    try {
      s.close();
      assertThat(Thread.currentThread().isInterrupted()).as("interrupt kept").isTrue();
    } finally {
      Thread.interrupted();
    }
    assertThat(order).containsExactly("second", "first");
    assertThat(marker).hasContent("done");
  }
}
