package dev.clusterrun.core.launch.plan;

import dev.clusterrun.core.enroot.AgentJoin;
import dev.clusterrun.core.launch.proof.Canary;
import java.util.List;
import java.util.Map;

/**
 * Everything a run will execute, computed without touching a node. {@code plan} prints it and
 * {@code run} executes it.
 *
 * @param runId unique id of the run (time and job name), also the run directory's name
 * @param runDir the run directory on the shared filesystem (host path)
 * @param nodes host names in hostfile order
 * @param nodesFrom where the nodes came from: the hostfile, {@code --nodes LIST}, or a scheduler's
 *     allocation such as {@code SLURM_JOB_NODELIST (slots from SLURM_TASKS_PER_NODE)}
 * @param containerName the container the job runs in (generated when the job names none)
 * @param namedContainer whether it is kept after the job (Pyxis's named containers)
 * @param squashfs the squashfs file the container is made from (an image imported into the
 *     workspace, or the file given), or null when no image is given
 * @param prepare steps run once on the head before the job, each with its condition
 * @param hostfilePath the hostfile mpirun reads, path inside the container
 * @param hostfileHostPath the same file on the shared filesystem
 * @param hostfileContent what clusterrun writes there
 * @param launch the head's {@code enroot start ... NAME mpirun ...} words
 * @param launchCommandAt where in {@code launch} the command the container runs begins (the words
 *     before it start the container: see {@code mpirun.EarlyStart})
 * @param canaryLaunch the same, with the canary's command in place of the job's
 * @param launchEnv environment added to the head's {@code enroot start} process
 * @param agent the launch agent words; {@code agentString} the shell string Open MPI gets
 * @param held what each other node's container is begun with during the checks, for the agent to
 *     join ({@link AgentJoin}); null when no daemon starts through the agent
 * @param cleanup steps run on the head after the job
 * @param settings every setting with its source
 * @param runFiles files clusterrun writes before any container starts (host path on the shared
 *     filesystem → content), e.g. the {@code /etc/rc.local} that skips the image's entrypoint
 * @param imageOnlyIfMissing the image was not given explicitly (a preset's default): it only makes
 *     a missing named container, and an existing one is used as it is, as Pyxis does
 * @param containerHolds what the named container holds as far as the head knows (its image record),
 *     for people; null when not looked up (see {@code container.ContainerPreparer#lookUp})
 * @param imageNote what the registry image's tag stood for when planned (its digest, or why it
 *     could not be asked), for people; null when the job has no registry image or no one asked
 * @param placement how many ranks mpirun places on each node, for the canary
 * @param launcher {@code mpirun} or {@code per-node}
 * @param perNode with {@code per-node}: what starts on each node, in hostfile order (else empty)
 */
