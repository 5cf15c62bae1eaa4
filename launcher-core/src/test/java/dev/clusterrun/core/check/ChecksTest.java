package dev.clusterrun.core.check;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clusterrun.core.cluster.Host;
import dev.clusterrun.core.spec.Mount;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ChecksTest {
  private static final ExpectedSetup EXPECTED = ExpectedSetup.standard(1);

  /** Three healthy nodes; tests change one thing. */
  private final Map<String, TestFacts> nodes = new LinkedHashMap<>();

  ChecksTest() {
    for (String n : List.of("node1", "node2", "node3")) {
      nodes.put(n, TestFacts.node(n));
    }
  }

  private SharedPathProof.Verdict allShared() {
    Map<String, SharedPathProof.NodeProof> m = new LinkedHashMap<>();
    for (String n : nodes.keySet()) {
      m.put(
          n,
          new SharedPathProof.NodeProof(
              n, SharedPathProof.Status.SHARED, "/shared/enroot/data-1000", "ok"));
    }
    return new SharedPathProof.Verdict("node1", "/shared/enroot/data-1000/.p", m, null, null);
  }

  private Map<String, NodeToNodeSsh.Answer> sshOk() {
    Map<String, NodeToNodeSsh.Answer> m = new LinkedHashMap<>();
    m.put("node2", new NodeToNodeSsh.Answer("node2", true, 0, ""));
    m.put("node3", new NodeToNodeSsh.Answer("node3", true, 0, ""));
    return m;
  }

  private CheckInput input(
      SharedPathProof.Verdict proof, Map<String, NodeToNodeSsh.Answer> ssh, CheckJob job) {
    Map<String, Facts> facts = new LinkedHashMap<>();
    nodes.forEach((n, t) -> facts.put(n, t.build()));
    return input(facts, proof, ssh, job, 4);
  }

  private CheckInput input(
      Map<String, Facts> facts,
      SharedPathProof.Verdict proof,
      Map<String, NodeToNodeSsh.Answer> ssh,
      CheckJob job,
      int slots) {
    Map<String, Host> hosts = new LinkedHashMap<>();
    int line = 1;
    for (String n : facts.keySet()) {
      hosts.put(n, new Host(n, slots, true, 0, line++));
    }
    return new CheckInput(
        new ArrayList<>(facts.keySet()), "node1", facts, hosts, proof, ssh, job, EXPECTED, null);
  }

  private CheckInput healthy() {
    return input(allShared(), sshOk(), CheckJob.NONE);
  }

  private static CheckResult of(CheckInput in, CheckId id, String node) {
    return Checks.evaluate(in, id).get(node);
  }

  /** The check's result on the node, which has {@code status}. */
  private static CheckResult of(CheckStatus status, CheckInput in, CheckId id, String node) {
    CheckResult r = of(in, id, node);
    assertThat(r.status()).isEqualTo(status);
    return r;
  }

  private CheckInput withImage(dev.clusterrun.core.image.ImagePin.Outcome o) {
    CheckInput h = healthy();
    return new CheckInput(
        h.nodes(), h.head(), h.facts(), h.hosts(), h.proof(), h.ssh(), h.job(), EXPECTED, o);
  }

  @Test
  void theImageCheckJudgesTheHeadOnlyAndOnlyForARegistryImage() {
    String d = "sha256:" + "a".repeat(64);
    var pinned =
        new dev.clusterrun.core.image.ImagePin.Pinned(
            "docker://reg:5000#lab/mpi:1", d, "docker://reg:5000#lab/mpi:1@" + d, null);
    CheckInput ok = withImage(new dev.clusterrun.core.image.ImagePin.Outcome(pinned, null, null));
    assertThat(of(ok, CheckId.IMAGE, "node1").status()).isEqualTo(CheckStatus.PASS);
    assertThat(of(ok, CheckId.IMAGE, "node1").reason()).contains(d);
    assertThat(of(ok, CheckId.IMAGE, "node2").status()).isEqualTo(CheckStatus.SKIP);
    assertThat(of(ok, CheckId.IMAGE, "node2").reason()).contains("from the head");
    assertThat(of(healthy(), CheckId.IMAGE, "node1").status()).isEqualTo(CheckStatus.SKIP);
    assertThat(of(healthy(), CheckId.IMAGE, "node1").reason()).contains("no registry image");
  }

  @Test
  void anImageTheRegistryRefusesFailsWithTheFixAndACachedOneWarns() {
    CheckInput refused =
        withImage(
            new dev.clusterrun.core.image.ImagePin.Outcome(
                null,
                "registry reg:5000: repository lab/mpi, tag 1: 401 Unauthorized",
                "add to /home/u/.config/enroot/.credentials …"));
    CheckResult r = of(CheckStatus.FAIL, refused, CheckId.IMAGE, "node1");
    assertThat(r.reason()).contains("401", "lab/mpi");
    assertThat(r.fix()).contains(".credentials");
    String d = "sha256:" + "b".repeat(64);
    CheckInput cached =
        withImage(
            new dev.clusterrun.core.image.ImagePin.Outcome(
                new dev.clusterrun.core.image.ImagePin.Pinned(
                    "docker://reg:5000#lab/mpi:1",
                    d,
                    "docker://reg:5000#lab/mpi:1@" + d,
                    "registry reg:5000 unreachable; using the newest cached import, imported 3 h"
                        + " ago"),
                null,
                null));
    assertThat(of(cached, CheckId.IMAGE, "node1").status()).isEqualTo(CheckStatus.WARN);
    assertThat(of(cached, CheckId.IMAGE, "node1").reason()).contains("3 h ago");
  }

  @Test
  void healthyClusterPassesEverything() {
    List<CheckResult> all = Checks.evaluate(healthy(), CheckSelection.all());
    assertThat(all).hasSize(3 * CheckId.values().length);
    assertThat(all)
        .filteredOn(r -> r.status() == CheckStatus.FAIL || r.status() == CheckStatus.WARN)
        .isEmpty();
    assertThat(of(healthy(), CheckId.SSH_FROM_HEAD, "node1").status()).isEqualTo(CheckStatus.SKIP);
    assertThat(of(healthy(), CheckId.GPU_SLOTS, "node2").reason()).isEqualTo("no nvidia-smi");
  }

  @Test
  void unreachableNodeFailsReachableAndSkipsTheRest() {
    Map<String, Facts> facts = new LinkedHashMap<>();
    nodes.forEach((n, t) -> facts.put(n, t.build()));
    facts.put("node3", Facts.unanswered("node3", "connect timed out after 10 s", Duration.ZERO));
    CheckInput in = input(facts, allShared(), sshOk(), CheckJob.NONE, 4);
    CheckResult r = of(CheckStatus.FAIL, in, CheckId.REACHABLE, "node3");
    assertThat(r.reason()).isEqualTo("connect timed out after 10 s");
    assertThat(r.fix()).contains("ssh node3 true");
    assertThat(of(in, CheckId.ENROOT_VERSION, "node3").status()).isEqualTo(CheckStatus.SKIP);
    assertThat(of(in, CheckId.HOOK, "node3").reason()).isEqualTo("the node did not answer");
    assertThat(of(in, CheckId.ENROOT_VERSION, "node1").status()).isEqualTo(CheckStatus.PASS);
  }

  @Test
  void nonSharedDataPathNamesTheNode() {
    SharedPathProof.Verdict p = allShared();
    Map<String, SharedPathProof.NodeProof> m = new LinkedHashMap<>(p.nodes());
    m.put(
        "node2",
        new SharedPathProof.NodeProof(
            "node2",
            SharedPathProof.Status.NOT_SHARED,
            "/shared/enroot/data-1000",
            "does not see the head's probe /shared/enroot/data-1000/.p/head: not the head's storage"));
    nodes.get("node2").set("data.fstype", "ext4").set("data.mountpoint", "/");
    CheckInput in =
        input(new SharedPathProof.Verdict("node1", "x", m, null, null), sshOk(), CheckJob.NONE);
    CheckResult r = of(CheckStatus.FAIL, in, CheckId.DATA_PATH_SHARED, "node2");
    assertThat(r.reason()).startsWith("not shared: node2 does not see").contains("[ext4 on /]");
    assertThat(r.fix()).contains("ENROOT_DATA_PATH").contains("clusterrun setup");
    assertThat(of(in, CheckId.DATA_PATH_SHARED, "node3").status()).isEqualTo(CheckStatus.PASS);
  }

  @Test
  void sharedUnderAnotherPathWarns() {
    nodes
        .get("node3")
        .setting("ENROOT_DATA_PATH", "/mnt/shared/enroot/data-1000", TestFacts.DROPIN);
    CheckResult r =
        of(input(allShared(), sshOk(), CheckJob.NONE), CheckId.DATA_PATH_SHARED, "node3");
    assertThat(r.status()).isEqualTo(CheckStatus.WARN);
    assertThat(r.reason())
        .contains("/mnt/shared/enroot/data-1000 (from " + TestFacts.DROPIN + ":6)")
        .contains("/shared/enroot/data-1000 (from " + TestFacts.DROPIN + ":6) on the head node1");
  }

  /** A per-user template in a file: the value enroot computes for the user, and the template. */
  @Test
  void aPerUserDataPathShowsItsValueAndItsTemplate() {
    for (String n : List.of("node1", "node2", "node3")) {
      nodes
          .get(n)
          .setting("ENROOT_DATA_PATH", "/shared/enroot/4242", TestFacts.DROPIN)
          .set("enroot.ENROOT_DATA_PATH.raw", "/shared/enroot/$(id -u)")
          .set("data.real", "/shared/enroot/4242");
    }
    CheckResult r = of(CheckStatus.PASS, healthy(), CheckId.DATA_PATH, "node2");
    assertThat(r.reason())
        .isEqualTo(
            "/shared/enroot/4242 (= /shared/enroot/$(id -u), from "
                + TestFacts.DROPIN
                + ":6) [nfs4 on /shared]");
    nodes
        .get("node2")
        .set("probe.data.writable", "no")
        .set("probe.data.error", "Permission denied");
    assertThat(of(healthy(), CheckId.DATA_PATH, "node2").reason())
        .startsWith("/shared/enroot/4242 (= /shared/enroot/$(id -u), from " + TestFacts.DROPIN);
    // A value written as it expands (no template) shows no second form.
    nodes.get("node3").setting("ENROOT_DATA_PATH", "/shared/enroot/x", TestFacts.DROPIN);
    assertThat(of(healthy(), CheckId.DATA_PATH, "node3").reason())
        .startsWith("/shared/enroot/x (from " + TestFacts.DROPIN + ":6)");
  }

  @Test
  void proofNotRunIsSkippedNotPassed() {
    CheckResult r =
        of(
            CheckStatus.SKIP,
            input(null, sshOk(), CheckJob.NONE),
            CheckId.DATA_PATH_SHARED,
            "node2");
  }

  @Test
  void duplicateHostnamesNameBothNodes() {
    nodes.get("node2").set("hostname", "gpu-a.cluster");
    nodes.get("node3").set("hostname", "GPU-A");
    CheckInput in = healthy();
    CheckResult two = of(in, CheckId.HOSTNAME_UNIQUE, "node2");
    CheckResult three = of(in, CheckId.HOSTNAME_UNIQUE, "node3");
    assertThat(two.status()).isEqualTo(CheckStatus.FAIL);
    assertThat(two.reason()).contains("'gpu-a.cluster' is also the hostname of node3");
    assertThat(three.reason()).contains("'GPU-A' is also the hostname of node2");
    assertThat(two.fix()).contains("hostnamectl");
    assertThat(of(in, CheckId.HOSTNAME_UNIQUE, "node1").status()).isEqualTo(CheckStatus.PASS);
  }

  private void network(String node, String reached, String addrs) {
    nodes
        .get(node)
        .set("net.addrs", addrs)
        .set("net.ssh", reached == null ? "" : "10.0.0.1 50000 " + reached + " 22")
        .set("net.rdma", "0");
  }

  @Test
  void dockersBridgeOnEveryNodeIsAWarningNamingTheInterfaceAndTheNetworkRunKeepsTo() {
    network("node1", null, "lo 127.0.0.1/8\neth0 10.0.0.1/24\ndocker0 172.17.0.1/16");
    network("node2", "10.0.0.2", "lo 127.0.0.1/8\neth0 10.0.0.2/24\ndocker0 172.17.0.1/16");
    network("node3", "10.0.0.3", "lo 127.0.0.1/8\neth0 10.0.0.3/24\ndocker0 172.17.0.1/16");
    CheckResult two = of(CheckStatus.WARN, healthy(), CheckId.NETWORK, "node2");
    assertThat(two.reason())
        .contains("docker0 172.17.0.1 is also on node1, node3 (Docker's bridge)");
    assertThat(two.fix())
        .contains("clusterrun run keeps Open MPI to 10.0.0.0/24")
        .contains("--mca btl_tcp_if_include 10.0.0.0/24");
  }

  @Test
  void oneNetworkWithoutCollisionsPassesAndANodeOffItIsNamed() {
    network("node1", null, "lo 127.0.0.1/8\neth0 10.0.0.1/24");
    network("node2", "10.0.0.2", "eth0 10.0.0.2/24");
    network("node3", "10.0.0.3", "eth1 10.0.0.3/24");
    assertThat(of(healthy(), CheckId.NETWORK, "node3").reason()).isEqualTo("on 10.0.0.0/24 (eth1)");
    assertThat(of(healthy(), CheckId.NETWORK, "node3").status()).isEqualTo(CheckStatus.PASS);
    network("node1", null, "eth0 192.168.0.1/24");
    CheckResult one = of(CheckStatus.WARN, healthy(), CheckId.NETWORK, "node1");
    assertThat(one.reason())
        .contains("no network shared by every node: node1 has no address on 10.0.0.0/24");
    assertThat(of(healthy(), CheckId.NETWORK, "node2").status()).isEqualTo(CheckStatus.PASS);
  }

  @Test
  void aNodeWithoutTheIpCommandIsSkipped() {
    assertThat(of(healthy(), CheckId.NETWORK, "node2").status()).isEqualTo(CheckStatus.SKIP);
  }

  @Test
  void differentEnrootVersionNamesTheOddNodeAndTheOthers() {
    nodes.get("node3").set("enroot.version", "3.5.0");
    CheckInput in = healthy();
    CheckResult r = of(CheckStatus.FAIL, in, CheckId.ENROOT_VERSION, "node3");
    assertThat(r.reason()).isEqualTo("enroot 3.5.0 here, 4.1.2 on node1, node2");
    assertThat(r.fix()).isEqualTo("install enroot 4.1.2 on node3 (one version on every node)");
    assertThat(of(in, CheckId.ENROOT_VERSION, "node1").status()).isEqualTo(CheckStatus.PASS);
  }

  @Test
  void onATieTheHeadsVersionIsTheReference() {
    nodes.remove("node3");
    nodes.get("node2").set("enroot.version", "3.5.0");
    CheckInput in = healthy();
    assertThat(of(in, CheckId.ENROOT_VERSION, "node1").status()).isEqualTo(CheckStatus.PASS);
    assertThat(of(in, CheckId.ENROOT_VERSION, "node2").status()).isEqualTo(CheckStatus.FAIL);
  }

  @Test
  void configChecksumMismatchNamesTheOddNodeAndTheFile() {
    nodes
        .get("node2")
        .set("conf.1.sha256", "d".repeat(64))
        .set("conf.2.path", "/etc/enroot/enroot.conf.d/90-local.conf")
        .set("conf.2.sha256", "e".repeat(64));
    CheckInput in = healthy();
    CheckResult r = of(CheckStatus.FAIL, in, CheckId.CONFIG_IDENTICAL, "node2");
    assertThat(r.reason())
        .isEqualTo(
            "enroot configuration differs from node1, node3: enroot.conf.d/50-clusterrun.conf"
                + " differs (sha256 dddddddddddd here, bbbbbbbbbbbb there);"
                + " enroot.conf.d/90-local.conf only here");
    assertThat(r.fix()).contains("on node2 the same as on node1");
    assertThat(of(in, CheckId.CONFIG_IDENTICAL, "node1").status()).isEqualTo(CheckStatus.PASS);
    assertThat(of(in, CheckId.CONFIG_IDENTICAL, "node3").status()).isEqualTo(CheckStatus.PASS);
  }

  @Test
  void missingDropInOnOneNodeShowsInConfigAndDropIn() {
    nodes.get("node3").set("conf.1.path", null).set("conf.1.sha256", null);
    CheckInput in = healthy();
    assertThat(of(in, CheckId.CONFIG_IDENTICAL, "node3").reason())
        .endsWith("enroot.conf.d/50-clusterrun.conf missing here");
    CheckResult d = of(CheckStatus.WARN, in, CheckId.DROPIN, "node3");
    assertThat(d.fix()).isEqualTo("run `clusterrun setup`");
  }

  @Test
  void unwritableRuntimePathFromTheDefaultExplainsTheMissingXdgRuntimeDir() {
    nodes
        .get("node2")
        .setting("ENROOT_RUNTIME_PATH", "/run/enroot", "default")
        .set("probe.runtime.writable", "no")
        .set(
            "probe.runtime.error",
            "mkdir: cannot create directory '/run/enroot': Permission denied");
    CheckResult r = of(CheckStatus.FAIL, healthy(), CheckId.RUNTIME_PATH, "node2");
    assertThat(r.reason())
        .isEqualTo(
            "/run/enroot (enroot's default) is not writable: mkdir: cannot create directory"
                + " '/run/enroot': Permission denied (no XDG_RUNTIME_DIR in a non-interactive SSH"
                + " session, so enroot uses /run/enroot)");
    assertThat(r.fix())
        .isEqualTo("run `clusterrun setup` (sets ENROOT_RUNTIME_PATH to a per-user path)");
  }

  @Test
  void unwritableRuntimePathFromAFileOrTheEnvironmentSaysWhereToChangeIt() {
    nodes
        .get("node2")
        .setting(
            "ENROOT_RUNTIME_PATH",
            "/tmp/enroot-runtime-4242/enroot",
            "/etc/enroot/enroot.conf.d/50-clusterrun.conf")
        .set("probe.runtime.writable", "no")
        .set(
            "probe.runtime.error",
            "mkdir: cannot create directory '/tmp/enroot-runtime-4242/enroot': Permission denied");
    nodes
        .get("node3")
        .setting("ENROOT_RUNTIME_PATH", "/run/enroot", "environment")
        .set("probe.runtime.writable", "no")
        .set(
            "probe.runtime.error",
            "mkdir: cannot create directory '/run/enroot': Permission denied");
    CheckInput in = healthy();
    CheckResult file = of(CheckStatus.FAIL, in, CheckId.RUNTIME_PATH, "node2");
    assertThat(file.fix())
        .isEqualTo(
            "make /tmp/enroot-runtime-4242/enroot creatable by alice on node2, or set another"
                + " ENROOT_RUNTIME_PATH in /etc/enroot/enroot.conf.d/50-clusterrun.conf:17");
    CheckResult env = of(CheckStatus.FAIL, in, CheckId.RUNTIME_PATH, "node3");
    assertThat(env.fix())
        .isEqualTo(
            "unset ENROOT_RUNTIME_PATH in the environment of alice on node3 (it overrides enroot's"
                + " configuration), or point it to a directory alice can create");
  }

  @Test
  void runtimePathThatWorksOnlyBecauseRootLeftRunEnrootWarns() {
    nodes.get("node1").setting("ENROOT_RUNTIME_PATH", "/run/enroot", "default");
    assertThat(of(healthy(), CheckId.RUNTIME_PATH, "node1").status()).isEqualTo(CheckStatus.WARN);
  }

  @Test
  void unwritableCachePathFails() {
    nodes
        .get("node3")
        .set("probe.cache.writable", "no")
        .set("probe.cache.error", "touch: Permission denied");
    CheckResult r = of(CheckStatus.FAIL, healthy(), CheckId.CACHE_PATH, "node3");
    assertThat(r.reason())
        .contains(
            "/tmp/enroot-cache-1000 (from "
                + TestFacts.DROPIN
                + ":20) is not writable: touch: Permission denied");
  }

  @Test
  void unsetRuntimePathFails() {
    nodes
        .get("node2")
        .setting("ENROOT_RUNTIME_PATH", "", "/etc/enroot/enroot.conf", "3")
        .set("enroot.ENROOT_RUNTIME_PATH.raw", "no");
    CheckResult r = of(CheckStatus.FAIL, healthy(), CheckId.RUNTIME_PATH, "node2");
    assertThat(r.reason())
        .isEqualTo("ENROOT_RUNTIME_PATH no (from /etc/enroot/enroot.conf:3) unsets it");
  }

  @Test
  void enrootMissingOrBroken() {
    nodes.get("node2").set("enroot.path", "").set("enroot.version", null);
    nodes
        .get("node3")
        .set("enroot.version", null)
        .set(
            "enroot.version.error",
            "exit 1: mkdir: cannot create directory '/run/enroot': Permission denied");
    CheckInput in = healthy();
    CheckResult missing = of(CheckStatus.FAIL, in, CheckId.ENROOT, "node2");
    assertThat(missing.reason()).contains("not in PATH").contains("PATH=/usr/bin:/bin");
    CheckResult broken = of(in, CheckId.ENROOT, "node3");
    assertThat(broken.reason()).startsWith("`enroot version` failed: exit 1: mkdir");
    assertThat(broken.fix()).contains("runtime-path");
    assertThat(of(in, CheckId.ENROOT_VERSION, "node2").status()).isEqualTo(CheckStatus.SKIP);
  }

  @Test
  void nonExecutableHookIsAFailureThatSaysEnrootSkipsItSilently() {
    nodes.get("node2").set("hook.0.stat", "644 0 root regular file").set("hook.0.executable", "no");
    CheckResult r = of(CheckStatus.FAIL, healthy(), CheckId.HOOK, "node2");
    assertThat(r.reason()).contains("not executable (mode 644)").contains("SILENTLY");
    assertThat(r.fix())
        .isEqualTo("sudo chmod 0755 /etc/enroot/hooks.d/50-clusterrun-launch-agent.sh");
  }

  @Test
  void hookWithWrongOwnerModeAndVersion() {
    nodes.get("node3").set("hook.0.stat", "777 1000 alice regular file").set("hook.0.version", "0");
    CheckResult r = of(CheckStatus.FAIL, healthy(), CheckId.HOOK, "node3");
    assertThat(r.reason())
        .contains("owned by alice, not root")
        .contains("group/world writable (mode 777)")
        .contains("version 0, this clusterrun expects 1");
    assertThat(r.fix()).startsWith("run `clusterrun setup` (or: sudo chown root:root");
  }

  @Test
  void missingHookFails() {
    nodes.get("node1").set("hook.0.path", "/etc/enroot/hooks.d/10-other.sh");
    CheckResult r = of(CheckStatus.FAIL, healthy(), CheckId.HOOK, "node1");
    assertThat(r.reason()).startsWith("no /etc/enroot/hooks.d/50-clusterrun-launch-agent.sh");
    assertThat(r.fix()).contains("clusterrun setup").contains("--no-hook");
  }

  @Test
  void modifiedHookFailsWhenTheChecksumIsExpected() {
    ExpectedSetup exp =
        new ExpectedSetup(
            "/etc/enroot",
            ExpectedSetup.HOOK_FILE_NAME,
            1,
            "f".repeat(64),
            ExpectedSetup.DROP_IN_FILE_NAME,
            null);
    CheckResult r = new HookCheck().judge(exp, nodes.get("node1").build());
    assertThat(r.status()).isEqualTo(CheckStatus.FAIL);
    assertThat(r.reason()).contains("modified");
  }

  @Test
  void namedContainerMissingOnOneNode() {
    CheckJob job = new CheckJob("pytorch", List.of(), null);
    nodes.get("node1").set("container.0.name", "pytorch").set("container.0.present", "yes");
    nodes.get("node2").set("container.0.name", "pytorch").set("container.0.present", "yes");
    nodes.get("node3").set("container.0.name", "pytorch").set("container.0.present", "no");
    CheckInput in = input(allShared(), sshOk(), job);
    CheckResult r = of(CheckStatus.FAIL, in, CheckId.CONTAINER, "node3");
    assertThat(r.reason())
        .isEqualTo(
            "pytorch is not in /shared/enroot/data-1000 (from "
                + TestFacts.DROPIN
                + ":6) here, but exists on node1, node2: the data path is not shared");
    assertThat(of(in, CheckId.CONTAINER, "node1").status()).isEqualTo(CheckStatus.PASS);
  }

  @Test
  void namedContainerNotCreatedAnywhereIsNotAFailure() {
    CheckJob job = new CheckJob("pytorch", List.of(), null);
    nodes
        .values()
        .forEach(t -> t.set("container.0.name", "pytorch").set("container.0.present", "no"));
    CheckResult r =
        of(CheckStatus.SKIP, input(allShared(), sshOk(), job), CheckId.CONTAINER, "node2");
    assertThat(r.reason()).contains("not created yet");
    assertThat(of(healthy(), CheckId.CONTAINER, "node2").reason())
        .isEqualTo("the job names no container");
  }

  @Test
  void differentUidNamesTheHeadsUid() {
    nodes.get("node2").set("uid", "1001");
    CheckResult r = of(CheckStatus.FAIL, healthy(), CheckId.UID_GID, "node2");
    assertThat(r.reason())
        .isEqualTo(
            "uid 1001 gid 1000 (alice) here, but uid 1000 gid 1000 (alice) on the head node1");
  }

  @Test
  void sshFailuresGetTheMatchingFix() {
    Map<String, NodeToNodeSsh.Answer> ssh = new LinkedHashMap<>();
    ssh.put(
        "node2",
        new NodeToNodeSsh.Answer(
            "node2", false, 255, "Warning: Permanently added 'x'\nHost key verification failed."));
    ssh.put(
        "node3",
        new NodeToNodeSsh.Answer(
            "node3", false, 255, "alice@node3: Permission denied (publickey)."));
    CheckInput in = input(allShared(), ssh, CheckJob.NONE);
    CheckResult two = of(CheckStatus.FAIL, in, CheckId.SSH_FROM_HEAD, "node2");
    assertThat(two.reason())
        .isEqualTo("`ssh node2 true` from node1 failed (exit 255): Host key verification failed.");
    assertThat(two.fix()).contains("accept node2's host key");
    assertThat(of(in, CheckId.SSH_FROM_HEAD, "node3").fix()).contains("ssh-copy-id node3");
  }

  @Test
  void mountHomeOffWithoutSshMountFailsAndAJobMountFixesIt() {
    nodes.values().forEach(t -> t.setting("ENROOT_MOUNT_HOME", "", "/etc/enroot/enroot.conf"));
    CheckResult r = of(CheckStatus.FAIL, healthy(), CheckId.MOUNT_HOME, "node2");
    assertThat(r.reason()).contains("Host key verification failed.");
    CheckJob job =
        new CheckJob(null, List.of(Mount.parse("/home/alice/.ssh:/home/alice/.ssh:ro")), null);
    CheckResult ok =
        of(CheckStatus.PASS, input(allShared(), sshOk(), job), CheckId.MOUNT_HOME, "node2");
    assertThat(ok.reason()).isEqualTo("the job mounts /home/alice/.ssh:/home/alice/.ssh:ro");
    CheckJob home = new CheckJob(null, List.of(), true);
    assertThat(of(input(allShared(), sshOk(), home), CheckId.MOUNT_HOME, "node2").status())
        .isEqualTo(CheckStatus.PASS);
  }

  @Test
  void dataPathInsideAMountedHomeIsFlagged() {
    nodes
        .get("node1")
        .setting("ENROOT_DATA_PATH", "/home/alice/enroot", TestFacts.DROPIN)
        .set("data.real", "/home/alice/enroot");
    CheckResult r = of(CheckStatus.WARN, healthy(), CheckId.DATA_PATH, "node1");
    assertThat(r.reason()).contains("inside /home/alice").contains("Invalid argument");
    CheckJob noHome = new CheckJob(null, List.of(), false);
    assertThat(of(input(allShared(), sshOk(), noHome), CheckId.DATA_PATH, "node1").status())
        .isEqualTo(CheckStatus.PASS);
  }

  @Test
  void gpuSlotsWarnOnlyWhereNvidiaSmiExists() {
    nodes.get("node1").gpus(4);
    nodes.get("node2").gpus(8);
    CheckInput in = healthy();
    assertThat(of(in, CheckId.GPU_SLOTS, "node1").reason())
        .isEqualTo("4 slots, 4 GPUs (NVIDIA H100 80GB HBM3)");
    CheckResult r = of(CheckStatus.WARN, in, CheckId.GPU_SLOTS, "node2");
    assertThat(r.reason()).isEqualTo("4 slots but 8 GPUs (NVIDIA H100 80GB HBM3)");
    assertThat(r.fix()).startsWith("write `node2 slots=8` in the hostfile");
    assertThat(of(in, CheckId.GPU_SLOTS, "node3").status()).isEqualTo(CheckStatus.SKIP);
  }

  @Test
  void selectionLimitsTheResults() {
    List<CheckResult> r =
        Checks.evaluate(healthy(), CheckSelection.parse(List.of("hook,uid-gid"), List.of()));
    assertThat(r).extracting(CheckResult::checkId).containsOnly("hook", "uid-gid");
    assertThat(r).hasSize(6);
  }

  // --- where an effective value comes from
  // --------------------------------------------------------

  @Test
  void mountHomeOffNamesTheFileAndLineThatTurnedItOff() {
    // A site drop-in that enroot reads before clusterrun's: its `no` wins.
    nodes
        .get("node2")
        .setting("ENROOT_MOUNT_HOME", "", "/etc/enroot/enroot.conf.d/10-site.conf", "3")
        .set("enroot.ENROOT_MOUNT_HOME.raw", "no");
    CheckResult r = of(CheckStatus.FAIL, healthy(), CheckId.MOUNT_HOME, "node2");
    assertThat(r.reason())
        .startsWith(
            "no ~/.ssh inside the container: ENROOT_MOUNT_HOME no (from"
                + " /etc/enroot/enroot.conf.d/10-site.conf:3), and no mount of /home/alice/.ssh");
    assertThat(r.fix())
        .startsWith("set ENROOT_MOUNT_HOME yes in /etc/enroot/enroot.conf.d/10-site.conf:3");

    nodes
        .get("node3")
        .setting("ENROOT_MOUNT_HOME", "", "environment")
        .set("enroot.ENROOT_MOUNT_HOME.raw", "false");
    CheckResult env = of(healthy(), CheckId.MOUNT_HOME, "node3");
    assertThat(env.reason())
        .contains("ENROOT_MOUNT_HOME false (from ENROOT_MOUNT_HOME in the environment)");
    assertThat(env.fix()).startsWith("unset ENROOT_MOUNT_HOME in the environment of alice");
    assertThat(of(healthy(), CheckId.MOUNT_HOME, "node1").reason())
        .isEqualTo("ENROOT_MOUNT_HOME yes (from " + TestFacts.DROPIN + ":9)");
  }

  @Test
  void aLineEnrootCannotExpandIsNamedWithTheDefaultItFellBackTo() {
    nodes
        .get("node2")
        .setting("ENROOT_DATA_PATH", "/home/alice/.local/share/enroot", "default")
        .set(
            "enroot.ENROOT_DATA_PATH.error",
            "/etc/enroot/enroot.conf:4: sh: 1: Syntax error: Missing '}'");
    CheckResult r = of(CheckStatus.FAIL, healthy(), CheckId.DATA_PATH, "node2");
    assertThat(r.reason())
        .isEqualTo(
            "ENROOT_DATA_PATH cannot be expanded at /etc/enroot/enroot.conf:4: sh: 1: Syntax"
                + " error: Missing '}'; enroot ignores that line and uses"
                + " /home/alice/.local/share/enroot (enroot's default)");
  }

  @Test
  void aSettingOfTheDropInThatAnotherFileOverridesWarnsNamingBoth() {
    nodes
        .get("node2")
        .set("conf.1.sets", "ENROOT_DATA_PATH:6 ENROOT_MOUNT_HOME:9")
        .setting("ENROOT_DATA_PATH", "/raid/enroot", "/etc/enroot/enroot.conf", "12");
    CheckResult r = of(CheckStatus.WARN, healthy(), CheckId.DROPIN, "node2");
    assertThat(r.reason())
        .isEqualTo(
            TestFacts.DROPIN
                + ": ENROOT_DATA_PATH (line 6) is overridden by /etc/enroot/enroot.conf:12, which"
                + " enroot reads first (the first value wins)");
    assertThat(r.fix()).startsWith("remove ENROOT_DATA_PATH from /etc/enroot/enroot.conf:12");
    nodes.get("node3").set("conf.1.sets", "ENROOT_DATA_PATH:6 ENROOT_MOUNT_HOME:9");
    assertThat(of(healthy(), CheckId.DROPIN, "node3").status()).isEqualTo(CheckStatus.PASS);
  }

  // --- foreign launch agents --------------------------------------------------------------------

  private TestFacts hook(String node, int i, String path, String mode, String agentLines) {
    return nodes
        .get(node)
        .set("hook." + i + ".scope", path.startsWith("/etc/") ? "system" : "user")
        .set("hook." + i + ".path", path)
        .set("hook." + i + ".stat", mode + " 0 root regular file")
        .set("hook." + i + ".executable", mode.equals("755") ? "yes" : "no")
        .set("hook." + i + ".sha256", "d".repeat(64))
        .set("hook." + i + ".agent", agentLines);
  }

  @Test
  void aForeignHookThatSetsTheLaunchAgentFailsNamingNodeFileAndLine() {
    hook("node2", 1, "/etc/enroot/hooks.d/ompi.sh", "755", "2 code OMPI_MCA_orte_launch_agent");
    CheckInput in = healthy();
    CheckResult r = of(CheckStatus.FAIL, in, CheckId.LAUNCH_AGENT, "node2");
    assertThat(r.node()).isEqualTo("node2");
    assertThat(r.reason())
        .startsWith(
            "the hook /etc/enroot/hooks.d/ompi.sh:2 sets OMPI_MCA_orte_launch_agent: it replaces"
                + " the launch agent clusterrun gives each job");
    assertThat(r.fix())
        .startsWith(
            "disable it: sudo mv /etc/enroot/hooks.d/ompi.sh /etc/enroot/hooks.d/ompi.sh.off");
    assertThat(of(in, CheckId.LAUNCH_AGENT, "node1").status()).isEqualTo(CheckStatus.PASS);
  }

  @Test
  void userHooksEnvironFilesAndRshAgentsCountToo() {
    hook(
        "node1",
        1,
        "/home/alice/.config/enroot/hooks.d/99-mine.sh",
        "755",
        "4 code PRTE_MCA_prte_launch_agent\n7 code PRTE_MCA_prte_launch_agent");
    nodes
        .get("node2")
        .set("environ.0.scope", "system")
        .set("environ.0.path", "/etc/enroot/environ.d/50-mpi.env")
        .set("environ.0.agent", "1 code OMPI_MCA_plm_rsh_agent");
    CheckInput in = healthy();
    CheckResult user = of(CheckStatus.FAIL, in, CheckId.LAUNCH_AGENT, "node1");
    assertThat(user.reason())
        .startsWith(
            "the hook /home/alice/.config/enroot/hooks.d/99-mine.sh:4 sets"
                + " PRTE_MCA_prte_launch_agent, line 7 PRTE_MCA_prte_launch_agent:");
    assertThat(user.fix())
        .startsWith("disable it: mv /home/alice/.config/enroot/hooks.d/99-mine.sh");
    CheckResult environ = of(CheckStatus.FAIL, in, CheckId.LAUNCH_AGENT, "node2");
    assertThat(environ.reason())
        .isEqualTo(
            "/etc/enroot/environ.d/50-mpi.env:1 sets OMPI_MCA_plm_rsh_agent in every container: it"
                + " changes how mpirun reaches the other nodes, around the SSH that clusterrun"
                + " checked");
    assertThat(environ.fix())
        .isEqualTo("remove OMPI_MCA_plm_rsh_agent from /etc/enroot/environ.d/50-mpi.env");
  }

  @Test
  void mentionsThatCannotReplaceTheAgentOnlyWarn() {
    // A comment in a running hook; a disabled hook; enroot.conf (enroot ignores such keys); the
    // session's environment (enroot clears it).
    hook(
        "node1",
        1,
        "/etc/enroot/hooks.d/20-notes.sh",
        "755",
        "3 comment OMPI_MCA_orte_launch_agent");
    hook("node2", 1, "/etc/enroot/hooks.d/ompi.sh", "644", "2 code OMPI_MCA_orte_launch_agent");
    nodes
        .get("node3")
        .set("conf.0.agent", "9 code OMPI_MCA_orte_launch_agent")
        .set("env.agent", "OMPI_MCA_plm_rsh_agent");
    CheckInput in = healthy();
    CheckResult comment = of(CheckStatus.WARN, in, CheckId.LAUNCH_AGENT, "node1");
    assertThat(comment.reason())
        .startsWith(
            "the hook /etc/enroot/hooks.d/20-notes.sh names OMPI_MCA_orte_launch_agent (line 3) in"
                + " a comment");
    CheckResult disabled = of(CheckStatus.WARN, in, CheckId.LAUNCH_AGENT, "node2");
    assertThat(disabled.reason()).contains("enroot does not run it now");
    CheckResult other = of(CheckStatus.WARN, in, CheckId.LAUNCH_AGENT, "node3");
    assertThat(other.reason())
        .contains("/etc/enroot/enroot.conf:9 sets OMPI_MCA_orte_launch_agent, which enroot ignores")
        .contains("OMPI_MCA_plm_rsh_agent is set in the environment of alice");
  }

  @Test
  void clusterrunsOwnHookIsNotAForeignAgent() {
    nodes.get("node2").set("hook.0.agent", "31 code OMPI_MCA_orte_launch_agent");
    assertThat(of(healthy(), CheckId.LAUNCH_AGENT, "node2").status()).isEqualTo(CheckStatus.PASS);
  }

  @Test
  void squashfuseAndDevFuseAreCheckedOnlyForAJobThatStartsItsImageDirectly() {
    nodes.get("node2").set("squashfuse", "");
    nodes.get("node3").set("fuse", "no-access");
    assertThat(of(healthy(), CheckId.SQUASHFUSE, "node2").status()).isEqualTo(CheckStatus.SKIP);

    CheckJob direct = new CheckJob(null, List.of(), null, true);
    CheckInput in = input(allShared(), sshOk(), direct);
    assertThat(of(in, CheckId.SQUASHFUSE, "node1").status()).isEqualTo(CheckStatus.PASS);
    CheckResult noSquashfuse = of(CheckStatus.FAIL, in, CheckId.SQUASHFUSE, "node2");
    assertThat(noSquashfuse.reason()).startsWith("squashfuse is not in PATH");
    assertThat(noSquashfuse.fix()).contains("install squashfuse on node2");
    CheckResult noFuse = of(CheckStatus.FAIL, in, CheckId.SQUASHFUSE, "node3");
    assertThat(noFuse.reason()).startsWith("/dev/fuse is not readable and writable");
  }

  /**
   * A named job: the head starts the container, every other node its squashfs snapshot
   * (docs/scale.md), so squashfuse is checked on every node but the head.
   */
  @Test
  void aNamedJobNeedsSquashfuseOnEveryNodeButTheHead() {
    nodes.get("node1").set("squashfuse", "");
    nodes.get("node2").set("squashfuse", "");
    CheckJob named = new CheckJob("pytorch", List.of(), null, false, null, true);
    CheckInput in = input(allShared(), sshOk(), named);
    assertThat(of(in, CheckId.SQUASHFUSE, "node1").reason())
        .isEqualTo("the head starts the container itself; the other nodes start its snapshot");
    assertThat(of(CheckStatus.FAIL, in, CheckId.SQUASHFUSE, "node2").fix())
        .contains("install squashfuse on node2");
    assertThat(of(in, CheckId.SQUASHFUSE, "node3").status()).isEqualTo(CheckStatus.PASS);
  }
}
