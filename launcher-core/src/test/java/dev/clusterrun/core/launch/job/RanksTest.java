package dev.clusterrun.core.launch.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clusterrun.core.BadInputException;
import dev.clusterrun.core.cluster.Hostfile;
import dev.clusterrun.core.cluster.HostfileParser;
import dev.clusterrun.core.enroot.LaunchAgent;
import dev.clusterrun.core.launch.plan.Plan;
import dev.clusterrun.core.launch.plan.PlanOptions;
import dev.clusterrun.core.launch.plan.Planner;
import dev.clusterrun.core.spec.JobSpec;
import dev.clusterrun.core.spec.SpecLoader;
import org.junit.jupiter.api.Test;

/** One rule for rank counts, stated in docs/job-spec.md ("Ranks"), whatever sets them. */
class RanksTest {
  static final Hostfile TWO_BY_EIGHT = HostfileParser.parse("n1 slots=8\nn2 slots=8\n", "h.txt");

  static Plan plan(String yaml, Hostfile hf) {
    JobSpec f =
        SpecLoader.parse(
            "container: {image: /i.sqsh}\nworkspace: {path: /ws}\ncommand: [x]\n" + yaml,
            "job.yaml");
    ResolvedJob job = new JobResolver().layer(f, Source.FILE, "job.yaml").resolve(hf, "/home/a");
    return Planner.plan(job, hf, new PlanOptions("RUN", LaunchAgent.Daemon.ORTED, true));
  }

  @Test
  void perNodeIsAtMostTheSlotsOfEveryHost() {
    assertThatThrownBy(() -> plan("mpi: {per-node: 9}", TWO_BY_EIGHT))
        .isInstanceOf(BadInputException.class)
        .hasMessage(
            "job.yaml: mpi.per-node: 9 ranks per node, but n1 has slots=8 (h.txt:1); lower"
                + " per-node or raise slots= (or allow oversubscription: --oversubscribe in"
                + " mpi.args)");
    Hostfile uneven = HostfileParser.parse("n1 slots=8\nn2 slots=4\n", "u.txt");
    assertThatThrownBy(() -> plan("mpi: {per-node: 8}", uneven))
        .hasMessageContaining("but n2 has slots=4 (u.txt:2)");
    assertThat(plan("mpi: {per-node: 8}", TWO_BY_EIGHT).np()).isEqualTo(16);
    assertThat(plan("mpi: {per-node: 4}", uneven).np()).isEqualTo(8);
  }

  @Test
  void withPerNodeNpIsAtMostPerNodeTimesNodes() {
    assertThatThrownBy(() -> plan("mpi: {np: 16, per-node: 4}", TWO_BY_EIGHT))
        .hasMessage(
            "job.yaml: mpi.np: 16 ranks, but 4 per node on 2 nodes place at most 8; lower np or"
                + " raise mpi.per-node");
    assertThat(plan("mpi: {np: 8, per-node: 4}", TWO_BY_EIGHT).np()).isEqualTo(8);
    assertThat(plan("mpi: {np: 5, per-node: 4}", TWO_BY_EIGHT).np()).isEqualTo(5);
  }

  @Test
  void withoutPerNodeNpIsAtMostTheTotalSlots() {
    assertThatThrownBy(() -> plan("mpi: {np: 17}", TWO_BY_EIGHT))
        .hasMessageStartingWith("job.yaml: mpi.np: 17 ranks but h.txt has only 16 slots");
    assertThat(plan("mpi: {np: 16}", TWO_BY_EIGHT).np()).isEqualTo(16);
    assertThat(plan("mpi: {np: 1}", TWO_BY_EIGHT).np()).isEqualTo(1);
  }

  @Test
  void oversubscriptionAskedForExplicitlyLiftsTheSlotsButNotMaxSlots() {
    assertThat(plan("mpi: {np: 40, args: [--oversubscribe]}", TWO_BY_EIGHT).np()).isEqualTo(40);
    assertThat(plan("mpi: {np: 40, args: [--map-by, 'slot:OVERSUBSCRIBE']}", TWO_BY_EIGHT).np())
        .isEqualTo(40);
    assertThat(plan("mpi: {np: 40, mca: {rmaps_base_oversubscribe: '1'}}", TWO_BY_EIGHT).np())
        .isEqualTo(40);
    assertThat(plan("mpi: {per-node: 12, args: [--oversubscribe]}", TWO_BY_EIGHT).np())
        .isEqualTo(24);
    Hostfile capped =
        HostfileParser.parse("n1 slots=8 max_slots=10\nn2 slots=8 max_slots=10\n", "c");
    assertThat(plan("mpi: {np: 20, args: [--oversubscribe]}", capped).np()).isEqualTo(20);
    assertThatThrownBy(() -> plan("mpi: {np: 21, args: [--oversubscribe]}", capped))
        .hasMessageStartingWith("job.yaml: mpi.np: 21 ranks but c has only 20 max_slots");
    assertThatThrownBy(() -> plan("mpi: {per-node: 11, args: [--oversubscribe]}", capped))
        .hasMessageContaining("11 ranks per node, but n1 has max_slots=10");
  }

  @Test
  void theFlagIsNamedWhenTheFlagSetsIt() {
    JobSpec flags =
        new JobSpec(
            null,
            null,
            null,
            new dev.clusterrun.core.spec.MpiSpec(17, null, null, null, null, null),
            null,
            null,
            "flags");
    JobSpec f =
        SpecLoader.parse(
            "container: {image: /i.sqsh}\nworkspace: {path: /ws}\ncommand: [x]\n", "job.yaml");
    ResolvedJob job =
        new JobResolver()
            .layer(flags, Source.FLAG, "flags")
            .layer(f, Source.FILE, "job.yaml")
            .resolve(TWO_BY_EIGHT, "/home/a");
    assertThatThrownBy(
            () ->
                Planner.plan(
                    job, TWO_BY_EIGHT, new PlanOptions("RUN", LaunchAgent.Daemon.ORTED, true)))
        .hasMessageStartingWith("--np: 17 ranks but h.txt has only 16 slots");
  }
}
