package dev.clusterrun.core.check;

import dev.clusterrun.core.enroot.EnrootConfig;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What one node told about itself, gathered by {@link FactScript} and read by {@link FactParser}. A
 * node that could not be asked (or whose answer was cut short) is a {@code Facts} too, with {@link
 * #problem()} saying why and everything else empty.
 *
 * @param node the node's name as the hostfile gives it
 * @param problem why the node gave no usable answer, or {@code null}
 * @param elapsed how long the node took to answer
 * @param hostname the node's own idea of its name ({@code hostname})
 * @param sshDir whether {@code ~/.ssh} exists
 * @param xdgRuntimeDir {@code XDG_RUNTIME_DIR} in the session, empty when unset
 * @param enrootPath {@code command -v enroot}, empty when not installed
 * @param enrootVersion {@code enroot version}, or {@code null}
 * @param enrootVersionError why {@code enroot version} failed, or {@code null}
 * @param enroot the effective enroot configuration for this user
 * @param dataReal ENROOT_DATA_PATH with symbolic links resolved
 * @param gpuCount GPUs listed by {@code nvidia-smi -L}; {@code null} without nvidia-smi
 * @param mountNamespace {@code readlink /proc/self/ns/mnt}
 * @param mpiVersion first line of {@code mpirun --version}, or {@code null}
 * @param fuse {@code rw}, {@code no-access} or {@code missing} for /dev/fuse
 * @param agents every place but clusterrun's own hook that names one of Open MPI's launch or
 *     rsh/ssh agent variables (hooks, environ.d files, enroot's configuration, the environment)
 * @param raw every key the script printed, for the JSON report and for debugging
 */
public record Facts(
    String node,
    String problem,
    Duration elapsed,
    String hostname,
    Integer uid,
    Integer gid,
    String user,
    String home,
    String homeReal,
    Boolean sshDir,
    String xdgRuntimeDir,
    String enrootPath,
    String enrootVersion,
    String enrootVersionError,
    String sysconfDir,
    EnrootConfig enroot,
    PathProbe runtime,
    PathProbe cache,
    PathProbe data,
    String dataReal,
    String dataFsType,
    String dataMountPoint,
    List<ConfFile> confFiles,
    List<HookFile> hooks,
    Map<String, Boolean> containers,
    Integer gpuCount,
    String gpuModel,
    String gpuError,
    String mountNamespace,
    String mpiVersion,
    String fuse,
    List<AgentMention> agents,
    Map<String, String> raw) {

  public Facts {
    confFiles = confFiles == null ? List.of() : List.copyOf(confFiles);
    agents = agents == null ? List.of() : List.copyOf(agents);
    hooks = hooks == null ? List.of() : List.copyOf(hooks);
    containers = containers == null ? Map.of() : Map.copyOf(containers);
    raw = raw == null ? Map.of() : Map.copyOf(raw);
  }

  /** Whether a path is creatable and writable by the job user, and the exact error if not. */
  public record PathProbe(String path, boolean writable, String error) {}

  /**
   * {@code enroot.conf} or one drop-in, with its checksum (or why it could not be read).
   *
   * @param sets the settings clusterrun follows that the file sets (whether or not its line won),
   *     with the line of each
   */
  public record ConfFile(String path, String sha256, String error, Map<String, Integer> sets) {
    public ConfFile {
      sets = sets == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(sets));
    }

    /** The file name without its directory, e.g. {@code 50-clusterrun.conf}. */
    public String fileName() {
      int slash = path.lastIndexOf('/');
      return slash >= 0 ? path.substring(slash + 1) : path;
    }
  }

  /**
   * One file in a {@code hooks.d} directory.
   *
   * @param scope {@code system} (ENROOT_SYSCONF_PATH/hooks.d) or {@code user}
   *     (ENROOT_CONFIG_PATH/hooks.d)
   * @param mode octal permission bits as {@code stat %a} prints them, e.g. {@code 755}
   * @param uid owner uid
   * @param owner owner name
   * @param type file type as {@code stat %F} prints it
   * @param executable whether the job user may execute it ({@code test -x})
   * @param version the number in clusterrun's hook header, or {@code null}
   */
  public record HookFile(
      String scope,
      String path,
      String mode,
      Integer uid,
      String owner,
      String type,
      boolean executable,
      String sha256,
      Integer version) {
    public String fileName() {
      int slash = path.lastIndexOf('/');
      return slash >= 0 ? path.substring(slash + 1) : path;
    }

    /** Permission bits, or -1 when unknown. */
    public int modeBits() {
      try {
        return Integer.parseInt(mode, 8);
      } catch (RuntimeException e) {
        return -1;
      }
    }
  }

  /**
   * One line (or variable) that names an agent variable of Open MPI, e.g. {@code
   * OMPI_MCA_orte_launch_agent}, {@code PRTE_MCA_prte_launch_agent} or {@code
   * OMPI_MCA_plm_rsh_agent}.
   *
   * @param kind where it was found
   * @param scope {@code system} (enroot's sysconf directory) or {@code user} (ENROOT_CONFIG_PATH);
   *     {@code null} for the environment
   * @param path the file, or {@code null} for the environment
   * @param line the line in the file, or {@code null}
   * @param comment whether the line is a comment ({@code #})
   * @param variable the variable named
   * @param active whether enroot uses the file: an executable {@code *.sh} hook, an {@code *.env}
   *     file; always true for configuration lines and the environment
   */
  public record AgentMention(
      Kind kind,
      String scope,
      String path,
      Integer line,
      boolean comment,
      String variable,
      boolean active) {
    public enum Kind {
      HOOK,
      ENVIRON,
      CONFIG,
      ENVIRONMENT
    }

    /** {@code path:line}, or {@code the environment}. */
    public String place() {
      if (path == null) {
        return "the environment";
      }
      return line == null ? path : path + ":" + line;
    }
  }

  /** A node that gave no usable answer. */
  public static Facts unanswered(String node, String problem, Duration elapsed) {
    return builder(node).problem(problem).elapsed(elapsed).build();
  }

  /** Facts made value by value; {@link FactParser} is the one that does. */
  public static Builder builder(String node) {
    return new Builder(node);
  }

  /** Builds facts; what is not set stays empty (null, or an empty list or map). */
  public static final class Builder {
    private String node;
    private String problem;
    private Duration elapsed;
    private String hostname;
    private Integer uid;
    private Integer gid;
    private String user;
    private String home;
    private String homeReal;
    private Boolean sshDir;
    private String xdgRuntimeDir;
    private String enrootPath;
    private String enrootVersion;
    private String enrootVersionError;
    private String sysconfDir;
    private EnrootConfig enroot;
    private PathProbe runtime;
    private PathProbe cache;
    private PathProbe data;
    private String dataReal;
    private String dataFsType;
    private String dataMountPoint;
    private List<ConfFile> confFiles = List.of();
    private List<HookFile> hooks = List.of();
    private Map<String, Boolean> containers = Map.of();
    private Integer gpuCount;
    private String gpuModel;
    private String gpuError;
    private String mountNamespace;
    private String mpiVersion;
    private String fuse;
    private List<AgentMention> agents = List.of();
    private Map<String, String> raw = Map.of();

    private Builder(String node) {
      this.node = node;
    }

    public Builder problem(String v) {
      problem = v;
      return this;
    }

    public Builder elapsed(Duration v) {
      elapsed = v;
      return this;
    }

    public Builder hostname(String v) {
      hostname = v;
      return this;
    }

    public Builder uid(Integer v) {
      uid = v;
      return this;
    }

    public Builder gid(Integer v) {
      gid = v;
      return this;
    }

    public Builder user(String v) {
      user = v;
      return this;
    }

    public Builder home(String v) {
      home = v;
      return this;
    }

    public Builder homeReal(String v) {
      homeReal = v;
      return this;
    }

    public Builder sshDir(Boolean v) {
      sshDir = v;
      return this;
    }

    public Builder xdgRuntimeDir(String v) {
      xdgRuntimeDir = v;
      return this;
    }

    public Builder enrootPath(String v) {
      enrootPath = v;
      return this;
    }

    public Builder enrootVersion(String v) {
      enrootVersion = v;
      return this;
    }

    public Builder enrootVersionError(String v) {
      enrootVersionError = v;
      return this;
    }

    public Builder sysconfDir(String v) {
      sysconfDir = v;
      return this;
    }

    public Builder enroot(EnrootConfig v) {
      enroot = v;
      return this;
    }

    public Builder runtime(PathProbe v) {
      runtime = v;
      return this;
    }

    public Builder cache(PathProbe v) {
      cache = v;
      return this;
    }

    public Builder data(PathProbe v) {
      data = v;
      return this;
    }

    public Builder dataReal(String v) {
      dataReal = v;
      return this;
    }

    public Builder dataFsType(String v) {
      dataFsType = v;
      return this;
    }

    public Builder dataMountPoint(String v) {
      dataMountPoint = v;
      return this;
    }

    public Builder confFiles(List<ConfFile> v) {
      confFiles = v;
      return this;
    }

    public Builder hooks(List<HookFile> v) {
      hooks = v;
      return this;
    }

    public Builder containers(Map<String, Boolean> v) {
      containers = v;
      return this;
    }

    public Builder gpuCount(Integer v) {
      gpuCount = v;
      return this;
    }

    public Builder gpuModel(String v) {
      gpuModel = v;
      return this;
    }

    public Builder gpuError(String v) {
      gpuError = v;
      return this;
    }

    public Builder mountNamespace(String v) {
      mountNamespace = v;
      return this;
    }

    public Builder mpiVersion(String v) {
      mpiVersion = v;
      return this;
    }

    public Builder fuse(String v) {
      fuse = v;
      return this;
    }

    public Builder agents(List<AgentMention> v) {
      agents = v;
      return this;
    }

    public Builder raw(Map<String, String> v) {
      raw = v;
      return this;
    }

    public Facts build() {
      return new Facts(
          node,
          problem,
          elapsed,
          hostname,
          uid,
          gid,
          user,
          home,
          homeReal,
          sshDir,
          xdgRuntimeDir,
          enrootPath,
          enrootVersion,
          enrootVersionError,
          sysconfDir,
          enroot,
          runtime,
          cache,
          data,
          dataReal,
          dataFsType,
          dataMountPoint,
          confFiles,
          hooks,
          containers,
          gpuCount,
          gpuModel,
          gpuError,
          mountNamespace,
          mpiVersion,
          fuse,
          agents,
          raw);
    }
  }

  public boolean answered() {
    return problem == null;
  }

  public boolean enrootInstalled() {
    return enrootPath != null && !enrootPath.isEmpty();
  }

  /** The effective data path, or {@code null}. */
  public String dataPath() {
    return enroot == null || !enroot.dataPath().isSet() ? null : enroot.dataPath().value();
  }

  /**
   * Whether the data path lies inside the user's home (comparing real paths when known), which
   * enroot's home mount can trip over.
   */
  public boolean dataInHome() {
    String d = dataReal != null && !dataReal.isEmpty() ? dataReal : dataPath();
    String h = homeReal != null && !homeReal.isEmpty() ? homeReal : home;
    if (d == null || h == null || h.isEmpty() || h.equals("/")) {
      return false;
    }
    String hs = h.endsWith("/") ? h : h + "/";
    return (d + "/").startsWith(hs);
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
