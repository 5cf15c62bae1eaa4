package dev.clusterrun.core.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clusterrun.core.BadInputException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code --nodes} as a hostfile or a node list, the allocations, --exclude and --node-count. */
class NodeSelectionTest {
  @TempDir Path dir;

  static NodeSelection nodes(String v) {
    return new NodeSelection(v, null, List.of(), null);
  }

  Hostfile read(NodeSelection s, Map<String, String> env) {
    return s.read(env, dir);
  }

  static List<String> slots(Hostfile hf) {
    return hf.hosts().stream().map(h -> h.name() + "=" + h.slots()).toList();
  }

  // --- SLURM_TASKS_PER_NODE, PBS_NODEFILE, LSB_MCPU_HOSTS ---------------------------------------

  @Test
  void slurmTasksPerNodeInEveryForm() {
    assertThat(Allocation.tasksPerNode("2(x3),1", "S")).containsExactly(2, 2, 2, 1);
    assertThat(Allocation.tasksPerNode("8", "S")).containsExactly(8);
    assertThat(Allocation.tasksPerNode("1,2(x2),16(x1)", "S")).containsExactly(1, 2, 2, 16);
    for (String bad : new String[] {"", "2(x)", "2(3)", "x2", "0", "2(x0)", "2(x3", "-1", "2,,1"}) {
      assertThatThrownBy(() -> Allocation.tasksPerNode(bad, "SLURM_TASKS_PER_NODE"))
          .as(bad)
          .isInstanceOf(BadInputException.class)
          .hasMessageStartingWith("SLURM_TASKS_PER_NODE: '" + bad + "'");
    }
    assertThatThrownBy(() -> Allocation.tasksPerNode("1(x9999999),1(x9999999)", "S"))
        .hasMessageContaining("more than 100000 nodes");
  }

  @Test
  void slurmAllocation_jobNodeListFirstWithItsTasks() {
    Hostfile hf =
        read(
            nodes(null),
            Map.of(
                "SLURM_JOB_NODELIST", "node[1-2],gpu07",
                "SLURM_NODELIST", "other1",
                "SLURM_TASKS_PER_NODE", "2(x2),4",
                "PBS_NODEFILE", "/nowhere"));
    assertThat(slots(hf)).containsExactly("node1=2", "node2=2", "gpu07=4");
    assertThat(hf.origin()).isEqualTo("SLURM_JOB_NODELIST (slots from SLURM_TASKS_PER_NODE)");
    Hostfile old = read(nodes(null), Map.of("SLURM_NODELIST", "n[1-3]"));
    assertThat(slots(old)).containsExactly("n1=1", "n2=1", "n3=1");
    assertThat(old.origin()).startsWith("SLURM_NODELIST");
    assertThatThrownBy(
            () ->
                read(
                    nodes(null),
                    Map.of("SLURM_JOB_NODELIST", "n[1-3]", "SLURM_TASKS_PER_NODE", "2(x2)")))
        .hasMessage(
            "SLURM_TASKS_PER_NODE: '2(x2)' gives 2 counts for the 3 nodes of SLURM_JOB_NODELIST");
    assertThatThrownBy(() -> read(nodes(null), Map.of("SLURM_JOB_NODELIST", "n[1-3")))
        .hasMessage("SLURM_JOB_NODELIST: 'n[1-3' at position 2: '[' is never closed");
  }

  @Test
  void pbsNodeFile_oneLinePerSlot() throws Exception {
    Path f = dir.resolve("aaa.nodes");
    Files.writeString(f, "node2\nnode2\nnode3\n");
    Hostfile hf = read(nodes(null), Map.of("PBS_NODEFILE", f.toString(), "LSB_MCPU_HOSTS", "x 1"));
    assertThat(slots(hf)).containsExactly("node2=2", "node3=1");
    assertThat(hf.origin()).startsWith("PBS_NODEFILE (");
    // Lines of one host apart still count for it, in first-seen order.
    Files.writeString(f, "b\na\nb\n\n");
    assertThat(slots(read(nodes(null), Map.of("PBS_NODEFILE", f.toString()))))
        .containsExactly("b=2", "a=1");
    Files.writeString(f, "node2\nnode 3\n");
    assertThatThrownBy(() -> read(nodes(null), Map.of("PBS_NODEFILE", f.toString())))
        .hasMessageStartingWith(f + ":2: 'node 3' is not a valid host name");
    assertThatThrownBy(
            () -> read(nodes(null), Map.of("PBS_NODEFILE", dir.resolve("gone").toString())))
        .hasMessage("PBS_NODEFILE=" + dir.resolve("gone") + ": no such file");
    Files.writeString(f, "\n");
    assertThatThrownBy(() -> read(nodes(null), Map.of("LSB_DJOB_HOSTFILE", f.toString())))
        .hasMessageContaining("names no host");
  }

  @Test
  void lsfHosts() {
    Hostfile hf = read(nodes(null), Map.of("LSB_MCPU_HOSTS", "node1 4 node3 2"));
    assertThat(slots(hf)).containsExactly("node1=4", "node3=2");
    assertThat(hf.origin()).isEqualTo("LSB_MCPU_HOSTS");
    assertThatThrownBy(() -> read(nodes(null), Map.of("LSB_MCPU_HOSTS", "node1 4 node3")))
        .hasMessageContaining("has a host without its count");
    assertThatThrownBy(() -> read(nodes(null), Map.of("LSB_MCPU_HOSTS", "node1 four")))
        .hasMessageContaining("'four' (word 2) is not a slot count for node1");
    assertThatThrownBy(() -> read(nodes(null), Map.of("LSB_MCPU_HOSTS", "n1 1 n1 2")))
        .hasMessageContaining("n1 is listed twice");
  }

