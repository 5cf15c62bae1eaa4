package dev.clusterrun.core.spec;

import java.util.List;
import java.util.Map;

/**
 * The container, with Pyxis's names and meanings.
 *
 * @param image {@code --container-image}: enroot URI or squashfs path
 * @param name {@code --container-name}: a named container is kept and reused
 * @param mounts {@code --container-mounts}
 * @param workdir {@code --container-workdir}
 * @param writable {@code --container-writable} (true) / {@code --container-readonly} (false)
 * @param mountHome {@code --container-mount-home} / {@code --no-container-mount-home}
 * @param remapRoot {@code --container-remap-root} / {@code --no-container-remap-root}
 * @param env fixed variables set in the container ({@code enroot start --env K=V})
 * @param envFromHost {@code --container-env}: names whose host value overrides the image's
 * @param save {@code --container-save}: squashfs file the container is saved to after the job
 * @param entrypoint {@code --container-entrypoint} (true) / {@code --no-container-entrypoint}
 *     (false): whether the image's entrypoint runs; null follows enroot (it runs)
 */
public record ContainerSpec(
    ImageRef image,
    String name,
    List<Mount> mounts,
    String workdir,
    Boolean writable,
    Boolean mountHome,
    Boolean remapRoot,
    Map<String, String> env,
    List<String> envFromHost,
    String save,
    Boolean entrypoint) {
  public static final ContainerSpec EMPTY =
      new ContainerSpec(null, null, null, null, null, null, null, null, null, null, null);

  /** A container of an image (null: none) and a name (null: none), nothing else said. */
  public static ContainerSpec of(ImageRef image, String name) {
    return new ContainerSpec(image, name, null, null, null, null, null, null, null, null, null);
  }
}
