package dev.clusterrun.core.check;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/** The checks of {@code clusterrun check}, with stable ids for {@code --only}/{@code --skip}. */
public enum CheckId {
  REACHABLE("reachable", "the node answers over SSH as the job user"),
  ENROOT("enroot", "enroot is installed and runs"),
  ENROOT_VERSION("enroot-version", "the same enroot version on every node"),
  RUNTIME_PATH("runtime-path", "ENROOT_RUNTIME_PATH is creatable and writable"),
  CACHE_PATH("cache-path", "ENROOT_CACHE_PATH is creatable and writable"),
  DATA_PATH("data-path", "ENROOT_DATA_PATH is writable, not inside a mounted home"),
  DATA_PATH_SHARED("data-path-shared", "ENROOT_DATA_PATH is the same and proven shared"),
  MOUNT_HOME("mount-home", "~/.ssh is visible inside the container"),
  HOOK("hook", "clusterrun's hook: present, executable, root-owned, current"),
  LAUNCH_AGENT("launch-agent", "nothing else sets Open MPI's launch or rsh/ssh agent"),
  DROPIN("dropin", "clusterrun's enroot drop-in is installed"),
  CONTAINER("container", "the job's named container exists on every node"),
  HOSTNAME_UNIQUE("hostname-unique", "every node has its own hostname"),
  UID_GID("uid-gid", "the job user has the same uid and gid everywhere"),
  SSH_FROM_HEAD("ssh-from-head", "the head reaches the node with passwordless SSH"),
  CONFIG_IDENTICAL("config-identical", "enroot's configuration files are identical everywhere"),
  GPU_SLOTS("gpu-slots", "hostfile slots match the node's GPUs");

  private final String id;
  private final String description;

  CheckId(String id, String description) {
    this.id = id;
    this.description = description;
  }

  public String id() {
    return id;
  }

  public String description() {
    return description;
  }

  public static Optional<CheckId> byId(String id) {
    return Arrays.stream(values()).filter(c -> c.id.equals(id)).findFirst();
  }

  public static List<String> ids() {
    return Arrays.stream(values()).map(CheckId::id).toList();
  }

  @Override
  public String toString() {
    return id;
  }
}
