package dev.clusterrun.core.check;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * The one registry of the checks of {@code clusterrun check}, in report (column) order. Each
 * constant is one {@link Check}: its id for {@code --only}/{@code --skip}, its description for
 * {@code check --help}, its facts and its evaluation all live in that check's class. A new check is
 * a class and a line here.
 */
public enum CheckId {
  REACHABLE(new ReachableCheck()),
  ENROOT(new EnrootCheck()),
  ENROOT_VERSION(new EnrootVersionCheck()),
  RUNTIME_PATH(new RuntimePathCheck()),
  CACHE_PATH(new CachePathCheck()),
  DATA_PATH(new DataPathCheck()),
  DATA_PATH_SHARED(new DataPathSharedCheck()),
  MOUNT_HOME(new MountHomeCheck()),
  HOOK(new HookCheck()),
  LAUNCH_AGENT(new LaunchAgentCheck()),
  DROPIN(new DropInCheck()),
  CONTAINER(new ContainerCheck()),
  IMAGE(new ImageCheck()),
  SQUASHFUSE(new ImageStartCheck()),
  HOSTNAME_UNIQUE(new HostnameUniqueCheck()),
  NETWORK(new NetworkCheck()),
  UID_GID(new UidGidCheck()),
  SSH_FROM_HEAD(new SshFromHeadCheck()),
  CONFIG_IDENTICAL(new ConfigIdenticalCheck()),
  GPU_SLOTS(new GpuSlotsCheck());

  private final Check check;

  CheckId(Check check) {
    this.check = check;
  }

  public Check check() {
    return check;
  }

  public String id() {
    return check.id();
  }

  public String description() {
    return check.description();
  }

  public static Optional<CheckId> byId(String id) {
    return Arrays.stream(values()).filter(c -> c.id().equals(id)).findFirst();
  }

  public static List<String> ids() {
    return Arrays.stream(values()).map(CheckId::id).toList();
  }

  @Override
  public String toString() {
    return id();
  }
}
