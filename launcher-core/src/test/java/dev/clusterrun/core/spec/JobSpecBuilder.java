package dev.clusterrun.core.spec;

import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * A job layer for tests, by name instead of by position: every field not set says nothing (null, or
 * the EMPTY part), as a layer that does not say. E.g. {@code
 * JobSpecBuilder.layer("j.yaml").name("j").image("/i.sqsh").workspace("/ws",
 * "/app").command("hostname").build()}.
 */
public final class JobSpecBuilder {
  private final String source;
  private String name;
  private ImageRef image;
  private String containerName;
  private final Parts parts = new Parts();
  private ContainerSpec container;
  private WorkspaceSpec workspace = WorkspaceSpec.EMPTY;
  private MpiSpec mpi = MpiSpec.EMPTY;
  private List<String> command;
  private SshSpec ssh = SshSpec.EMPTY;
  private LauncherKind launcher;

  private JobSpecBuilder(String source) {
    this.source = source;
  }

  /**
   * The tests' usual job, the layer of {@code j.yaml}: {@code j}, running {@code hostname}, the
   * workspace {@code workspace} mounted at {@code /app}; its image, name and the rest unsaid.
   */
  public static JobSpecBuilder hostnameJob(String workspace) {
    return layer("j.yaml").name("j").workspace(workspace, "/app").command("hostname");
  }

  /** A layer from {@code source} (a file name, "flags", "environment") that says nothing yet. */
  public static JobSpecBuilder layer(String source) {
    return new JobSpecBuilder(source);
  }

  /**
   * A container of only an image (an enroot URI or squashfs path; null: none) and a name (null:
   * none), nothing else said.
   */
  public static ContainerSpec container(String image, String name) {
    return ContainerSpec.of(image == null ? null : ImageRef.parse(image), name);
  }

  public JobSpecBuilder name(String name) {
    this.name = name;
    return this;
  }

  /** The container's image (null: none); with {@link #containerName} the whole container. */
  public JobSpecBuilder image(String image) {
    this.image = image == null ? null : ImageRef.parse(image);
    return this;
  }

  public JobSpecBuilder containerName(String containerName) {
    this.containerName = containerName;
    return this;
  }

  /** The container's other parts, by name: {@code .parts(c -> c.writable = true)}. */
  public JobSpecBuilder parts(Consumer<Parts> change) {
    change.accept(parts);
    return this;
  }

  /** What a layer's container says beside its image and name; null: it does not say. */
  public static final class Parts {
    public List<Mount> mounts;
    public String workdir;
    public Boolean writable;
    public Boolean mountHome;
    public Boolean remapRoot;
    public Map<String, String> env;
    public String save;
  }

  /** The whole container, in place of {@link #image} and {@link #containerName}. */
  public JobSpecBuilder container(ContainerSpec container) {
    this.container = container;
    return this;
  }

  public JobSpecBuilder workspace(String path, String mount) {
    this.workspace = new WorkspaceSpec(path, mount);
    return this;
  }

  public JobSpecBuilder workspace(WorkspaceSpec workspace) {
    this.workspace = workspace;
    return this;
  }

  public JobSpecBuilder mpi(MpiSpec mpi) {
    this.mpi = mpi;
    return this;
  }

  public JobSpecBuilder command(String... command) {
    this.command = List.of(command);
    return this;
  }

  public JobSpecBuilder launcher(LauncherKind launcher) {
    this.launcher = launcher;
    return this;
  }

  public JobSpec build() {
    ContainerSpec c = container;
    if (c == null) {
      Parts p = parts;
      c =
          new ContainerSpec(
              image,
              containerName,
              p.mounts,
              p.workdir,
              p.writable,
              p.mountHome,
              p.remapRoot,
              p.env,
              null,
              p.save,
              null);
    }
    return new JobSpec(name, c, workspace, mpi, command, ssh, source, launcher, null);
  }
}
