package dev.clusterrun.core.launch.plan;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clusterrun.core.check.Facts;
import dev.clusterrun.core.check.TestFacts;
import dev.clusterrun.core.cluster.Hostfile;
import dev.clusterrun.core.launch.job.JobResolver;
import dev.clusterrun.core.launch.job.ResolvedJob;
import dev.clusterrun.core.launch.job.Source;
import dev.clusterrun.core.spec.ContainerSpec;
import dev.clusterrun.core.spec.JobSpec;
import dev.clusterrun.core.spec.MpiSpec;
import dev.clusterrun.core.spec.SshSpec;
import dev.clusterrun.core.spec.WorkspaceSpec;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

public class NetworkPickTest {
  static final Hostfile HOSTS = PlannerTest.TWO_BY_EIGHT;

  static Facts node(String name, String reached, String addrs, String rdma, String mcaFile) {
    Map<String, String> raw = new LinkedHashMap<>();
    raw.put("net.addrs", addrs);
    raw.put("net.ssh", reached == null ? "" : "10.0.0.1 40000 " + reached + " 22");
    raw.put("net.rdma", rdma);
    if (mcaFile != null) {
      raw.put("net.mca_file", mcaFile);
    }
    return TestFacts.raw(name, raw);
  }

  public static Map<String, Facts> cluster(String rdma, String mcaFile) {
    Map<String, Facts> f = new LinkedHashMap<>();
    f.put(
        "gpu01",
        node(
            "gpu01",
            null,
            "lo 127.0.0.1/8\nens5 10.0.0.1/24\ndocker0 172.17.0.1/16",
            rdma,
            mcaFile));
    f.put(
        "gpu02", node("gpu02", "10.0.0.2", "ens5 10.0.0.2/24\ndocker0 172.17.0.1/16", rdma, null));
    return f;
  }

  static ResolvedJob job(String network) {
    JobResolver r = new JobResolver();
    if (network != null) {
      r.layer(
          new JobSpec(
              null,
              ContainerSpec.EMPTY,
              WorkspaceSpec.EMPTY,
              new MpiSpec(null, null, null, null, null, null, network, null),
              null,
              SshSpec.EMPTY,
              "flags"),
          Source.FLAG,
          "flags");
    }
    return r.layer(PlannerTest.seedFile(), Source.FILE, "seed.yaml").resolve(HOSTS, "/home/a");
  }

  @Test
  void autoTakesTheNetworkTheHeadReachedEveryNodeOn() {
    NetworkPick p = NetworkPick.settle(job(null), cluster("0", null), "gpu01");
    assertThat(p.network().include()).isEqualTo("10.0.0.0/24");
    assertThat(p.network().ifnames()).containsExactly("ens5");
    assertThat(p.network().ucx()).isTrue();
    assertThat(p.source()).isEqualTo("default");
    assertThat(p.origin()).startsWith("auto: the network the head reached every node on (ens5)");
  }

  @Test
  void rdmaLeavesUcxAloneAndTheUsersOwnFileIsRespected() {
    NetworkPick p = NetworkPick.settle(job(null), cluster("2", "btl_tcp_if_include"), "gpu01");
    assertThat(p.network().ucx()).isFalse();
    assertThat(p.userParams()).containsExactly("btl_tcp_if_include");
    Plan plan =
        Planner.plan(
            job(null),
            HOSTS,
            new PlanOptions("RUN", dev.clusterrun.core.enroot.LaunchAgent.Daemon.ORTED, true)
                .withNetwork(p));
    String words = String.join(" ", plan.launch());
    assertThat(words)
        .doesNotContain("btl_tcp_if_include")
        .contains("oob_tcp_if_include 10.0.0.0/24");
  }

  @Test
  void noneAndAnExplicitCidrAndNoFacts() {
    assertThat(NetworkPick.settle(job("none"), cluster("0", null), "gpu01").network()).isNull();
    NetworkPick cidr = NetworkPick.settle(job("10.0.0.0/16"), cluster("0", null), "gpu01");
    assertThat(cidr.network().include()).isEqualTo("10.0.0.0/16");
    assertThat(cidr.network().ifnames()).containsExactly("ens5");
    assertThat(cidr.source()).isEqualTo("flag");
    NetworkPick none = NetworkPick.settle(job(null), null, null);
    assertThat(none.network()).isNull();
    assertThat(none.value()).isEqualTo("(not chosen)");
    Map<String, Facts> split = cluster("0", null);
    split.put("gpu01", node("gpu01", null, "eth0 192.168.1.1/24", "0", null));
    NetworkPick off = NetworkPick.settle(job(null), split, "gpu01");
    assertThat(off.network()).isNull();
    assertThat(off.origin())
        .isEqualTo(
            "auto: gpu01 has no address on 10.0.0.0/24, the network the other nodes were reached on");
  }
}
