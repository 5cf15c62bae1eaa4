package dev.clusterrun.core.remote;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class KnownHostsTest {
  @Test
  void hostPatternsMatchLikeOpenSsh() {
    assertThat(KnownHosts.matches("node1,10.0.0.1", "node1")).isTrue();
    assertThat(KnownHosts.matches("node1,10.0.0.1", "NODE1")).isTrue();
    assertThat(KnownHosts.matches("node*", "node17")).isTrue();
    assertThat(KnownHosts.matches("node?", "node17")).isFalse();
    assertThat(KnownHosts.matches("node*,!node13", "node13")).isFalse();
    assertThat(KnownHosts.matches("!node13,node*", "node13")).isFalse();
    assertThat(KnownHosts.matches("!node13", "node14")).isFalse(); // negation alone matches nothing
    assertThat(KnownHosts.matches("[node1]:2222", "[node1]:2222")).isTrue();
    assertThat(KnownHosts.matches("node1", "[node1]:2222")).isFalse();
  }

  @Test
  void hashedNamesMatchOnlyTheirHost() {
    String hashed = KnownHosts.hash("[127.0.0.1]:2222");
    assertThat(hashed).startsWith("|1|");
    assertThat(KnownHosts.matches(hashed, "[127.0.0.1]:2222")).isTrue();
    assertThat(KnownHosts.matches(hashed, "127.0.0.1")).isFalse();
  }

  @Test
  void parsesMarkersAndSkipsCommentsAndGarbage() {
    Path f = Path.of("kh");
    assertThat(KnownHosts.parse(f, 1, "# c")).isNull();
    assertThat(KnownHosts.parse(f, 2, "   ")).isNull();
    assertThat(KnownHosts.parse(f, 3, "host ssh-ed25519 !!notbase64")).isNull();
    KnownHosts.Entry e =
        KnownHosts.parse(f, 4, "@cert-authority *.example ssh-ed25519 AAAAC3NzaC1lZDI1NTE5 ca");
    assertThat(e.marker()).isEqualTo("@cert-authority");
    assertThat(e.hosts()).isEqualTo("*.example");
    assertThat(e.where()).isEqualTo("kh:4");
  }
}
