package dev.clusterrun.core.enroot;

import dev.clusterrun.core.Argv;
import dev.clusterrun.core.Ascii;
import dev.clusterrun.core.spec.ImageRef;
import dev.clusterrun.core.spec.Mount;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * enroot command lines as word lists (enroot's documented CLI: {@code import}, {@code create},
 * {@code start}, {@code export}, {@code remove}).
 */
public final class EnrootArgs {
  public static final String ENROOT = "enroot";

  private EnrootArgs() {}

  /**
   * The flags that shape a container's view of the world; the head's {@code enroot start} and the
   * launch agent get exactly these, so the two cannot drift.
   *
   * @param mounts in order: the workspace first, then the job's
   * @param env fixed variables ({@code --env K=V})
   */
  public record ContainerFlags(
      boolean writable, boolean remapRoot, List<Mount> mounts, Map<String, String> env) {
    public ContainerFlags {
      mounts = List.copyOf(mounts);
      env = Collections.unmodifiableMap(new LinkedHashMap<>(env));
    }

    public List<String> words() {
      List<String> w = new ArrayList<>();
      if (writable) {
        w.add("--rw");
      }
      if (remapRoot) {
        w.add("--root");
      }
      Argv.eachWith(w, "--mount", mounts.stream().map(EnrootArgs::mount).toList());
      Argv.eachWith(
          w, "--env", env.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).toList());
      return w;
    }
  }

  /**
   * enroot's {@code --mount} argument for a mount: colon-separated fstab fields (enroot {@code
   * src/runtime.sh}, {@code runtime::_do_mounts_fini}). A host path with Pyxis's options only is
   * {@code SRC:DST}, which enroot-mount completes to exactly those ({@code none
   * rbind,x-create=auto}); anything else spells out the type and the options, because enroot
   * completes nothing once a third field is there ({@code SRC:DST:ro} would be a non-bind mount of
   * type none): {@code SRC:DST:none:x-create=auto,rbind,ro}, {@code tmpfs:DST:tmpfs:x-create=dir},
   * {@code umount:DST:none:x-detach}.
   */
  public static String mount(Mount m) {
    List<String> options = m.enrootOptions();
    if (m.kind() == Mount.Kind.BIND && options.equals(List.of("x-create=auto", "rbind"))) {
      return m.source() + ":" + m.target();
    }
    return m.source() + ":" + m.target() + ":" + m.enrootType() + ":" + String.join(",", options);
  }

  /** {@code enroot start FLAGS [--env NAME]... NAME CMD...}. */
  public static List<String> start(
      ContainerFlags flags, List<String> extraEnv, String name, List<String> cmd) {
    List<String> w = new ArrayList<>(List.of(ENROOT, "start"));
    w.addAll(flags.words());
    Argv.eachWith(w, "--env", extraEnv);
    w.add(name);
    w.addAll(cmd);
    return w;
  }

  public static List<String> importImage(ImageRef uri, String output) {
    return List.of(ENROOT, "import", "--output", output, uri.value());
  }

  public static List<String> create(String name, String squashfs) {
    return List.of(ENROOT, "create", "--name", name, squashfs);
  }

  public static List<String> export(String name, String output) {
    return List.of(ENROOT, "export", "--output", output, name);
  }

  public static List<String> remove(String name) {
    return List.of(ENROOT, "remove", "--force", name);
  }

  /** Longest readable part of an image file name; the hash keeps the whole name unique. */
  static final int READABLE_MAX = 96;

  /**
   * The file name clusterrun gives an imported image: readable (the URI with its scheme, {@code / :
   * # @} as {@code +}) and unique, by a hash of the whole URI — {@code docker://img:1}, {@code
   * dockerd://img:1}, {@code podman://img:1} and {@code img#1} get four different files, e.g.
   * {@code docker+img+1-<16 hex>.sqsh}. The image record beside the file says exactly which URI it
   * holds.
   */
  public static String squashfsName(ImageRef uri) {
    String v = uri.value();
    StringBuilder readable = new StringBuilder();
    for (int i = 0; i < v.length() && readable.length() < READABLE_MAX; i++) {
      char c = v.charAt(i);
      if (v.startsWith("://", i)) {
        readable.append('+');
        i += 2;
      } else if (c == '/' || c == ':' || c == '#' || c == '@') {
        readable.append('+');
      } else if (Ascii.letterDigitOr(c, "._-+")) {
        readable.append(c);
      } else {
        readable.append('_');
      }
    }
    return readable + "-" + shortHash(v) + ".sqsh";
  }

  private static String shortHash(String text) {
    try {
      byte[] d = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(d, 0, 8);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
    }
  }
}
