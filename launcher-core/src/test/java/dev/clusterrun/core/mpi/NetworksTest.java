package dev.clusterrun.core.mpi;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clusterrun.core.mpi.Networks.NodeNet;
import java.util.List;
import org.junit.jupiter.api.Test;

class NetworksTest {
  static NodeNet node(String name, String reached, String addrs) {
    return new NodeNet(name, Networks.parseIfaces(addrs), reached, false);
  }

  static final String DOCKER = "docker0 172.17.0.1/16\n";

  @Test
  void parsesIpAddrLinesLongAndShort() {
    List<Networks.Iface> i =
        Networks.parseIfaces(
            "1: lo    inet 127.0.0.1/8 scope host lo\\       valid_lft forever\n"
                + "2: eth0@if7    inet 10.213.77.11/24 brd 10.213.77.255 scope global eth0\n"
                + "docker0 172.17.0.1/16\n"
                + "garbage\n"
                + "x 300.1.1.1/24\n");
    assertThat(i)
        .extracting(Networks.Iface::toString)
        .containsExactly("lo 127.0.0.1/8", "eth0 10.213.77.11/24", "docker0 172.17.0.1/16");
    assertThat(i.get(1).cidr()).isEqualTo("10.213.77.0/24");
  }

  @Test
  void choosesTheNetworkTheNodesWereReachedOnNotDockersBridge() {
    List<NodeNet> nodes =
        List.of(
            node("node1", null, "lo 127.0.0.1/8\neth0 10.213.77.11/24\n" + DOCKER),
            node("node2", "10.213.77.12", DOCKER + "eth0 10.213.77.12/24"),
            node("node3", "10.213.77.13", DOCKER + "ens5 10.213.77.13/24"));
    Networks.Choice c = Networks.choose(nodes);
    assertThat(c.problem()).isNull();
    assertThat(c.cidrs()).containsExactly("10.213.77.0/24");
    assertThat(c.ifaceByNode())
        .containsEntry("node1", "eth0")
        .containsEntry("node3", "ens5")
        .doesNotContainValue("docker0");
    assertThat(c.ifnames()).containsExactly("eth0", "ens5");
  }

  @Test
  void aNodeWithoutAnAddressOnThatNetworkIsNamed() {
    Networks.Choice c =
        Networks.choose(
            List.of(
                node("node1", null, "eth0 192.168.1.5/24\n" + DOCKER),
                node("node2", "10.0.0.2", "eth0 10.0.0.2/16"),
                node("node3", "10.0.0.3", "eth0 10.0.0.3/16")));
    assertThat(c.found()).isFalse();
    assertThat(c.missing()).containsExactly("node1");
    assertThat(c.problem())
        .isEqualTo(
            "node1 has no address on 10.0.0.0/16, the network the other"
                + " nodes were reached on");
  }

  @Test
  void aSingleNodeOrAnUnknownAddressChoosesNothing() {
    assertThat(Networks.choose(List.of(node("node1", null, "eth0 10.0.0.1/24"))).problem())
        .contains("no node was reached over the network");
    Networks.Choice nat =
        Networks.choose(
            List.of(
                node("node1", null, "eth0 10.0.0.1/24"),
                node("n2", "1.2.3.4", "eth0 10.0.0.2/24")));
    assertThat(nat.found()).isFalse();
    assertThat(nat.problem()).contains("n2 (reached at 1.2.3.4, an address it does not carry)");
  }

  @Test
  void twoRoutedNetworksAreBothKept() {
    Networks.Choice c =
        Networks.choose(
            List.of(
                node("a", "10.1.0.1", "eth0 10.1.0.1/24"),
                node("b", "10.2.0.1", "eth0 10.2.0.1/24")));
    assertThat(c.cidrs()).containsExactly("10.1.0.0/24", "10.2.0.0/24");
  }

  @Test
  void collisionsNameEveryHolderAndItsInterface() {
    List<Networks.Collision> c =
        Networks.collisions(
            List.of(
                node("node1", null, "lo 127.0.0.1/8\neth0 10.0.0.1/24\n" + DOCKER),
                node("node2", null, "lo 127.0.0.1/8\neth0 10.0.0.2/24\n" + DOCKER)));
    assertThat(c).hasSize(1);
    assertThat(c.get(0).address()).isEqualTo("172.17.0.1");
    assertThat(c.get(0).ifaceByNode())
        .containsEntry("node1", "docker0")
        .containsEntry("node2", "docker0");
  }

  @Test
  void cidrsAreValidated() {
    assertThat(Networks.isCidr("10.0.0.0/24")).isTrue();
    assertThat(Networks.isCidr("10.0.0.0/33")).isFalse();
    assertThat(Networks.isCidr("10.0.0.256/8")).isFalse();
    assertThat(Networks.isCidr("eth0")).isFalse();
  }
}
