package dev.clusterrun.core.launch.job;

import dev.clusterrun.core.BadInputException;
import dev.clusterrun.core.WorkspaceDir;
import dev.clusterrun.core.cluster.Hostfile;
import dev.clusterrun.core.spec.ByteSize;
import dev.clusterrun.core.spec.Carry;
import dev.clusterrun.core.spec.ContainerSpec;
import dev.clusterrun.core.spec.ImageRef;
import dev.clusterrun.core.spec.JobSpec;
import dev.clusterrun.core.spec.LauncherKind;
import dev.clusterrun.core.spec.Mount;
import dev.clusterrun.core.spec.MpiSpec;
import dev.clusterrun.core.spec.SettingRules;
import dev.clusterrun.core.spec.SpecLoader;
import dev.clusterrun.core.spec.SshSpec;
import dev.clusterrun.core.spec.SshSpec.KnownHostsPolicy;
import dev.clusterrun.core.spec.WorkspaceSpec;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Merges job layers with the precedence flag &gt; environment &gt; file &gt; default, keeping where
 * each value came from. The one settings registry of clusterrun.
 */
public final class JobResolver {
  public static final String DEFAULT_WORKSPACE_MOUNT = "/workspace";
  public static final int DEFAULT_FANOUT = 64;
  public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(10);
  public static final Duration DEFAULT_NODE_TIMEOUT = Duration.ofSeconds(30);

  /**
   * How much the workspace's image cache holds by default: five to ten of the 10–20 GB images
   * clusters run, a fixed size that {@code plan} can show (a share of the filesystem would change
   * with what else is on it).
   */
  public static final ByteSize DEFAULT_IMAGE_CACHE_LIMIT = new ByteSize(100L << 30);

  public static final String NETWORK_AUTO = "auto";
  public static final String NETWORK_NONE = "none";

  private final List<Layer> layers = new ArrayList<>();
  private Map<String, String> hostEnv = Map.of();

  private record Layer(JobSpec spec, Source source, String origin, Map<String, String> variables) {}

  /** Adds a layer; call in precedence order: flags, environment, file. */
  public JobResolver layer(JobSpec spec, Source source, String origin) {
    if (spec != null) {
      layers.add(new Layer(spec, source, origin, null));
    }
    return this;
  }

  /**
   * Adds the environment's layers: {@code CLUSTERRUN_*} over their {@code PYXIS_CONTAINER_*}
   * aliases, each value named by the variable that set it.
   */
  public JobResolver environment(Map<String, String> env) {
    hostEnv = env;
    for (EnvironmentLayer.Prefix p : EnvironmentLayer.Prefix.values()) {
      EnvironmentLayer.Layer l = EnvironmentLayer.read(env, p);
      layers.add(new Layer(l.spec(), Source.ENVIRONMENT, p.origin(), l.variables()));
    }
    return this;
  }

  /** {@link #resolve(Hostfile, String, Path)} against the JVM's working directory. */
  public ResolvedJob resolve(Hostfile hostfile, String home) {
    return resolve(hostfile, home, Path.of("").toAbsolutePath());
  }

