package dev.clusterrun.core.launch.job;

import dev.clusterrun.core.BadInputException;
import dev.clusterrun.core.spec.ByteSize;
import dev.clusterrun.core.spec.ContainerSpec;
import dev.clusterrun.core.spec.ImageRef;
import dev.clusterrun.core.spec.JobSpec;
import dev.clusterrun.core.spec.Mount;
import dev.clusterrun.core.spec.MpiSpec;
import dev.clusterrun.core.spec.SettingRules;
import dev.clusterrun.core.spec.SshSpec;
import dev.clusterrun.core.spec.TimeLimit;
import dev.clusterrun.core.spec.WorkspaceSpec;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * The environment variables as job layers: clusterrun's own {@code CLUSTERRUN_CONTAINER_*}, {@code
 * CLUSTERRUN_WORKSPACE} and {@code CLUSTERRUN_IMAGE_CACHE_LIMIT}, and Pyxis's {@code
 * PYXIS_CONTAINER_*} as their aliases (a user's Pyxis habits carry over; the clusterrun name wins
 * when both are set). Each value is checked by its one rule ({@link SettingRules}); errors name the
 * variable.
 */
public final class EnvironmentLayer {
  /** Which family of variables a layer reads. */
  public enum Prefix {
    CLUSTERRUN,
    PYXIS;

    /** The family's prefix: the constant's name, then {@code _CONTAINER_}. */
    public String text() {
      return name() + "_CONTAINER_";
    }

    /** How {@code plan} names the layer. */
    public String origin() {
      return text() + "* environment";
    }
  }

  public static final String IMAGE = "CLUSTERRUN_CONTAINER_IMAGE";
  public static final String NAME = "CLUSTERRUN_CONTAINER_NAME";
  public static final String MOUNTS = "CLUSTERRUN_CONTAINER_MOUNTS";
  public static final String WORKDIR = "CLUSTERRUN_CONTAINER_WORKDIR";
  public static final String WRITABLE = "CLUSTERRUN_CONTAINER_WRITABLE";
  public static final String READONLY = "CLUSTERRUN_CONTAINER_READONLY";
  public static final String MOUNT_HOME = "CLUSTERRUN_CONTAINER_MOUNT_HOME";
  public static final String REMAP_ROOT = "CLUSTERRUN_CONTAINER_REMAP_ROOT";
  public static final String SAVE = "CLUSTERRUN_CONTAINER_SAVE";
  public static final String ENV = "CLUSTERRUN_CONTAINER_ENV";
  public static final String ENTRYPOINT = "CLUSTERRUN_CONTAINER_ENTRYPOINT";
  public static final String WORKSPACE = "CLUSTERRUN_WORKSPACE";
  public static final String IMAGE_CACHE_LIMIT = "CLUSTERRUN_IMAGE_CACHE_LIMIT";
  public static final String TIME = "CLUSTERRUN_TIME";

  /** Every {@code CLUSTERRUN_*} variable this layer reads, for documentation and tests. */
  public static final List<String> ALL =
      List.of(
          IMAGE,
          NAME,
          MOUNTS,
          WORKDIR,
          WRITABLE,
          READONLY,
          MOUNT_HOME,
          REMAP_ROOT,
          SAVE,
          ENV,
          ENTRYPOINT,
          WORKSPACE,
          IMAGE_CACHE_LIMIT,
          TIME);

  /** Pyxis variables without a meaning here: refused rather than silently ignored. */
  public static final String PYXIS_UNSHARE = "PYXIS_CONTAINER_UNSHARE";

  /** A layer and, for each job-file key it sets, the variable that set it. */
  public record Layer(JobSpec spec, Map<String, String> variables) {}

  private EnvironmentLayer() {}

  /** The Pyxis name of a {@code CLUSTERRUN_CONTAINER_*} variable. */
  public static String pyxis(String clusterrunVariable) {
    return Prefix.PYXIS.text() + clusterrunVariable.substring(Prefix.CLUSTERRUN.text().length());
  }

  /**
   * Both families merged into one layer, the clusterrun name winning variable by variable (for
   * callers that take one environment layer; {@link #read(Map, Prefix)} keeps their provenance).
   */
  public static JobSpec read(Map<String, String> env) {
    Map<String, String> merged = new LinkedHashMap<>(env);
    for (String v : ALL) {
      if (v.equals(WORKSPACE)
          || v.equals(IMAGE_CACHE_LIMIT)
          || v.equals(TIME)
          || v.equals(WRITABLE)
          || v.equals(READONLY)) {
        continue;
      }
      if (!merged.containsKey(v) && env.containsKey(pyxis(v))) {
        merged.put(v, env.get(pyxis(v)));
      }
    }
    if (!env.containsKey(WRITABLE) && !env.containsKey(READONLY)) {
      for (String v : List.of(WRITABLE, READONLY)) {
        if (env.containsKey(pyxis(v))) {
          merged.put(v, env.get(pyxis(v)));
        }
      }
    }
    if (env.containsKey(PYXIS_UNSHARE)) {
      read(env, Prefix.PYXIS);
    }
    return read(merged, Prefix.CLUSTERRUN).spec();
  }