public record Plan(
    String jobName,
    String runId,
    String runDir,
    List<String> nodes,
    String nodesFrom,
    int np,
    String containerName,
    boolean namedContainer,
    String image,
    String squashfs,
    List<Step> prepare,
    String hostfilePath,
    String hostfileHostPath,
    String hostfileContent,
    List<String> launch,
    int launchCommandAt,
    List<String> canaryLaunch,
    Map<String, String> launchEnv,
    List<String> agent,
    String agentString,
    AgentJoin.Held held,
    String daemon,
    boolean hook,
    List<Step> cleanup,
    List<SettingView> settings,
    Map<String, String> runFiles,
    boolean imageOnlyIfMissing,
    String containerHolds,
    String imageNote,
    Canary.Placement placement,
    String launcher,
    List<PerNodePlan.NodeStart> perNode) {

  /** Whether the command starts once on every node ({@code --launcher=per-node}). */
  public boolean isPerNode() {
    return !perNode.isEmpty();
  }

  /** The same plan, saying what the named container holds. */
  public Plan withContainerHolds(String holds) {
    return toBuilder().containerHolds(holds).build();
  }

  /**
   * The same plan with per-node's rendezvous port, picked on the first node at launch, in every
   * node's start (where the plan showed {@link PerNodePlan#PORT_AT_LAUNCH}).
   */
  public Plan withMasterPort(int port) {
    return toBuilder().perNode(perNode.stream().map(n -> n.withPort(port)).toList()).build();
  }

  /** The same plan, saying what the registry image's tag stood for. */
  public Plan withImageNote(String note) {
    return toBuilder().imageNote(note).build();
  }

  public static Builder builder() {
    return new Builder();
  }

  /** A builder holding this plan's values. */
  public Builder toBuilder() {
    Builder b = new Builder();
    b.jobName = jobName;
    b.runId = runId;
    b.runDir = runDir;
    b.nodes = nodes;
    b.nodesFrom = nodesFrom;
    b.np = np;
    b.containerName = containerName;
    b.namedContainer = namedContainer;
    b.image = image;
    b.squashfs = squashfs;
    b.prepare = prepare;
    b.hostfilePath = hostfilePath;
    b.hostfileHostPath = hostfileHostPath;
    b.hostfileContent = hostfileContent;
    b.launch = launch;
    b.launchCommandAt = launchCommandAt;
    b.canaryLaunch = canaryLaunch;
    b.launchEnv = launchEnv;
    b.agent = agent;
    b.agentString = agentString;
    b.held = held;
    b.daemon = daemon;
    b.hook = hook;
    b.cleanup = cleanup;
    b.settings = settings;
    b.runFiles = runFiles;
    b.imageOnlyIfMissing = imageOnlyIfMissing;
    b.containerHolds = containerHolds;
    b.imageNote = imageNote;
    b.placement = placement;
    b.launcher = launcher;
    b.perNode = perNode;
    return b;
  }

  /** Builds a plan value by value; {@link Planner} is the one that does. */
  public static final class Builder {
    private String jobName;
    private String runId;
    private String runDir;
    private List<String> nodes;
    private String nodesFrom;
    private int np;
    private String containerName;
    private boolean namedContainer;
    private String image;
    private String squashfs;
    private List<Step> prepare;
    private String hostfilePath;
    private String hostfileHostPath;
    private String hostfileContent;
    private List<String> launch;
    private int launchCommandAt;
    private List<String> canaryLaunch;
    private Map<String, String> launchEnv;
    private List<String> agent;
    private String agentString;
    private AgentJoin.Held held;
    private String daemon;
    private boolean hook;
    private List<Step> cleanup;
    private List<SettingView> settings;
    private Map<String, String> runFiles;
    private boolean imageOnlyIfMissing;
    private String containerHolds;
    private String imageNote;
    private Canary.Placement placement;
    private String launcher = "mpirun";
    private List<PerNodePlan.NodeStart> perNode = List.of();

    private Builder() {}

    public Builder launcher(String v) {
      launcher = v;
      return this;
    }

    public Builder perNode(List<PerNodePlan.NodeStart> v) {
      perNode = v;
      return this;
    }

    public Builder jobName(String v) {
      jobName = v;
      return this;
    }

    public Builder runId(String v) {
      runId = v;
      return this;
    }

    public Builder runDir(String v) {
      runDir = v;
      return this;
    }

    public Builder nodes(List<String> v) {
      nodes = v;
      return this;
    }

    public Builder nodesFrom(String v) {
      nodesFrom = v;
      return this;
    }

    public Builder np(int v) {
      np = v;
      return this;
    }

    public Builder containerName(String v) {
      containerName = v;
      return this;
    }

    public Builder namedContainer(boolean v) {
      namedContainer = v;
      return this;
    }

    public Builder image(String v) {
      image = v;
      return this;
    }

    public Builder squashfs(String v) {
      squashfs = v;
      return this;
    }

    public Builder prepare(List<Step> v) {
      prepare = v;
      return this;
    }

    public Builder hostfilePath(String v) {
      hostfilePath = v;
      return this;
    }

    public Builder hostfileHostPath(String v) {
      hostfileHostPath = v;
      return this;
    }

    public Builder hostfileContent(String v) {
      hostfileContent = v;
      return this;
    }

    public Builder launch(List<String> v) {
      launch = v;
      return this;
    }

    public Builder launchCommandAt(int v) {
      launchCommandAt = v;
      return this;
    }

    public Builder canaryLaunch(List<String> v) {
      canaryLaunch = v;
      return this;
    }

    public Builder launchEnv(Map<String, String> v) {
      launchEnv = v;
      return this;
    }

    public Builder agent(List<String> v) {
      agent = v;
      return this;
    }

    public Builder agentString(String v) {
      agentString = v;
      return this;
    }

    public Builder held(AgentJoin.Held v) {
      held = v;
      return this;
    }

    public Builder daemon(String v) {
      daemon = v;
      return this;
    }

    public Builder hook(boolean v) {
      hook = v;
      return this;
    }

    public Builder cleanup(List<Step> v) {
      cleanup = v;
      return this;
    }

    public Builder settings(List<SettingView> v) {
      settings = v;
      return this;
    }

    public Builder runFiles(Map<String, String> v) {
      runFiles = v;
      return this;
    }

    public Builder imageOnlyIfMissing(boolean v) {
      imageOnlyIfMissing = v;
      return this;
    }

    public Builder containerHolds(String v) {
      containerHolds = v;
      return this;
    }

    public Builder imageNote(String v) {
      imageNote = v;
      return this;
    }

    public Builder placement(Canary.Placement v) {
      placement = v;
      return this;
    }

    public Plan build() {
      return new Plan(
          jobName,
          runId,
          runDir,
          nodes,
          nodesFrom,
          np,
          containerName,
          namedContainer,
          image,
          squashfs,
          prepare,
          hostfilePath,
          hostfileHostPath,
          hostfileContent,
          launch,
          launchCommandAt,
          canaryLaunch,
          launchEnv,
          agent,
          agentString,
          held,
          daemon,
          hook,
          cleanup,
          settings,
          runFiles,
          imageOnlyIfMissing,
          containerHolds,
          imageNote,
          placement,
          launcher,
          perNode);
    }
  }

  /**
   * A command to run on the head.
   *
   * @param action what kind of step it is, so no one reads it back from the words
   * @param when the condition under which it runs, in words ("always", "if the container is missing
   *     or was made from another image")
   */
  public record Step(Action action, String what, List<String> argv, String when) {
    /** Whether this is the save ({@code enroot export --output PATH NAME}). */
    public boolean isSave() {
      return action == Action.SAVE;
    }

    /** The kinds of steps around a job. */
    public enum Action {
      /** {@code enroot import} of the image into the shared workspace ({@link #squashfs}). */
      IMPORT,
      /** {@code enroot create} of the container from {@link #squashfs}. */
      CREATE,
      /**
       * No command: the image ({@link #squashfs}) is started directly on every node ({@code enroot
       * start IMAGE.sqsh}); no container is made or removed.
       */
      START_IMAGE,
      /** No command: the container given by name must exist. */
      USE_EXISTING,
      /**
       * {@code enroot export} of the named container to its snapshot in the workspace ({@link
       * NodeContainers#snapshotOf}), which every node but the head starts directly: only the head
       * takes the named container's rootfs lock (docs/scale.md).
       */
      SNAPSHOT,
      /** {@code enroot export} of the container after the job. */
      SAVE,
      /** {@code enroot remove} of the run's container after the job. */
      REMOVE
    }
  }

  /** A setting for display: its key, its value as text (secrets masked), and its source. */
  public record SettingView(String key, String value, String source, String origin) {}
}