  /**
   * Resolves the job.
   *
   * @param hostfile the nodes (np defaults to their total slots)
   * @param home the job user's home directory, for the default workspace
   * @param cwd the directory relative paths are given from (mount sources {@code ./DIR}, {@code
   *     --container-save}, a squashfs image): they become absolute, as {@code plan} shows them
   */
  public ResolvedJob resolve(Hostfile hostfile, String home, Path cwd) {
    Setting<Integer> perNode = pick(s -> s.mpi().perNode(), "mpi.per-node", null);
    Setting<Integer> np = np(hostfile, perNode);
    Setting<String> wsPath = workspacePath(home);
    Setting<String> wsMount =
        pick(s -> s.workspace().mount(), "workspace.mount", DEFAULT_WORKSPACE_MOUNT);
    Setting<String> hostfileIn = hostfileIn(wsMount);
    Setting<List<String>> command = command();
    String defaultName =
        layers.stream()
            .filter(l -> l.source() == Source.FILE)
            .map(l -> baseName(l.origin()))
            .findFirst()
            .orElse("job");
    Setting<String> name = pick(JobSpec::name, "name", defaultName);
    Setting<ImageRef> image = pick(s -> s.container().image(), "container.image", null);
    if (image.value() != null && !image.value().isUri()) {
      image = absolute(image, v -> new ImageRef(ImageRef.Kind.SQUASHFS, v), ImageRef::value, cwd);
    }
    Setting<String> containerName = pick(s -> s.container().name(), "container.name", null);
    if (image.value() == null && containerName.value() == null) {
      throw new BadInputException(
          "container.image",
          "no container: give container.image (or --container-image, CLUSTERRUN_CONTAINER_IMAGE), "
              + "or the name of an existing container with --container-name");
    }
    // Like Pyxis, a read-only container is saved too (enroot export needs no writable one).
    Setting<String> save = pick(s -> s.container().save(), "container.save", null);
    if (save.value() != null) {
      save = absolute(save, v -> v, v -> v, cwd);
    }
    Setting<Boolean> writable = pick(s -> s.container().writable(), "container.writable", false);
    Setting<List<Mount>> mounts = mounts(cwd);
    Setting<List<String>> envFromHost =
        pick(s -> s.container().envFromHost(), "container.env-from-host", List.of());
    hostValues(envFromHost);
    return new ResolvedJob(
        name,
        image,
        containerName,
        mounts,
        pick(s -> s.container().workdir(), "container.workdir", null),
        writable,
        // Unset unless said: each node's enroot configuration decides, as with Pyxis.
        pick(s -> s.container().mountHome(), "container.mount-home", null),
        pick(s -> s.container().remapRoot(), "container.remap-root", false),
        pick(s -> s.container().env(), "container.env", Map.of()),
        envFromHost,
        save,
        pick(s -> s.container().entrypoint(), "container.entrypoint", true),
        wsPath,
        wsMount,
        np,
        perNode,
        pick(s -> s.mpi().mca(), "mpi.mca", Map.of()),
        pick(s -> s.mpi().env(), "mpi.env", List.of()),
        pick(s -> s.mpi().args(), "mpi.args", List.of()),
        hostfileIn,
        command,
        pick(JobSpec::launcher, "launcher", LauncherKind.MPIRUN),
        resolveSsh(),
        pick(s -> s.mpi().network(), "mpi.network", NETWORK_AUTO),
        pick(s -> s.mpi().nodeTimeout(), "mpi.node-timeout", DEFAULT_NODE_TIMEOUT),
        pick(
            s -> s.workspace().imageCacheLimit(),
            "workspace.image-cache-limit",
            DEFAULT_IMAGE_CACHE_LIMIT),
        pick(JobSpec::time, "time", Duration.ZERO));
  }

  /**
   * The SSH settings alone, layer over layer like every other setting: what {@code check} and
   * {@code setup} need, and a part of every resolved job.
   */
  public ResolvedSsh resolveSsh() {
    return new ResolvedSsh(
        pick(s -> s.ssh().user(), "ssh.user", null),
        pick(s -> s.ssh().port(), "ssh.port", null),
        pick(s -> s.ssh().identity(), "ssh.identity", null),
        pick(s -> s.ssh().knownHosts(), "ssh.known-hosts", KnownHostsPolicy.STRICT),
        pick(s -> s.ssh().connectTimeout(), "ssh.connect-timeout", DEFAULT_CONNECT_TIMEOUT),
        pick(s -> s.ssh().fanout(), "ssh.fanout", DEFAULT_FANOUT));
  }

  /**
   * The host's values of the variables {@code env-from-host} names, as far as this environment
   * holds them: each reaches the container through enroot's environment file.
   */
  private void hostValues(Setting<List<String>> names) {
    for (String n : names.value()) {
      String v = hostEnv.get(n);
      if (v != null) {
        BadInputException.about(
            subject(names, "container.env-from-host"), () -> Carry.hostValue(n, v));
      }
    }
  }

  /** np: given, else per-node × nodes, else the hostfile's total slots. */
  private Setting<Integer> np(Hostfile hostfile, Setting<Integer> perNode) {
    Setting<Integer> np = pick(s -> s.mpi().np(), "mpi.np", null);
    if (np.value() != null) {
      return np;
    }
    if (perNode.value() != null) {
      return Setting.of(
          perNode.value() * hostfile.hosts().size(), Source.DEFAULT, "per-node × nodes");
    }
    return Setting.of(hostfile.totalSlots(), Source.HOSTFILE, hostfile.source() + ": total slots");
  }

