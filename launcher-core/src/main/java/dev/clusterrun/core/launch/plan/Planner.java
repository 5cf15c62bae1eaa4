package dev.clusterrun.core.launch.plan;

import dev.clusterrun.core.BadInputException;
import dev.clusterrun.core.cluster.Hostfile;
import dev.clusterrun.core.enroot.AgentJoin;
import dev.clusterrun.core.enroot.EnrootArgs;
import dev.clusterrun.core.enroot.EnrootArgs.ContainerFlags;
import dev.clusterrun.core.enroot.LaunchAgent;
import dev.clusterrun.core.image.ImageCache;
import dev.clusterrun.core.launch.head.HeadMark;
import dev.clusterrun.core.launch.job.JobResolver;
import dev.clusterrun.core.launch.job.Ranks;
import dev.clusterrun.core.launch.job.ResolvedJob;
import dev.clusterrun.core.launch.job.Source;
import dev.clusterrun.core.launch.proof.Canary;
import dev.clusterrun.core.launch.proof.DaemonProof;
import dev.clusterrun.core.mpi.MpiTuning;
import dev.clusterrun.core.mpi.MpirunArgs;
import dev.clusterrun.core.spec.ImageRef;
import dev.clusterrun.core.spec.LauncherKind;
import dev.clusterrun.core.spec.Mount;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/** Pure: (resolved job, hostfile, options) → {@link Plan}. Touches no node and no file. */
public final class Planner {
  private static final DateTimeFormatter RUN_TIME =
      DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").withZone(ZoneOffset.UTC);

  /** Where clusterrun puts the file that skips the image's entrypoint, in the run directory. */
  public static final String NO_ENTRYPOINT_FILE = "rc.local";

  /**
   * What enroot's {@code /etc/rc} (made by {@code enroot import} from the image's entrypoint)
   * sources before it runs the entrypoint: exec'ing the command from there skips the entrypoint, as
   * Pyxis does for {@code --no-container-entrypoint}.
   */
  public static final String NO_ENTRYPOINT_RC_LOCAL =
      "# clusterrun --no-container-entrypoint: run the command without the image's entrypoint\n"
          + "exec \"$@\"\n";

  private Planner() {}

  /** {@code 20261121-061500-<job>-<4 hex>}: sortable, unique enough for concurrent runs. */
  public static String newRunId(String jobName, Instant now, Random random) {
    return RUN_TIME.format(now)
        + "-"
        + jobName
        + "-"
        + String.format("%04x", random.nextInt(0x10000));
  }

  /**
   * What the plan would refuse in {@code job} (ranks against the slots, a mount over the workspace,
   * a launch agent too long), found without making the plan: {@code run} asks it before any node,
   * then makes its one plan from the nodes' facts.
   *
   * @throws BadInputException as {@link #plan} would, naming the same setting
   */
  public static void check(ResolvedJob job, Hostfile hostfile, PlanOptions options) {
    Ranks.check(job, hostfile);
    Paths paths = Paths.of(job, options.runId());
    ContainerFlags flags = flags(job, paths, new LinkedHashMap<>());
    if (job.launcher().value() != LauncherKind.PER_NODE) {
      AgentLength.check(
          job,
          LaunchAgent.string(
              agent(job, options, paths, flags, NodeContainers.agentContainer(job, options))));
    }
  }

  public static Plan plan(ResolvedJob job, Hostfile hostfile, PlanOptions options) {
    return plan(job, hostfile, options, null);
  }

  /**
   * The plan; with {@code --launcher=per-node}, each node's start.
   *
   * @param masterPort the per-node rendezvous port picked on the first node, null before
   */
  public static Plan plan(
      ResolvedJob job, Hostfile hostfile, PlanOptions options, Integer masterPort) {
    Ranks.check(job, hostfile);
    Paths paths = Paths.of(job, options.runId());
    Plan.Builder plan =
        Plan.builder()
            .jobName(job.name().value())
            .runId(options.runId())
            .runDir(paths.runDir())
            .nodes(hostfile.names())
            .nodesFrom(hostfile.origin())
            .np(job.np().value())
            .hostfilePath(paths.hostfile())
            .hostfileHostPath(paths.ws() + paths.hostfile().substring(paths.wsMount().length()))
            .hostfileContent(hostfile.render())
            .hook(options.hook())
            .placement(Canary.Placement.of(job, hostfile));
    String name = container(job, options, plan);
    ContainerFlags flags = settled(job, options, paths, name, plan);
    if (job.launcher().value() == LauncherKind.PER_NODE) {
      plan.launcher(LauncherKind.PER_NODE.word())
          .perNode(
              PerNodePlan.nodes(
                  hostfile,
                  options.runId(),
                  paths.runDir(),
                  new PerNodePlan.Start(
                      name,
                      flags,
                      job.mountHome().value(),
                      job.envFromHost().value(),
                      job.workdir().value(),
                      job.command().value(),
                      NodeContainers.agentContainer(job, options)),
                  masterPort));
    }
    return plan.build();
  }

