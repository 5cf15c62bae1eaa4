package dev.clusterrun.core.enroot;

import dev.clusterrun.core.spec.ImageRef;
import dev.clusterrun.core.spec.Mount;
import java.util.ArrayList;
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
      env = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(env));
    }

    public List<String> words() {
      List<String> w = new ArrayList<>();
      if (writable) {
        w.add("--rw");
      }
      if (remapRoot) {
        w.add("--root");
      }
      for (Mount m : mounts) {
        w.add("--mount");
        w.add(mount(m));
      }
      env.forEach(
          (k, v) -> {
            w.add("--env");
            w.add(k + "=" + v);
          });
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
    for (String e : extraEnv) {
      w.add("--env");
      w.add(e);
    }
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

  /**
   * The file name clusterrun gives an imported image, after Pyxis's habit: the URI without its
   * scheme, with {@code / : # @} turned into {@code +}.
   */
  public static String squashfsName(ImageRef uri) {
    String v = uri.value();
    int s = v.indexOf("://");
    String rest = s >= 0 ? v.substring(s + 3) : v;
    return rest.replaceAll("[/:#@]", "+") + ".sqsh";
  }
}
