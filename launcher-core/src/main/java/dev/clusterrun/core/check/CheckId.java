package dev.clusterrun.core.check;

import dev.clusterrun.core.EnumWords;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * The one registry of the checks of {@code clusterrun check}, in report (column) order. Each
 * constant is one {@link Check}: the class that evaluates it (its id for {@code --only}/{@code
 * --skip} is the constant's name in lower case), its description for {@code check --help} and the
 * fact keys it reads. A new check is a class and a row here.
 */
public enum CheckId {
  REACHABLE(new ReachableCheck(), "the node answers over SSH as the job user", "user"),
  ENROOT(
      new EnrootCheck(),
      "enroot is installed and runs",
      "enroot.path",
      "enroot.version",
      "enroot.version.error",
      "env.path"),
  ENROOT_VERSION(
      new EnrootVersionCheck(), "the same enroot version on every node", "enroot.version"),
  RUNTIME_PATH(
      new RuntimePathCheck(),
      "ENROOT_RUNTIME_PATH is creatable and writable",
      "enroot.ENROOT_RUNTIME_PATH",
      "probe.runtime",
      "env.xdg_runtime_dir",
      "uid",
      "user"),
  CACHE_PATH(
      new CachePathCheck(),
      "ENROOT_CACHE_PATH is creatable and writable",
      "enroot.ENROOT_CACHE_PATH",
      "probe.cache",
      "user"),
  DATA_PATH(
      new DataPathCheck(),
      "ENROOT_DATA_PATH is writable, not inside a mounted home",
      "enroot.ENROOT_DATA_PATH",
      "probe.data",
      "data.real",
      "data.fstype",
      "data.mountpoint",
      "home",
      "home.real",
      "enroot.ENROOT_MOUNT_HOME",
      "user"),
  DATA_PATH_SHARED(
      new DataPathSharedCheck(),
      "ENROOT_DATA_PATH is the same and proven shared",
      "enroot.ENROOT_DATA_PATH",
      "data.fstype",
      "data.mountpoint",
      "user"),
  MOUNT_HOME(
      new MountHomeCheck(),
      "~/.ssh is visible inside the container",
      "enroot.ENROOT_MOUNT_HOME",
      "home",
      "home.ssh_dir",
      "user"),
  HOOK(new HookCheck(), "clusterrun's hook: present, executable, root-owned, current", "hook."),
  LAUNCH_AGENT(
      new LaunchAgentCheck(),
      "nothing else sets Open MPI's launch or rsh/ssh agent",
      "hook.",
      "conf.",
      "environ.",
      "env.agent",
      "user"),
  DROPIN(
      new DropInCheck(),
      "clusterrun's enroot drop-in is installed",
      "conf.",
      "enroot.ENROOT_",
      "user"),
  CONTAINER(
      new ContainerCheck(),
      "the job's named container exists on every node",
      "container.",
      "enroot.ENROOT_DATA_PATH"),
  IMAGE(
      new ImageCheck(),
      "a registry image's tag resolves to a digest from the head",
      "enroot.ENROOT_CONFIG_PATH",
      "enroot.ENROOT_ALLOW_HTTP"),
  SQUASHFUSE(
      new ImageStartCheck(),
      "squashfuse and /dev/fuse for a job that starts a .sqsh",
      "fuse",
      "squashfuse"),
  HOSTNAME_UNIQUE(new HostnameUniqueCheck(), "every node has its own hostname", "hostname"),
  NETWORK(
      new NetworkCheck(),
      "the nodes share one network and no address is on two nodes",
      NetworkFacts.ADDRS,
      NetworkFacts.SSH,
      NetworkFacts.RDMA),
  UID_GID(
      new UidGidCheck(), "the job user has the same uid and gid everywhere", "uid", "gid", "user"),
  SSH_FROM_HEAD(new SshFromHeadCheck(), "the head reaches the node with passwordless SSH", "user"),
  CONFIG_IDENTICAL(
      new ConfigIdenticalCheck(),
      "enroot's configuration files are identical everywhere",
      "conf.",
      "enroot.sysconf"),
  GPU_SLOTS(new GpuSlotsCheck(), "hostfile slots match the node's GPUs", "gpu.list", "gpu.rc");

  private final Check check;
  private final String description;
  private final List<String> facts;

  /**
   * @param facts the keys (or key prefixes, e.g. {@code hook.}) the fact script prints that the
   *     check reads
   */
  CheckId(Check check, String description, String... facts) {
    this.check = check;
    this.description = description;
    this.facts = List.of(facts);
  }

  public Check check() {
    return check;
  }

  /** The word of {@code --only}/{@code --skip}: {@code data-path-shared} for DATA_PATH_SHARED. */
  public String id() {
    return EnumWords.word(this);
  }

  public String description() {
    return description;
  }

  List<String> facts() {
    return facts;
  }

  /** The row of {@code check}: the one of its class. */
  static CheckId of(Check check) {
    return Arrays.stream(values())
        .filter(c -> c.check.getClass() == check.getClass())
        .findFirst()
        .orElseThrow();
  }

  public static Optional<CheckId> byId(String id) {
    return EnumWords.byWord(values(), id);
  }

  public static List<String> ids() {
    return Arrays.stream(values()).map(CheckId::id).toList();
  }

  @Override
  public String toString() {
    return id();
  }
}