  /** One family of variables as a layer. */
  public static Layer read(Map<String, String> env, Prefix prefix) {
    Map<String, String> vars = new LinkedHashMap<>();
    Function<String, String> get =
        name -> {
          String var = prefix == Prefix.PYXIS ? pyxis(name) : name;
          return env.get(var);
        };
    Function<String, String> var = name -> prefix == Prefix.PYXIS ? pyxis(name) : name;

    if (prefix == Prefix.PYXIS && env.containsKey(PYXIS_UNSHARE)) {
      throw new BadInputException(
          PYXIS_UNSHARE,
          "clusterrun does not unshare namespaces (Open MPI's daemons and ranks need the nodes'"
              + " network, IPC and host names); unset it");
    }
    ImageRef image = checked(IMAGE, "container.image", SettingRules::image, get, var, vars);
    String name = get.apply(NAME);
    checked(NAME, "container.name", SettingRules::containerName, get, var, vars);
    List<Mount> mounts =
        checked(MOUNTS, "container.mounts", SettingRules::mountList, get, var, vars);
    String workdir = get.apply(WORKDIR);
    checked(WORKDIR, "container.workdir", SettingRules::workdir, get, var, vars);
    Boolean writable = writable(get, var, vars);
    Boolean mountHome = flag(MOUNT_HOME, "container.mount-home", get, var, vars);
    Boolean remapRoot = flag(REMAP_ROOT, "container.remap-root", get, var, vars);
    Boolean entrypoint = flag(ENTRYPOINT, "container.entrypoint", get, var, vars);
    String save = get.apply(SAVE);
    checked(SAVE, "container.save", SettingRules::savePath, get, var, vars);
    List<String> envNames =
        checked(ENV, "container.env-from-host", SettingRules::envNameList, get, var, vars);
    String ws = prefix == Prefix.CLUSTERRUN ? env.get(WORKSPACE) : null;
    if (ws != null) {
      BadInputException.about(WORKSPACE, () -> SettingRules.workspacePath(ws));
      vars.put("workspace.path", WORKSPACE);
    }
    String limitText = prefix == Prefix.CLUSTERRUN ? env.get(IMAGE_CACHE_LIMIT) : null;
    ByteSize limit = null;
    if (limitText != null) {
      limit =
          BadInputException.about(IMAGE_CACHE_LIMIT, () -> SettingRules.imageCacheLimit(limitText));
      vars.put("workspace.image-cache-limit", IMAGE_CACHE_LIMIT);
    }
    String timeText = prefix == Prefix.CLUSTERRUN ? env.get(TIME) : null;
    Duration time = null;
    if (timeText != null) {
      time = BadInputException.about(TIME, () -> TimeLimit.parse(timeText));
      vars.put("time", TIME);
    }
    ContainerSpec c =
        new ContainerSpec(
            image,
            name,
            mounts,
            workdir,
            writable,
            mountHome,
            remapRoot,
            null,
            envNames,
            save,
            entrypoint);
    return new Layer(
        new JobSpec(
            null,
            c,
            new WorkspaceSpec(ws, null, limit),
            MpiSpec.EMPTY,
            null,
            SshSpec.EMPTY,
            prefix.origin(),
            null,
            time),
        Map.copyOf(vars));
  }

  /** The writable and read-only variables, which must not contradict each other. */
  private static Boolean writable(
      Function<String, String> get, Function<String, String> var, Map<String, String> vars) {
    Boolean writable = bool(var.apply(WRITABLE), get.apply(WRITABLE));
    Boolean readonly = bool(var.apply(READONLY), get.apply(READONLY));
    if (writable != null && readonly != null && writable == readonly) {
      throw new BadInputException(
          var.apply(WRITABLE) + " and " + var.apply(READONLY),
          "contradict each other; set only one of them");
    }
    if (writable != null) {
      vars.put("container.writable", var.apply(WRITABLE));
    } else if (readonly != null) {
      writable = !readonly;
      vars.put("container.writable", var.apply(READONLY));
    }
    return writable;
  }

  /** One boolean variable, remembered under its job-file key when set. */
  /**
   * A variable's value as {@code rule} reads it (its problems name the variable), noted as the
   * source of {@code key}; null when the variable is unset.
   */
  private static <T> T checked(
      String name,
      String key,
      Function<String, T> rule,
      Function<String, String> get,
      Function<String, String> var,
      Map<String, String> vars) {
    String v = get.apply(name);
    if (v == null) {
      return null;
    }
    T t = BadInputException.about(var.apply(name), () -> rule.apply(v));
    vars.put(key, var.apply(name));
    return t;
  }

  private static Boolean flag(
      String name,
      String key,
      Function<String, String> get,
      Function<String, String> var,
      Map<String, String> vars) {
    Boolean b = bool(var.apply(name), get.apply(name));
    if (b != null) {
      vars.put(key, var.apply(name));
    }
    return b;
  }

  /**
   * A boolean variable: {@code 1}/{@code 0}, {@code true}/{@code false}, {@code yes}/{@code no},
   * {@code y}/{@code n}, {@code on}/{@code off} (any case), as Pyxis's {@code parse_bool}.
   */
  static Boolean bool(String key, String v) {
    if (v == null) {
      return null;
    }
    switch (v.toLowerCase(Locale.ROOT)) {
      case "1", "true", "yes", "y", "on":
        return true;
      case "0", "false", "no", "n", "off":
        return false;
      default:
        throw new BadInputException(
            key, "'" + v + "' is not a boolean; use 1 or 0 (also true/false, yes/no, on/off)");
    }
  }
}
