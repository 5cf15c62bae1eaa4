package dev.clusterrun.core.remote;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class HeadDetectorTest {
  static InetAddress ip(String s) throws Exception {
    return InetAddress.getByName(s); // literals only: no lookup
  }

  @Test
  void namesAddressesAndLoopbackMakeTheHead() throws Exception {
    Map<String, InetAddress[]> dns =
        Map.of(
            "head-ib", new InetAddress[] {ip("10.1.0.1")},
            "node2", new InetAddress[] {ip("10.1.0.2")},
            "alias-lo", new InetAddress[] {ip("127.0.1.1")});
    HeadDetector d =
        new HeadDetector(
            Set.of("Head", "head.cluster.example"),
            Set.of(ip("10.1.0.1"), ip("192.168.5.5")),
            n -> dns.getOrDefault(n, new InetAddress[0]));
    assertThat(d.isHead("head")).isTrue();
    assertThat(d.isHead("HEAD.cluster.example")).isTrue();
    assertThat(d.isHead("head.cluster.example.")).isTrue();
    assertThat(d.isHead("localhost")).isTrue();
    assertThat(d.isHead("head-ib")).isTrue(); // another interface's name
    assertThat(d.isHead("alias-lo")).isTrue();
    assertThat(d.isHead("node2")).isFalse();
    assertThat(d.isHead("unknown")).isFalse();
  }

  @Test
  void thisMachineKnowsItself() throws Exception {
    HeadDetector d = HeadDetector.forThisMachine();
    String hostname = Files.readString(Path.of("/proc/sys/kernel/hostname")).strip();
    assertThat(d.isHead(hostname)).isTrue();
    assertThat(d.isHead("localhost")).isTrue();
    assertThat(d.isHead("127.0.0.1")).isTrue();
    assertThat(d.isHead("192.0.2.77")).isFalse(); // TEST-NET-1, never ours
  }
}