  /**
   * {@code plan} ({@link #plan}'s for {@code job}) with the daemon, the network and mpirun's ssh
   * settled as {@code options} say, which differ from the plan's own in nothing else: the plan
   * {@link #plan} makes with {@code options}, its container, steps, paths, hostfile and placement
   * kept; the settings, the agent and the launch words made for them, as {@link
   * Plan#withMasterPort} puts per-node's port into its plan.
   */
  public static Plan settle(Plan plan, ResolvedJob job, PlanOptions options) {
    if (plan.isPerNode() || !plan.runId().equals(options.runId())) {
      throw new IllegalArgumentException("not a plan to settle: " + plan.runId());
    }
    Plan.Builder b = plan.toBuilder();
    settled(job, options, Paths.of(job, options.runId()), plan.containerName(), b);
    return b.build();
  }

  /** What the daemon, the network and mpirun's ssh decide: the settings, the agent, the launch. */
  private static ContainerFlags settled(
      ResolvedJob job, PlanOptions options, Paths paths, String name, Plan.Builder plan) {
    plan.daemon(options.daemon().command())
        .settings(SettingsTable.of(job, options, paths.perRunHostfile() ? paths.hostfile() : null));
    return launch(job, options, paths, name, plan);
  }

  /**
   * Where the run's files are.
   *
   * @param hostfile the hostfile mpirun reads (inside the container): by default in the run's own
   *     directory, so that two runs at once in one workspace, on different nodes, never read each
   *     other's
   */
  private record Paths(
      String ws, String wsMount, String runDir, String hostfile, boolean perRunHostfile) {
    static Paths of(ResolvedJob job, String runId) {
      String ws = NodeContainers.stripSlash(job.workspacePath().value());
      String wsMount = NodeContainers.stripSlash(job.workspaceMount().value());
      boolean perRun = job.hostfile().source() == Source.DEFAULT;
      String hostfile = perRun ? wsMount + "/runs/" + runId + "/hosts.txt" : job.hostfile().value();
      return new Paths(ws, wsMount, ws + "/runs/" + runId, hostfile, perRun);
    }
  }

