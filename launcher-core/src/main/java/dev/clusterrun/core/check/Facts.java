package dev.clusterrun.core.check;

import dev.clusterrun.core.enroot.EnrootConfig;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What one node told about itself, gathered by {@link FactScript} and read by {@link FactParser},
 * in groups by what they describe. A node that could not be asked (or whose answer was cut short)
 * is a {@code Facts} too, with {@link #problem()} saying why and every group empty (its values
 * null, its lists and maps empty); a group left {@code null} is made empty the same way.
 *
 * @param node the node's name as the hostfile gives it
 * @param problem why the node gave no usable answer, or {@code null}
 * @param elapsed how long the node took to answer
 * @param raw every key the script printed, for the JSON report, the network facts and debugging
 */
public record Facts(
    String node,
    String problem,
    Duration elapsed,
    Host host,
    Account account,
    Enroot enroot,
    Storage storage,
    Gpus gpus,
    Mpi mpi,
    Map<String, String> raw) {

  public Facts {
    host = host != null ? host : new Host(null, null, null);
    account = account != null ? account : new Account(null, null, null, null, null, null, null);
    enroot = enroot != null ? enroot : new Enroot(null, null, null, null, null, null, null, null);
    storage = storage != null ? storage : new Storage(null, null, null, null, null, null);
    gpus = gpus != null ? gpus : new Gpus(null, null, null);
    mpi = mpi != null ? mpi : new Mpi(null, null);
    raw = raw == null ? Map.of() : Map.copyOf(raw);
  }

  /**
   * The machine: its own name, its mount namespace, and /dev/fuse.
   *
   * @param hostname the node's own idea of its name ({@code hostname})
   * @param mountNamespace {@code readlink /proc/self/ns/mnt}
   * @param fuse {@code rw}, {@code no-access} or {@code missing} for /dev/fuse
   */
  public record Host(String hostname, String mountNamespace, String fuse) {}

  /**
   * The job user on the node: who it is and its home.
   *
   * @param homeReal the home with symbolic links resolved, or {@code null}
   * @param sshDir whether {@code ~/.ssh} exists, {@code null} when not told
   * @param xdgRuntimeDir {@code XDG_RUNTIME_DIR} in the session, empty when unset
   */
  public record Account(
      Integer uid,
      Integer gid,
      String user,
      String home,
      String homeReal,
      Boolean sshDir,
      String xdgRuntimeDir) {}

  /**
   * enroot on the node: the install, its configuration files and hooks as this user sees them.
   *
   * @param path {@code command -v enroot}, empty when not installed
   * @param version {@code enroot version}, or {@code null}
   * @param versionError why {@code enroot version} failed, or {@code null}
   * @param sysconfDir enroot's system configuration directory, e.g. {@code /etc/enroot}
   * @param settings the effective enroot configuration for this user
   * @param confFiles {@code enroot.conf} and the drop-ins, in enroot's reading order
   * @param hooks the files of the system and the user {@code hooks.d}
   * @param containers whether each container the check asked about exists in the data path
   */
  public record Enroot(
      String path,
      String version,
      String versionError,
      String sysconfDir,
      EnrootConfig settings,
      List<ConfFile> confFiles,
      List<HookFile> hooks,
      Map<String, Boolean> containers) {
    public Enroot {
      confFiles = confFiles == null ? List.of() : List.copyOf(confFiles);
      hooks = hooks == null ? List.of() : List.copyOf(hooks);
      containers = containers == null ? Map.of() : Map.copyOf(containers);
    }

    public boolean installed() {
      return path != null && !path.isEmpty();
    }

    /** The system hook with this file name, if present. */
    public Optional<HookFile> systemHook(String fileName) {
      return hooks.stream()
          .filter(h -> h.scope().equals("system") && h.fileName().equals(fileName))
          .findFirst();
    }

    /**
     * The configuration as a comparable text: each file's name (relative to the sysconf directory)
     * and checksum, in enroot's reading order.
     */
    public String configFingerprint() {
      StringBuilder b = new StringBuilder();
      for (ConfFile c : confFiles) {
        b.append(relativeConfName(c)).append(' ').append(c.sha256() != null ? c.sha256() : "?");
        b.append('\n');
      }
      return b.toString();
    }

    String relativeConfName(ConfFile c) {
      if (sysconfDir != null && c.path().startsWith(sysconfDir + "/")) {
        return c.path().substring(sysconfDir.length() + 1);
      }
      return c.path();
    }
  }

  /**
   * enroot's runtime, cache and data directories: whether the job user can write them, and what
   * lies under the data path.
   *
   * @param dataReal ENROOT_DATA_PATH with symbolic links resolved
   * @param dataFsType the file system type of the data path ({@code df}), or {@code null}
   * @param dataMountPoint the mount point the data path lies on, or {@code null}
   */
  public record Storage(
      PathProbe runtime,
      PathProbe cache,
      PathProbe data,
      String dataReal,
      String dataFsType,
      String dataMountPoint) {
    /** The effective data path, or {@code null}. */
    public String dataPath() {
      return data == null ? null : data.path();
    }
  }

  /**
   * The GPUs {@code nvidia-smi -L} lists.
   *
   * @param count how many; {@code null} without nvidia-smi, 0 when it failed
   * @param model the first GPU's model, or {@code null}
   * @param error nvidia-smi's output when it failed, or {@code null}
   */
  public record Gpus(Integer count, String model, String error) {}

  /**
   * Open MPI as the node has it.
   *
   * @param version first line of {@code mpirun --version}, or {@code null}
   * @param agents every place but clusterrun's own hook that names one of Open MPI's launch or
   *     rsh/ssh agent variables (hooks, environ.d files, enroot's configuration, the environment)
   */
  public record Mpi(String version, List<AgentMention> agents) {
    public Mpi {
      agents = agents == null ? List.of() : List.copyOf(agents);
    }
  }

  /** A node that gave no usable answer. */
  public static Facts unanswered(String node, String problem, Duration elapsed) {
    return new Facts(node, problem, elapsed, null, null, null, null, null, null, null);
  }

  public boolean answered() {
    return problem == null;
  }

  /**
   * Whether the data path lies inside the user's home (comparing real paths when known), which
   * enroot's home mount can trip over.
   */
  public boolean dataInHome() {
    String d = nonEmpty(storage.dataReal()) ? storage.dataReal() : storage.dataPath();
    String h = nonEmpty(account.homeReal()) ? account.homeReal() : account.home();
    if (d == null || h == null || h.isEmpty() || h.equals("/")) {
      return false;
    }
    String hs = h.endsWith("/") ? h : h + "/";
    return (d + "/").startsWith(hs);
  }

  private static boolean nonEmpty(String s) {
    return s != null && !s.isEmpty();
  }
}