  private Setting<String> workspacePath(String home) {
    Setting<String> wsPath =
        pick(
            s -> s.workspace().path(),
            "workspace.path",
            home == null ? null : WorkspaceDir.inHome(home));
    if (wsPath.value() == null) {
      throw new BadInputException(
          "workspace.path",
          "not set; give it in the job file, --workspace or CLUSTERRUN_WORKSPACE");
    }
    if (wsPath.source() == Source.DEFAULT) {
      // The default workspace is ~/clusterrun: HOME is then a word of the launch agent.
      BadInputException.about(
          "HOME",
          () -> {
            try {
              return SettingRules.workspacePath(wsPath.value());
            } catch (IllegalArgumentException e) {
              throw new IllegalArgumentException(
                  "the default workspace "
                      + wsPath.value()
                      + " cannot be used: "
                      + e.getMessage()
                      + "; give the workspace with --workspace, CLUSTERRUN_WORKSPACE or"
                      + " workspace.path",
                  e);
            }
          });
    }
    return wsPath;
  }

  private Setting<String> hostfileIn(Setting<String> wsMount) {
    Setting<String> hostfileIn =
        pick(s -> s.mpi().hostfile(), "mpi.hostfile", wsMount.value() + "/hosts.txt");
    if (!isInside(hostfileIn.value(), wsMount.value())) {
      throw new BadInputException(
          subject(hostfileIn, "mpi.hostfile"),
          "'"
              + hostfileIn.value()
              + "' must lie inside the workspace mount "
              + wsMount.value()
              + " so that clusterrun can write it on the shared filesystem");
    }
    return hostfileIn;
  }

  private Setting<List<String>> command() {
    Setting<List<String>> command = pick(JobSpec::command, "command", null);
    if (command.value() == null || command.value().isEmpty()) {
      throw new BadInputException(
          "command",
          "no command to run; give it after the options (clusterrun run --nodes HOSTFILE"
              + " --container-image=IMAGE hostname) or as `command:` in the job file");
    }
    List<String> words = command.value();
    for (int i = 0; i < words.size(); i++) {
      int index = i;
      BadInputException.about(
          subject(command, "command"),
          () -> {
            Carry.word(words.get(index));
            return SpecLoader.commandWord(index, words.get(index));
          });
    }
    return command;
  }

  /** The mounts, relative sources made absolute against {@code cwd}. */
  private Setting<List<Mount>> mounts(Path cwd) {
    Setting<List<Mount>> given = pick(s -> s.container().mounts(), "container.mounts", List.of());
    if (given.value().stream().noneMatch(Mount::isRelative)) {
      return given;
    }
    // The current directory itself may hold what a mount cannot carry (white space, ':').
    return Setting.of(
        BadInputException.about(
            subject(given, "container.mounts"),
            () -> given.value().stream().map(m -> m.resolve(cwd)).toList()),
        given.source(),
        given.origin());
  }

  private <T> Setting<T> pick(Function<JobSpec, T> get, String key, T dflt) {
    for (Layer l : layers) {
      T v = get.apply(normalize(l.spec()));
      if (v != null) {
        return Setting.of(
            v, l.source(), SettingNames.origin(key, l.source(), l.origin(), l.variables()));
      }
    }
    return Setting.of(dflt, Source.DEFAULT, dflt == null ? "unset" : "built-in");
  }

  private static JobSpec normalize(JobSpec s) {
    return new JobSpec(
        s.name(),
        s.container() == null ? ContainerSpec.EMPTY : s.container(),
        s.workspace() == null ? WorkspaceSpec.EMPTY : s.workspace(),
        s.mpi() == null ? MpiSpec.EMPTY : s.mpi(),
        s.command(),
        s.ssh() == null ? SshSpec.EMPTY : s.ssh(),
        s.source(),
        s.launcher(),
        s.time());
  }

  /** How to name a setting in a message: the flag/variable/file it came from, and its key. */
  public static String subject(Setting<?> s, String key) {
    return switch (s.source()) {
      case FLAG, ENVIRONMENT -> s.origin();
      case FILE -> s.origin() + ": " + key;
      default -> key;
    };
  }

  /** A relative path setting made absolute against {@code cwd}, keeping its provenance. */
  private static <T> Setting<T> absolute(
      Setting<T> s, Function<String, T> make, Function<T, String> text, Path cwd) {
    String v = text.apply(s.value());
    if (v.startsWith("/")) {
      return s;
    }
    return Setting.of(make.apply(cwd.resolve(v).normalize().toString()), s.source(), s.origin());
  }

  static boolean isInside(String path, String dir) {
    String d = dir.endsWith("/") ? dir : dir + "/";
    return path.startsWith(d) && path.length() > d.length();
  }

  private static String baseName(String origin) {
    String b = origin.substring(origin.lastIndexOf('/') + 1);
    int dot = b.lastIndexOf('.');
    b = dot > 0 ? b.substring(0, dot) : b;
    b = b.replaceAll("[^A-Za-z0-9._-]", "-");
    return b.isEmpty() ? "job" : b;
  }
}