  /**
   * The container: named (kept, reused like Pyxis's --container-name) or made for this run, and the
   * steps that make it (and save or remove it afterwards). Returns its name.
   */
  private static String container(ResolvedJob job, PlanOptions options, Plan.Builder plan) {
    boolean named = job.containerName().value() != null;
    String name = named ? job.containerName().value() : "clusterrun-" + options.runId();
    ImageRef image = job.image().value();
    List<Plan.Step> prepare = new ArrayList<>();
    List<Plan.Step> cleanup = new ArrayList<>();
    // An image nobody gave (a preset's default) only makes a missing named container; one the
    // user names is used as it is, as Pyxis does.
    boolean onlyIfMissing =
        named
            && image != null
            && job.image().source() == Source.DEFAULT
            && job.containerName().source() != Source.DEFAULT;
    if (image != null) {
      String sqsh = NodeContainers.squashfs(job);
      String createWhen =
          onlyIfMissing
              ? "only if container "
                  + name
                  + " is missing (no image was given: an existing "
                  + name
                  + " is used as it is)"
              : named
                  ? "if container " + name + " is missing, or was made from another image"
                  : "always (a container for this run only)";
      if (image.isUri()) {
        String digest = ImageCache.digestOf(image.value());
        prepare.add(
            new Plan.Step(
                Plan.Step.Action.IMPORT,
                digest != null
                    ? "import the image once per digest into the workspace's image cache"
                    : "import the image once into the shared workspace",
                EnrootArgs.importImage(image, sqsh),
                digest != null
                    ? "if the container must be made and the cache does not hold " + digest + " yet"
                    : "if the container must be made and "
                        + sqsh
                        + " does not hold this image yet"));
      }
      plan.squashfs(sqsh);
      if (NodeContainers.startsImage(job)) {
        // No container to make: every node starts the image itself (squashfuse and an overlay in
        // its own runtime path, enroot start IMAGE.sqsh), the route Pyxis takes with
        // use_squashfuse. Nothing is unpacked, nothing left to remove, no rootfs lock shared.
        name = NodeContainers.containerName(job, options);
        prepare.add(
            new Plan.Step(
                Plan.Step.Action.START_IMAGE,
                "start the image directly on every node (squashfuse and an overlay of its own)",
                List.of(),
                "always (no container is made for this run)"));
      } else {
        prepare.add(
            new Plan.Step(
                Plan.Step.Action.CREATE,
                "create the container in the shared data path",
                EnrootArgs.create(name, sqsh),
                createWhen));
      }
    } else {
      prepare.add(
          new Plan.Step(
              Plan.Step.Action.USE_EXISTING,
              "use the existing container " + name,
              List.of(),
              "it must exist on every node"));
    }
    if (named) {
      // Only the head starts the named container; the other nodes start its snapshot.
      prepare.add(NodeContainers.snapshotStep(name, NodeContainers.snapshot(job)));
    }
    if (job.save().value() != null) {
      cleanup.add(
          new Plan.Step(
              Plan.Step.Action.SAVE,
              "save the container",
              EnrootArgs.export(name, job.save().value()),
              "after the job"));
    }
    if (!named && !NodeContainers.startsImage(job)) {
      cleanup.add(
          new Plan.Step(
              Plan.Step.Action.REMOVE,
              "remove the run's container",
              EnrootArgs.remove(name),
              "after the job"));
    }
    plan.containerName(name)
        .namedContainer(named)
        .image(image == null ? null : image.value())
        .imageOnlyIfMissing(onlyIfMissing)
        .prepare(prepare)
        .cleanup(cleanup);
    return name;
  }

  /**
   * The flags every container of the job gets (on the head and through the agent), the agent, and
   * the head's {@code enroot start … mpirun …} for the job and for the canary.
   */
  private static ContainerFlags launch(
      ResolvedJob job, PlanOptions options, Paths paths, String name, Plan.Builder plan) {
    Map<String, String> runFiles = new LinkedHashMap<>();
    ContainerFlags flags = flags(job, paths, runFiles);

    // Mount-home only when the user or job says so (null: each node's enroot configuration).
    Boolean mountHome = job.mountHome().value();
    // Per-node starts no daemon: no agent, no proof, and none of the agent's limits.
    boolean perNode = job.launcher().value() == LauncherKind.PER_NODE;
    List<String> agent = List.of();
    String agentString = "";
    AgentJoin.Held held = null;
    if (!perNode) {
      // The proof the agent leaves before it starts the daemon: a script of the run, seen through
      // the workspace mount, that checks the run id and the job's mounts.
      List<String> targets = new ArrayList<>();
      for (Mount m : flags.mounts()) {
        if (m.kind() != Mount.Kind.UMOUNT) {
          targets.add(m.target());
        }
      }
      runFiles.put(
          paths.runDir() + "/" + DaemonProof.FILE, DaemonProof.script(options.runId(), targets));
      String container = NodeContainers.agentContainer(job, options);
      // Its first step on the node joins the container begun there during the checks, if any.
      held = AgentJoin.held(flags, mountHome, container);
      runFiles.put(paths.runDir() + "/" + AgentJoin.FILE, AgentJoin.script(held));
      agent = agent(job, options, paths, flags, container);
      agentString = LaunchAgent.string(agent);
      AgentLength.check(job, agentString);
    }

    List<String> forward = new ArrayList<>(job.mpiEnv().value());
    List<String> headEnvFlags = new ArrayList<>();
    for (String n : job.envFromHost().value()) {
      headEnvFlags.add(n);
      if (!forward.contains(n)) {
        forward.add(n);
      }
    }
    if (!options.hook()) {
      for (String v : LaunchAgent.MPI_VARIABLES) {
        headEnvFlags.add(v + "=" + agentString);
      }
    }
    MpiTuning.Additions tuning = PlanTuning.of(job, options);
    Map<String, String> mca = new LinkedHashMap<>(job.mca().value());
    mca.putAll(tuning.mca());
    forward.addAll(tuning.forward());
    headEnvFlags.addAll(tuning.env());
    if (!perNode) {
      // mpirun and the head's ranks carry the run id as every remote daemon does, and mpirun the
      // clusterrun it belongs to (HeadMark, from enroot start's environment): ps and stop find
      // them.
      headEnvFlags.add(LaunchAgent.RUN_ID_VAR + "=" + options.runId());
      headEnvFlags.add(HeadMark.VAR);
    }
    MpirunArgs mpirun =
        MpirunArgs.of(job.np().value(), paths.hostfile())
            .withPerNode(job.perNode().value())
            .withRanksIn(job.workdir().value(), job.remapRoot().value())
            .withSettings(mca, forward, PlanTuning.mpirunWords(job, options));
    // The job's input and its ranks' output (never the canary's, whose output clusterrun reads).
    List<String> io =
        new ArrayList<>(
            options
                .io()
                .mpirunWords(options.daemon(), paths.wsMount() + "/runs/" + options.runId()));
    io.addAll(PlanTuning.mpirunWords(job, options));
    MpirunArgs jobMpirun = mpirun.withSettings(mca, forward, io);
    List<String> canary =
        Canary.command(paths.wsMount() + "/runs/" + options.runId() + "/" + Canary.TOKEN_FILE);
    Map<String, String> launchEnv =
        new LinkedHashMap<>(LaunchAgent.enrootEnvironment(flags, mountHome));
    launchEnv.put(LaunchAgent.RUN_ID_VAR, options.runId());
    if (options.hook()) {
      launchEnv.put(LaunchAgent.ENV_VAR, agentString);
    }
    List<String> command = jobMpirun.words(job.command().value());
    List<String> launch = EnrootArgs.start(flags, headEnvFlags, name, command);
    plan.launch(launch)
        .launchCommandAt(launch.size() - command.size())
        .canaryLaunch(EnrootArgs.start(flags, headEnvFlags, name, mpirun.words(canary)))
        .launchEnv(launchEnv)
        .agent(agent)
        .agentString(agentString)
        .held(held)
        .runFiles(runFiles);
    return flags;
  }

