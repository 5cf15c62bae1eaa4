package dev.clusterrun.core.mpi;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MpiTuningTest {
  static final MpiTuning.Network NET =
      new MpiTuning.Network("10.0.0.0/24", List.of("eth0", "ens5"), true);
  static final MpiTuning.JobSets NOTHING = new MpiTuning.JobSets(Map.of(), List.of(), List.of());

  @Test
  void openMpi4GetsMcaWordsAndRanksGetNcclAndUcx() {
    MpiTuning.Additions a = MpiTuning.additions(NET, Duration.ofSeconds(30), null, false, NOTHING);
    assertThat(a.mca())
        .containsEntry("btl_tcp_if_include", "10.0.0.0/24")
        .containsEntry("oob_tcp_if_include", "10.0.0.0/24")
        .containsEntry("oob_tcp_keepalive_time", "15")
        .containsEntry("oob_tcp_keepalive_intvl", "7")
        .containsEntry("oob_tcp_keepalive_probes", "4");
    assertThat(a.forward())
        .containsExactly("NCCL_SOCKET_IFNAME==eth0,ens5", "UCX_NET_DEVICES=eth0,ens5");
    assertThat(a.env()).isEmpty();
  }

  @Test
  void openMpi5GetsPrrteVariablesForItsDaemonsAndMcaForTheBtl() {
    MpiTuning.Additions a = MpiTuning.additions(NET, Duration.ofSeconds(30), null, true, NOTHING);
    assertThat(a.mca()).containsOnlyKeys("btl_tcp_if_include");
    assertThat(a.env())
        .contains(
            "PRTE_MCA_oob_tcp_if_include=10.0.0.0/24",
            "PRTE_MCA_prte_if_include=10.0.0.0/24",
            "PRTE_MCA_oob_tcp_keepalive_time=15",
            "PRTE_MCA_prte_keepalive_time=15",
            "PRTE_MCA_prte_keepalive_probes=4");
  }

  @Test
  void whatTheJobSetsItselfWinsByAnyName() {
    MpiTuning.JobSets job =
        new MpiTuning.JobSets(
            Map.of("btl_tcp_if_exclude", "docker0,lo"),
            List.of("OMPI_MCA_oob_tcp_if_include", "NCCL_SOCKET_IFNAME"),
            List.of("--mca", "oob_tcp_keepalive_time", "100"));
    MpiTuning.Additions a = MpiTuning.additions(NET, Duration.ofSeconds(30), null, false, job);
    assertThat(a.mca())
        .doesNotContainKeys("btl_tcp_if_include", "oob_tcp_if_include", "oob_tcp_keepalive_time")
        .containsKey("oob_tcp_keepalive_probes");
    assertThat(a.forward()).containsExactly("UCX_NET_DEVICES=eth0,ens5");
  }

  @Test
  void noNetworkAndRdmaLeaveTheirSettingsAlone() {
    assertThat(MpiTuning.additions(null, null, null, false, NOTHING))
        .isEqualTo(MpiTuning.Additions.NONE);
    MpiTuning.Additions a =
        MpiTuning.additions(
            new MpiTuning.Network("eth0", List.of("eth0"), false), null, null, false, NOTHING);
    assertThat(a.forward()).containsExactly("NCCL_SOCKET_IFNAME==eth0");
  }

  @Test
  void mpirunsSshGetsTheMasterOptionsAsAVariableUnlessTheJobChoosesItsOwnSsh() {
    String args = "-o ControlMaster=no -o ControlPath=/dev/shm/clusterrun-ssh.abcdef/%n";
    assertThat(MpiTuning.additions(null, null, args, false, NOTHING).env())
        .containsExactly("OMPI_MCA_plm_rsh_args=" + args);
    assertThat(MpiTuning.additions(null, null, args, false, NOTHING).mca()).isEmpty();
    assertThat(MpiTuning.additions(null, null, args, true, NOTHING).env())
        .containsExactly("PRTE_MCA_plm_ssh_args=" + args);
    List<MpiTuning.JobSets> own =
        List.of(
            new MpiTuning.JobSets(Map.of("plm_rsh_args", "-p 2222"), List.of(), List.of()),
            new MpiTuning.JobSets(Map.of(), List.of("PRTE_MCA_plm_ssh_agent"), List.of()),
            new MpiTuning.JobSets(Map.of(), List.of(), List.of("--mca", "plm_rsh_agent", "rsh")));
    for (MpiTuning.JobSets job : own) {
      assertThat(MpiTuning.additions(null, null, args, false, job))
          .isEqualTo(MpiTuning.Additions.NONE);
    }
  }

  @Test
  void openMpisKeepaliveGivesUpOnlyAfterClusterrunsWatchSoClusterrunNamesTheNode() {
    for (int s : new int[] {1, 5, 10, 30, 120}) {
      MpiTuning.Keepalive k = MpiTuning.Keepalive.after(Duration.ofSeconds(s));
      assertThat(k.total())
          .as("%d s", s)
          .isGreaterThan(s)
          .isLessThanOrEqualTo(Math.max(s + 5, s * 3 / 2));
    }
  }

  @Test
  void keepaliveAddsUpToAboutTheNodeTimeout() {
    for (int s : new int[] {1, 5, 10, 30, 45, 120, 600}) {
      MpiTuning.Keepalive k = MpiTuning.Keepalive.within(Duration.ofSeconds(s));
      assertThat(k.total())
          .as("%d s", s)
          .isBetween((long) Math.max(3, s) - 3, (long) Math.max(3, s));
      assertThat(k.time()).isPositive();
      assertThat(k.interval()).isPositive();
      assertThat(k.probes()).isPositive();
    }
  }
}
