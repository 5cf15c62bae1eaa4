package dev.clusterrun.core.launch.job;

import dev.clusterrun.core.image.ImagePin;
import dev.clusterrun.core.spec.ByteSize;
import dev.clusterrun.core.spec.ImageRef;
import dev.clusterrun.core.spec.LauncherKind;
import dev.clusterrun.core.spec.Mount;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A job with every layer merged (flag &gt; environment &gt; file &gt; default) and each value's
 * provenance kept, so {@code plan} can say where it came from.
 *
 * @param imageCacheLimit how much the workspace's image cache ({@code <workspace>/images}) may
 *     hold: least recently used images not in use are removed past it
 * @param time the wall-clock limit of the run ({@code --time}; zero: none)
 */
public record ResolvedJob(
    Setting<String> name,
    Setting<ImageRef> image,
    Setting<String> containerName,
    Setting<List<Mount>> mounts,
    Setting<String> workdir,
    Setting<Boolean> writable,
    Setting<Boolean> mountHome,
    Setting<Boolean> remapRoot,
    Setting<Map<String, String>> env,
    Setting<List<String>> envFromHost,
    Setting<String> save,
    Setting<Boolean> entrypoint,
    Setting<String> workspacePath,
    Setting<String> workspaceMount,
    Setting<Integer> np,
    Setting<Integer> perNode,
    Setting<Map<String, String>> mca,
    Setting<List<String>> mpiEnv,
    Setting<List<String>> mpiArgs,
    Setting<String> hostfile,
    Setting<List<String>> command,
    Setting<LauncherKind> launcher,
    ResolvedSsh ssh,
    Setting<String> network,
    Setting<Duration> nodeTimeout,
    Setting<ByteSize> imageCacheLimit,
    Setting<Duration> time) {

  /**
   * The pin of the job's registry image, or null: none for an image nobody gave (a preset's
   * default) beside a named container, which is used as it is (Pyxis's habit, the plan's "only if
   * missing"): the registry is not asked for it.
   */
  public ImagePin imagePin() {
    if (containerName.value() != null
        && image.source() == Source.DEFAULT
        && containerName.source() != Source.DEFAULT) {
      return null;
    }
    return ImagePin.of(image.value(), workspacePath.value());
  }

  /** This job with its registry image pinned to the digest the run uses. */
  public ResolvedJob pinnedTo(ImagePin.Pinned p) {
    return withImage(
        Setting.of(
            new ImageRef(ImageRef.Kind.URI, p.uri(), image.value().readAs()),
            image.source(),
            image.origin()));
  }

  /** This job with another image (e.g. its registry image pinned to the digest the run uses). */
  public ResolvedJob withImage(Setting<ImageRef> other) {
    return new ResolvedJob(
        name,
        other,
        containerName,
        mounts,
        workdir,
        writable,
        mountHome,
        remapRoot,
        env,
        envFromHost,
        save,
        entrypoint,
        workspacePath,
        workspaceMount,
        np,
        perNode,
        mca,
        mpiEnv,
        mpiArgs,
        hostfile,
        command,
        launcher,
        ssh,
        network,
        nodeTimeout,
        imageCacheLimit,
        time);
  }

  /** Every setting by its job-file key, in documentation order. */
  public Map<String, Setting<?>> byKey() {
    var m = new LinkedHashMap<String, Setting<?>>();
    m.put("name", name);
    m.put("launcher", launcher);
    if (time != null && !time.value().isZero()) {
      // Shown only when set: a run without a limit plans as it always did.
      m.put("time", time);
    }
    m.put("container.image", image);
    m.put("container.name", containerName);
    m.put("container.mounts", mounts);
    m.put("container.workdir", workdir);
    m.put("container.writable", writable);
    m.put("container.mount-home", mountHome);
    m.put("container.remap-root", remapRoot);
    m.put("container.env", env);
    m.put("container.env-from-host", envFromHost);
    m.put("container.save", save);
    m.put("container.entrypoint", entrypoint);
    m.put("workspace.path", workspacePath);
    m.put("workspace.mount", workspaceMount);
    m.put("workspace.image-cache-limit", imageCacheLimit);
    m.put("mpi.np", np);
    m.put("mpi.per-node", perNode);
    m.put("mpi.mca", mca);
    m.put("mpi.env", mpiEnv);
    m.put("mpi.args", mpiArgs);
    m.put("mpi.hostfile", hostfile);
    m.put("mpi.network", network);
    m.put("mpi.node-timeout", nodeTimeout);
    m.put("command", command);
    m.putAll(ssh.byKey());
    return m;
  }
}