  /** The flags every container of the job gets: its writability, root remapping, mounts, env. */
  private static ContainerFlags flags(ResolvedJob job, Paths paths, Map<String, String> runFiles) {
    return new ContainerFlags(
        job.writable().value(),
        job.remapRoot().value(),
        mounts(job, paths, runFiles),
        new LinkedHashMap<>(job.env().value()));
  }

  /**
   * The launch agent's words: the daemon started in container {@code name} on every node, or run in
   * the container begun there during the checks (its first step, the run's {@code agent-join.sh}).
   */
  private static List<String> agent(
      ResolvedJob job, PlanOptions options, Paths paths, ContainerFlags flags, String name) {
    return LaunchAgent.joining(
        LaunchAgent.words(
            flags,
            job.mountHome().value(),
            name,
            options.daemon(),
            options.runId(),
            paths.wsMount() + "/runs/" + options.runId() + "/" + DaemonProof.FILE),
        paths.runDir() + "/" + AgentJoin.FILE);
  }

  /** The workspace mount, the job's mounts, and the file that skips the entrypoint if asked. */
  private static List<Mount> mounts(ResolvedJob job, Paths paths, Map<String, String> runFiles) {
    List<Mount> mounts = new ArrayList<>();
    mounts.add(new Mount(Mount.Kind.BIND, paths.ws(), paths.wsMount(), List.of()));
    for (Mount m : job.mounts().value()) {
      if (m.target().equals(paths.wsMount())) {
        throw new BadInputException(
            JobResolver.subject(job.mounts(), "container.mounts"),
            "mount "
                + m
                + " hides the workspace mount "
                + paths.wsMount()
                + "; mount it elsewhere");
      }
      if (m.isRelative()) {
        throw new IllegalStateException("mount source not resolved: " + m);
      }
      mounts.add(m);
    }
    if (!job.entrypoint().value()) {
      String rcLocal = paths.runDir() + "/" + NO_ENTRYPOINT_FILE;
      runFiles.put(rcLocal, NO_ENTRYPOINT_RC_LOCAL);
      mounts.add(new Mount(Mount.Kind.BIND, rcLocal, "/etc/rc.local", List.of("ro")));
    }
    return mounts;
  }
}