  @Test
  void noNodesAndNoAllocationNamesTheSourcesTried() {
    assertThatThrownBy(() -> read(nodes(null), Map.of("SLURM_JOBID", "5", "PBS_NODEFILE", " ")))
        .isInstanceOf(BadInputException.class)
        .hasMessage(
            "--nodes: not given, and no scheduler allocation in the environment (tried"
                + " SLURM_JOB_NODELIST, SLURM_NODELIST, PBS_NODEFILE, LSB_DJOB_HOSTFILE,"
                + " LSB_MCPU_HOSTS); give --nodes HOSTFILE or a node list such as 'node[01-16]'");
  }

  // --- --nodes ----------------------------------------------------------------------------------

  @Test
  void nodesWinsOverAnAllocationAndAFileIsAHostfile() throws Exception {
    Path hosts = dir.resolve("hosts");
    Files.writeString(hosts, "a slots=2\nb\n");
    Map<String, String> slurm = Map.of("SLURM_JOB_NODELIST", "s[1-4]");
    Hostfile fromFile = read(nodes(hosts.toString()), slurm);
    assertThat(slots(fromFile)).containsExactly("a=2", "b=1");
    assertThat(fromFile.origin()).isEqualTo(hosts.toString());
    Hostfile list = read(nodes("node[1-3]"), slurm);
    assertThat(slots(list)).containsExactly("node1=1", "node2=1", "node3=1");
    assertThat(list.origin()).isEqualTo("--nodes node[1-3]");
    assertThat(list.hosts()).noneMatch(Host::slotsGiven);
  }

  @Test
  void aMissingFileIsNamedAsOne() {
    assertThatThrownBy(() -> read(nodes("conf/hosts"), Map.of()))
        .hasMessage("--nodes conf/hosts: no such file");
    assertThatThrownBy(() -> read(nodes("no-such-hosts.txt"), Map.of()))
        .hasMessage("--nodes no-such-hosts.txt: no such file");
    assertThatThrownBy(() -> read(nodes(""), Map.of())).isInstanceOf(BadInputException.class);
  }

  @Test
  void slotsFromTheFlagOrHostColonN() {
    Hostfile hf = read(new NodeSelection("a:8,b,c", 2, List.of(), null), Map.of());
    assertThat(slots(hf)).containsExactly("a=8", "b=2", "c=2");
    assertThat(hf.origin()).isEqualTo("--nodes a:8,b,c (--slots 2)");
    Hostfile slurm =
        read(
            new NodeSelection(null, 3, List.of(), null),
            Map.of("SLURM_JOB_NODELIST", "n[1-2]", "SLURM_TASKS_PER_NODE", "1(x2)"));
    assertThat(slots(slurm)).containsExactly("n1=3", "n2=3");
    assertThatThrownBy(() -> read(new NodeSelection("a", 0, List.of(), null), Map.of()))
        .hasMessage("--slots 0: must be at least 1");
  }

  // --- --exclude and --node-count ---------------------------------------------------------------

  @Test
  void excludeNamesRangesAndFiles() throws Exception {
    Path flagged = dir.resolve("flagged.txt");
    Files.writeString(flagged, "# screen\nnode05 slots=2\nnode[07-08]\n");
    Hostfile hf =
        read(
            new NodeSelection(
                "node[01-10]", null, List.of("node02,node[03-04]", "@" + flagged, "other"), null),
            Map.of());
    assertThat(hf.names()).containsExactly("node01", "node06", "node09", "node10");
    assertThat(hf.origin()).isEqualTo("--nodes node[01-10], 6 left out by --exclude");
    assertThatThrownBy(
            () -> read(new NodeSelection("n[1-2]", null, List.of("n[1-2]"), null), Map.of()))
        .hasMessage(
            "--exclude n[1-2]: leaves out every node of --nodes n[1-2]; no node is left to run on");
    assertThatThrownBy(
            () ->
                read(
                    new NodeSelection("n[1-2]", null, List.of("@" + dir.resolve("x")), null),
                    Map.of()))
        .hasMessage("--exclude @" + dir.resolve("x") + ": no such file");
    Files.writeString(flagged, "n1\nn[2-\n");
    assertThatThrownBy(
            () -> read(new NodeSelection("n[1-2]", null, List.of("@" + flagged), null), Map.of()))
        .hasMessage(flagged + ":2: 'n[2-' at position 2: '[' is never closed");
  }

  @Test
  void nodeCountTakesTheFirstNodesLeft() {
    Hostfile hf = read(new NodeSelection("n[1-5]", 2, List.of("n1"), 2), Map.of());
    assertThat(slots(hf)).containsExactly("n2=2", "n3=2");
    assertThat(hf.origin())
        .isEqualTo(
            "--nodes n[1-5] (--slots 2), 1 left out by --exclude, the first 2 (--node-count)");
    assertThatThrownBy(() -> read(new NodeSelection("n[1-2]", null, List.of(), 3), Map.of()))
        .hasMessage("--node-count 3: only 2 nodes in --nodes n[1-2]");
    assertThatThrownBy(() -> read(new NodeSelection("n[1-2]", null, List.of(), 0), Map.of()))
        .hasMessage("--node-count 0: must be at least 1");
  }
}
