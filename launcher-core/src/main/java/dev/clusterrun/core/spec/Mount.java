package dev.clusterrun.core.spec;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A mount in Pyxis's notation {@code SRC[:DST[:FLAGS]]}, with Pyxis's meaning: a host path is
 * bind-mounted recursively and its mount point created when missing ({@code x-create=auto,rbind}),
 * {@code tmpfs} is a fresh tmpfs ({@code x-create=dir}), {@code umount} detaches what is mounted at
 * DST ({@code x-detach}); FLAGS are added to those options. A bare {@code SRC} is mounted at the
 * same path.
 *
 * <p>enroot's {@code --mount} takes colon-separated fstab fields {@code SRC:DST:TYPE:OPTIONS}
 * (enroot {@code src/runtime.sh}, {@code runtime::_do_mounts_fini}) and completes only {@code
 * SRC:DST} to {@code rbind,x-create=auto}: {@code SRC:DST:ro} would be a non-bind mount of type
 * none (enroot {@code bin/enroot-mount.c}, {@code mount_fstab}). {@code EnrootArgs.mount} therefore
 * spells the type and the options out whenever enroot would not complete them so.
 *
 * @param kind what is mounted
 * @param source the host path (absolute once {@link #resolve resolved}; {@code ./} or {@code ../}
 *     relative as given), or {@code tmpfs} / {@code umount}
 * @param target absolute path inside the container
 * @param flags the user's flags, validated, in order; empty when none
 */
public record Mount(Kind kind, String source, String target, List<String> flags) {
  public enum Kind {
    /** A host path, bind-mounted recursively. */
    BIND,
    /** A fresh tmpfs. */
    TMPFS,
    /** Detach whatever is mounted at the target (Pyxis's {@code umount} source). */
    UMOUNT
  }

  /**
   * Flags that have a meaning on any mount enroot-mount makes: per-mount options it re-applies with
   * a remount, propagation, and {@code nofail} (a failing mount is skipped).
   */
  static final List<String> COMMON_FLAGS =
      List.of(
          "ro",
          "rw",
          "nosuid",
          "suid",
          "nodev",
          "dev",
          "noexec",
          "exec",
          "noatime",
          "atime",
          "nodiratime",
          "diratime",
          "relatime",
          "norelatime",
          "strictatime",
          "nostrictatime",
          "private",
          "rprivate",
          "shared",
          "rshared",
          "slave",
          "rslave",
          "unbindable",
          "runbindable",
          "nofail");

  /** A host path: the common flags, and {@code bind}/{@code rbind} (already implied). */
  public static final List<String> BIND_FLAGS = concat(COMMON_FLAGS, List.of("rbind", "bind"));

  /** tmpfs: the common flags and tmpfs's own options with a value. */
  public static final List<String> TMPFS_FLAGS =
      concat(COMMON_FLAGS, List.of("size=N", "nr_inodes=N", "mode=OCTAL", "huge=WHEN"));

  /** umount: only {@code nofail} (nothing mounted there is then not an error). */
  public static final List<String> UMOUNT_FLAGS = List.of("nofail");

  private static final Pattern SIZE = Pattern.compile("[0-9]+[kKmMgG%]?");
  private static final Pattern INODES = Pattern.compile("[0-9]+[kKmMgG]?");
  private static final Pattern MODE = Pattern.compile("[0-7]{3,4}");
  private static final List<String> HUGE = List.of("never", "always", "within_size", "advise");

  public Mount {
    flags = List.copyOf(flags);
  }

  /**
   * Parses one mount {@code SRC[:DST[:FLAGS]]}; flags are separated by {@code +} (Pyxis's, because
   * {@code ,} separates mounts on the command line) or {@code ,}.
   *
   * @throws IllegalArgumentException with a message fit to follow a subject
   */
  public static Mount parse(String text) {
    if (text == null || text.isEmpty()) {
      throw new IllegalArgumentException("empty mount; expected SRC[:DST[:FLAGS]]");
    }
    String[] parts = text.split(":", -1);
    if (parts.length > 3) {
      throw new IllegalArgumentException(
          "mount '"
              + text
              + "' has "
              + parts.length
              + " ':'-separated fields; expected SRC[:DST[:FLAGS]] (a path cannot contain ':',"
              + " flags are joined with '+', e.g. ro+rprivate)");
    }
    String src = parts[0];
    if (src.isEmpty()) {
      throw new IllegalArgumentException(
          "mount '" + text + "' has no source; expected SRC[:DST[:FLAGS]]");
    }
    if (parts.length >= 2 && parts[1].isEmpty()) {
      throw new IllegalArgumentException(
          "mount '" + text + "' has an empty destination; expected SRC[:DST[:FLAGS]]");
    }
    if (parts.length == 3 && parts[2].isEmpty()) {
      throw new IllegalArgumentException(
          "mount '" + text + "' has no flags after the last ':'; remove it or give a flag");
    }
    List<String> flags = new ArrayList<>();
    if (parts.length == 3) {
      for (String f : parts[2].split("[+,]", -1)) {
        if (f.isEmpty()) {
          throw new IllegalArgumentException(
              "mount '" + text + "' has an empty flag in '" + parts[2] + "'");
        }
        flags.add(f);
      }
    }
    return of(src, parts.length >= 2 ? parts[1] : null, flags, text);
  }

  /**
   * A mount from its parts (the job file's map form); {@code target} null means the same path as
   * the source.
   *
   * @throws IllegalArgumentException with a message fit to follow a subject
   */
  public static Mount of(String source, String target, List<String> flags) {
    String shown = source + (target == null ? "" : ":" + target);
    if (!flags.isEmpty()) {
      shown += ":" + String.join("+", flags);
    }
    return of(source, target, flags, shown);
  }

  private static Mount of(String src, String dst, List<String> flags, String text) {
    Kind kind;
    if (src.equals("tmpfs")) {
      kind = Kind.TMPFS;
    } else if (src.equals("umount")) {
      kind = Kind.UMOUNT;
    } else if (src.startsWith("/") || isRelative(src)) {
      kind = Kind.BIND;
    } else {
      throw new IllegalArgumentException(
          "mount source '"
              + src
              + "' must be an absolute path, a path relative to the current directory starting"
              + " with ./ or ../ (e.g. ./"
              + src
              + "), tmpfs or umount");
    }
    checkPath("mount source", src, text);
    if (dst == null) {
      if (kind != Kind.BIND) {
        throw new IllegalArgumentException(
            "mount '" + text + "' needs a destination: " + src + ":/PATH");
      }
      if (!src.startsWith("/")) {
        throw new IllegalArgumentException(
            "mount '"
                + text
                + "' needs a destination: a bare source must be an absolute path (it is also"
                + " the destination); write "
                + src
                + ":/PATH");
      }
      dst = src;
    }
    if (!dst.startsWith("/")) {
      throw new IllegalArgumentException(
          "mount destination '"
              + dst
              + "' must be an absolute path inside the container (e.g. /"
              + dst.replaceFirst("^[./]+", "")
              + ")");
    }
    checkPath("mount destination", dst, text);
    for (String seg : dst.split("/")) {
      if (seg.equals("..")) {
        throw new IllegalArgumentException(
            "mount destination '" + dst + "' must not contain '..' (it would leave the container)");
      }
    }
    if (stripSlash(dst).equals("/")) {
      throw new IllegalArgumentException(
          "mount destination '/' would hide the container's root filesystem");
    }
    for (String f : flags) {
      checkFlag(kind, f, text);
    }
    return new Mount(kind, src, stripSlash(dst), flags);
  }

  private static boolean isRelative(String src) {
    return src.equals(".") || src.equals("..") || src.startsWith("./") || src.startsWith("../");
  }

  /**
   * White space (Open MPI splits the launch agent on it, and enroot refuses it in a mount), and the
   * separators of mounts and of enroot's fields.
   */
  private static void checkPath(String what, String path, String text) {
    for (int i = 0; i < path.length(); i++) {
      char c = path.charAt(i);
      if (Character.isWhitespace(c)) {
        throw new IllegalArgumentException(
            what
                + " '"
                + path
                + "' contains white space, which enroot's --mount and Open MPI's launch agent"
                + " cannot carry");
      }
      if (c == ',' || c == ':') {
        throw new IllegalArgumentException(
            what
                + " '"
                + path
                + "' contains '"
                + c
                + "', which separates "
                + (c == ',' ? "mounts" : "the fields of a mount")
                + " and cannot be part of a path");
      }
    }
    try {
      Carry.agentWord(path, "");
      Carry.path(path, false);
    } catch (IllegalArgumentException e) {
      String m = e.getMessage();
      throw new IllegalArgumentException(
          what + (m.startsWith("'") ? " " : " '" + YamlWords.clip(path) + "': ") + m, e);
    }
  }

  private static void checkFlag(Kind kind, String f, String text) {
    List<String> known =
        switch (kind) {
          case BIND -> BIND_FLAGS;
          case TMPFS -> TMPFS_FLAGS;
          case UMOUNT -> UMOUNT_FLAGS;
        };
    if (known.contains(f) || (kind == Kind.TMPFS && tmpfsOption(f))) {
      return;
    }
    String what =
        switch (kind) {
          case BIND -> "a host path";
          case TMPFS -> "tmpfs";
          case UMOUNT -> "umount";
        };
    throw new IllegalArgumentException(
        "mount '"
            + text
            + "': unknown flag '"
            + f
            + "'"
            + DidYouMean.suggest(f, known).map(k -> " (did you mean '" + k + "'?)").orElse("")
            + "; flags for "
            + what
            + ": "
            + String.join(", ", known));
  }

  private static boolean tmpfsOption(String f) {
    int eq = f.indexOf('=');
    if (eq < 0) {
      return false;
    }
    String k = f.substring(0, eq);
    String v = f.substring(eq + 1);
    return switch (k) {
      case "size" -> SIZE.matcher(v).matches();
      case "nr_inodes" -> INODES.matcher(v).matches();
      case "mode" -> MODE.matcher(v).matches();
      case "huge" -> HUGE.contains(v);
      default -> false;
    };
  }

  /** A relative source made absolute against {@code cwd}; any other mount as it is. */
  public Mount resolve(Path cwd) {
    if (kind != Kind.BIND || source.startsWith("/")) {
      return this;
    }
    String abs = cwd.resolve(source).normalize().toString();
    checkPath("mount source", abs, abs + ":" + target);
    return new Mount(kind, abs, target, flags);
  }

  public boolean isRelative() {
    return kind == Kind.BIND && !source.startsWith("/");
  }

  /** The fstab type enroot-mount gets: {@code tmpfs} for a tmpfs, {@code none} otherwise. */
  public String enrootType() {
    return kind == Kind.TMPFS ? "tmpfs" : "none";
  }

  /**
   * The options enroot-mount gets, as Pyxis writes them ({@code pyxis_slurmstepd.c}: {@code SRC DST
   * x-create=auto,rbind[,FLAGS]}; {@code tmpfs}: {@code x-create=dir}; {@code umount}: {@code
   * x-detach}).
   */
  public List<String> enrootOptions() {
    Set<String> o = new LinkedHashSet<>();
    switch (kind) {
      case BIND -> {
        o.add("x-create=auto");
        o.add("rbind");
      }
      case TMPFS -> o.add("x-create=dir");
      case UMOUNT -> o.add("x-detach");
    }
    for (String f : flags) {
      if (!(kind == Kind.BIND && (f.equals("rbind") || f.equals("bind")))) {
        o.add(f);
      }
    }
    return List.copyOf(o);
  }

  /** Pyxis's notation, flags joined with {@code +}. */
  @Override
  public String toString() {
    return source + ":" + target + (flags.isEmpty() ? "" : ":" + String.join("+", flags));
  }

  private static String stripSlash(String p) {
    String s = p;
    while (s.length() > 1 && s.endsWith("/")) {
      s = s.substring(0, s.length() - 1);
    }
    return s;
  }

  private static List<String> concat(List<String> a, List<String> b) {
    List<String> out = new ArrayList<>(a);
    out.addAll(b);
    return List.copyOf(out);
  }
}
