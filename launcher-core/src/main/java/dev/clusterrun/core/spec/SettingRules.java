package dev.clusterrun.core.spec;

import dev.clusterrun.core.mpi.Networks;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * One rule per setting, whatever layer gives it: the job file ({@link SpecLoader}), the {@code
 * CLUSTERRUN_*} and {@code PYXIS_*} variables and the flags all call these. Each returns the value
 * it accepts or throws {@link IllegalArgumentException} with a message fit to follow the layer's
 * own subject (the flag, the variable, or {@code file:line:column: field}).
 */
public final class SettingRules {
  private static final Pattern ENV_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

  /** A Linux interface name: at most 15 characters, no '/', no white space. */
  private static final Pattern IFACE = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9_.:-]{0,14}");

  private static final Pattern USER_NAME = Pattern.compile("[A-Za-z0-9._][A-Za-z0-9._-]*\\$?");

  public static final int MAX_NP = 10_000_000;
  public static final int MAX_PER_NODE = 100_000;
  public static final int MAX_FANOUT = 100_000;

  private SettingRules() {}

  /** {@code launcher}: {@code mpirun} or {@code per-node}. */
  public static LauncherKind launcher(String text) {
    return LauncherKind.parse(text);
  }

  /** {@code container.image}: see {@link ImageRef#parse}. */
  public static ImageRef image(String text) {
    return ImageRef.parse(text);
  }

  /** {@code container.name}: see {@link ContainerName#validate}. */
  public static String containerName(String text) {
    return ContainerName.validate(text);
  }

  /** {@code container.mounts}, Pyxis's list form: {@code SRC[:DST[:FLAGS]][,SRC...]}. */
  public static List<Mount> mountList(String text) {
    return commaList(
        text, "SRC[:DST[:FLAGS]][,SRC:DST...]", "mount", "SRC[:DST[:FLAGS]][,...]", Mount::parse);
  }

  /** {@code container.workdir}: an absolute path in the container, carried by the agent. */
  public static String workdir(String path) {
    return absolute(path, "an absolute path inside the container", false);
  }

  /**
   * {@code container.save}: a squashfs file to write (relative paths are resolved against the
   * current directory later), never a directory.
   */
  public static String savePath(String path) {
    if (path == null || path.isEmpty()) {
      throw new IllegalArgumentException("argument required: a squashfs file path");
    }
    if (path.endsWith("/")
        || path.equals(".")
        || path.equals("..")
        || path.endsWith("/.")
        || path.endsWith("/..")) {
      throw new IllegalArgumentException(
          "'"
              + path
              + "' is a directory; give the squashfs file to write, e.g. "
              + suggestFile(path));
    }
    return Carry.path(path, false);
  }

  /** {@code container.env-from-host}, one name. */
  public static String envName(String name) {
    if (name == null || !ENV_NAME.matcher(name).matches()) {
      throw new IllegalArgumentException(
          "expected a variable name (letters, digits and _, not first a digit), found '"
              + name
              + "'"
              + (name != null && name.indexOf('=') >= 0
                  ? "; the value comes from the host, so give the name only"
                  : ""));
    }
    return Carry.envName(name);
  }

  /** {@code container.env-from-host}, Pyxis's list form {@code NAME[,NAME...]}. */
  public static List<String> envNameList(String text) {
    return commaList(text, "NAME[,NAME...]", "name", "NAME[,NAME...]", SettingRules::envName);
  }

  /** Pyxis's list form: items separated by commas, none of them empty. */
  private static <T> List<T> commaList(
      String text, String required, String item, String expected, Function<String, T> each) {
    if (text == null || text.isEmpty()) {
      throw new IllegalArgumentException("argument required: " + required);
    }
    List<T> out = new ArrayList<>();
    for (String part : text.split(",", -1)) {
      if (part.isEmpty()) {
        throw new IllegalArgumentException(
            "empty " + item + " in '" + text + "' (a ',' too many?); expected " + expected);
      }
      out.add(each.apply(part));
    }
    return out;
  }

  /** {@code workspace.path}: absolute, on the shared filesystem, mounted into the container. */
  public static String workspacePath(String path) {
    return absolute(path, "an absolute path on the shared filesystem", true);
  }

  /** {@code workspace.mount}: where the workspace appears in the container, not {@code /}. */
  public static String workspaceMount(String path) {
    String p = absolute(path, "an absolute path inside the container", true);
    Carry.path(p, true);
    if (p.replaceAll("/+$", "").isEmpty()) {
      throw new IllegalArgumentException(
          "'/' would hide the container's root filesystem; mount the workspace at e.g. /workspace");
    }
    return p;
  }

  /**
   * {@code workspace.image-cache-limit}: how much the workspace's image cache may hold ({@code
   * 500M}, {@code 50G}, {@code 1T}); 0 keeps only the images running jobs use.
   */
  public static ByteSize imageCacheLimit(String text) {
    return ByteSize.parse(text);
  }

  /** {@code mpi.np}. */
  public static int np(long n) {
    return range(n, 1, MAX_NP);
  }

  /** {@code mpi.per-node}. */
  public static int perNode(long n) {
    return range(n, 1, MAX_PER_NODE);
  }

  /**
   * {@code mpi.network}: {@code auto}, {@code none}, or a comma-separated list of IPv4 networks in
   * CIDR notation ({@code 10.0.0.0/24}) and interface names ({@code eth0}), as Open MPI's {@code
   * btl_tcp_if_include} takes them.
   */
  public static String network(String text) {
    if (text == null || text.isEmpty()) {
      throw new IllegalArgumentException(
          "argument required: auto, none, a network such as 10.0.0.0/24, or an interface name");
    }
    if (text.equals("auto") || text.equals("none")) {
      return text;
    }
    for (String part : text.split(",", -1)) {
      boolean cidr = part.contains("/") || part.matches("[0-9.]+");
      if (cidr ? !Networks.isCidr(part) : !IFACE.matcher(part).matches()) {
        throw new IllegalArgumentException(
            "'"
                + part
                + "' is neither an IPv4 network such as 10.0.0.0/24 nor an interface name; give"
                + " auto, none, or a comma-separated list of them");
      }
    }
    return text;
  }

  /** {@code ssh.user}. */
  public static String sshUser(String user) {
    if (user == null || !USER_NAME.matcher(user).matches()) {
      throw new IllegalArgumentException("'" + user + "' is not a valid user name");
    }
    return user;
  }

  /** {@code ssh.port}. */
  public static int sshPort(long port) {
    return range(port, 1, 65535);
  }

  /** {@code ssh.identity}: a key file, {@code ~} allowed. */
  public static String sshIdentity(String file) {
    if (file == null || file.isBlank()) {
      throw new IllegalArgumentException("expected a key file, found '" + file + "'");
    }
    return file;
  }

  /** {@code ssh.fanout}. */
  public static int fanout(long n) {
    return range(n, 1, MAX_FANOUT);
  }

  /**
   * A whole number in {@code [min, max]}.
   *
   * @throws IllegalArgumentException "expected a whole number of at least/most …, found N"
   */
  public static int range(long n, int min, int max) {
    if (n < min) {
      throw new IllegalArgumentException(
          "expected a whole number of at least " + min + ", found " + n);
    }
    if (n > max) {
      throw new IllegalArgumentException(
          "expected a whole number of at most " + max + ", found " + n);
    }
    return (int) n;
  }

  private static String absolute(String path, String what, boolean becomesAMount) {
    if (path == null || path.isEmpty()) {
      throw new IllegalArgumentException("argument required: " + what);
    }
    if (!path.startsWith("/")) {
      throw new IllegalArgumentException(
          "expected " + what + " (starting with '/'), found '" + path + "'");
    }
    for (int i = 0; i < path.length(); i++) {
      char c = path.charAt(i);
      if (Character.isWhitespace(c)) {
        throw new IllegalArgumentException(
            "'" + path + "' contains white space, which Open MPI's launch agent cannot carry");
      }
      if (becomesAMount && (c == ':' || c == ',')) {
        throw new IllegalArgumentException(
            "'"
                + path
                + "' contains '"
                + c
                + "', which enroot's --mount cannot carry (it separates "
                + (c == ':' ? "the fields of a mount" : "mount options")
                + ")");
      }
    }
    if (becomesAMount) {
      Carry.agentWord(path, "");
    }
    return Carry.path(path, false);
  }

  private static String suggestFile(String path) {
    return (path.endsWith("/") ? path : path + "/") + "container.sqsh";
  }
}
