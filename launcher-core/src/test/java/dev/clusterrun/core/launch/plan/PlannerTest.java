package dev.clusterrun.core.launch.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.clusterrun.core.BadInputException;
import dev.clusterrun.core.cluster.Host;
import dev.clusterrun.core.cluster.Hostfile;
import dev.clusterrun.core.enroot.LaunchAgent;
import dev.clusterrun.core.launch.job.EnvironmentLayer;
import dev.clusterrun.core.launch.job.JobResolver;
import dev.clusterrun.core.launch.job.ResolvedJob;
import dev.clusterrun.core.launch.job.Setting;
import dev.clusterrun.core.launch.job.Source;
import dev.clusterrun.core.launch.run.RunSummary;
import dev.clusterrun.core.remote.ShellQuote;
import dev.clusterrun.core.spec.JobSpec;
import dev.clusterrun.core.spec.JobSpecBuilder;
import dev.clusterrun.core.spec.Mount;
import dev.clusterrun.core.spec.MpiSpec;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

public class PlannerTest {
  public static final Hostfile TWO_BY_EIGHT =
      new Hostfile(
          "hostfiles/2x8.txt",
          List.of(new Host("gpu01", 8, true, 0, 1), new Host("gpu02", 8, true, 0, 2)));

  /**
   * The plan of a job running {@code hostname} on {@link #TWO_BY_EIGHT} with {@code image} (null:
   * none) and container {@code name} (null: unnamed), its workspace {@code ws}.
   */
  /** The job of one file layer, {@code j.yaml}, on {@link #TWO_BY_EIGHT} for user a. */
  public static ResolvedJob resolved(JobSpec file) {
    return new JobResolver().layer(file, Source.FILE, "j.yaml").resolve(TWO_BY_EIGHT, "/home/a");
  }

  public static Plan planOf(java.nio.file.Path ws, String image, String name) {
    JobSpec f = JobSpecBuilder.hostnameJob(ws.toString()).image(image).containerName(name).build();
    ResolvedJob job = resolved(f);
    return Planner.plan(job, TWO_BY_EIGHT, new PlanOptions("RUN", LaunchAgent.Daemon.ORTED, true));
  }

  @Test
  void anImagePinnedByDigestIsImportedIntoTheCacheUnderItsDigest(@TempDir java.nio.file.Path ws) {
    String d = "sha256:" + "c".repeat(64);
    Plan byTag = planOf(ws, "docker://reg:5000#lab/mpi:1", null);
    Plan byDigest = planOf(ws, "docker://reg:5000#lab/mpi:1@" + d, null);
    assertThat(byDigest.squashfs()).isEqualTo(ws + "/images/sha256-" + "c".repeat(64) + ".sqsh");
    assertThat(byTag.squashfs()).isNotEqualTo(byDigest.squashfs());
    Plan.Step imp =
        byDigest.prepare().stream()
            .filter(s -> s.action() == Plan.Step.Action.IMPORT)
            .findFirst()
            .orElseThrow();
    assertThat(imp.argv()).contains("docker://reg:5000#lab/mpi:1@" + d);
    assertThat(imp.when()).contains(d);
  }

  /** Open MPI 4's keepalive for the default node timeout (30 s). */
  static final String KEEPALIVE =
      " --mca oob_tcp_keepalive_time 15 --mca oob_tcp_keepalive_intvl 7"
          + " --mca oob_tcp_keepalive_probes 4";

  static JobSpec seedFile() {
    return JobSpecBuilder.layer("examples/seed.yaml")
        .name("seed")
        .image("nvcr.io#nvidia/hpc-benchmarks:25.04")
        .containerName("hpc-benchmarks")
        .parts(c -> c.writable = true)
        .workspace("/shared/ws", "/app")
        .command("hostname")
        .build();
  }

  /** The seed example's launch line, up to its command: the container, then mpirun on 2x8. */
  static final String SEED_LAUNCH =
      "enroot start --rw --mount /shared/ws:/app --env CLUSTERRUN_RUN_ID=RUN --env CLUSTERRUN_HEAD"
          + " hpc-benchmarks mpirun -np 16 --hostfile /app/runs/RUN/hosts.txt --mca plm rsh --mca ras '^slurm,tm,lsf,gridengine,alps' ";

  /** A layer from {@code source} with the seed example's container and workspace. */
  static JobSpecBuilder seedLayer(String source) {
    return JobSpecBuilder.layer(source)
        .container(seedFile().container())
        .workspace(seedFile().workspace());
  }

  /**
   * The plan of {@code file} (from j.yaml) under the layer {@code flags} of the flag {@code flag}.
   */
  static Plan flagsOver(JobSpec flags, String flag, JobSpec file) {
    return plan(
        new JobResolver().layer(flags, Source.FLAG, flag).layer(file, Source.FILE, "j.yaml"), true);
  }

  static Plan plan(JobResolver r, boolean hook) {
    ResolvedJob job = r.resolve(TWO_BY_EIGHT, "/home/alice");
    return Planner.plan(job, TWO_BY_EIGHT, new PlanOptions("RUN", LaunchAgent.Daemon.ORTED, hook));
  }

  @Test
  void seedExampleGivesTheSeedCommand() {
    Plan p = plan(new JobResolver().layer(seedFile(), Source.FILE, "examples/seed.yaml"), true);
    assertThat(ShellQuote.join(p.launch())).isEqualTo(SEED_LAUNCH + "hostname");
    // The hostfile lives in the run's own directory: two runs at once never share it.
    assertThat(p.hostfileHostPath()).isEqualTo("/shared/ws/runs/RUN/hosts.txt");
    assertThat(p.hostfileHostPath()).startsWith(p.runDir() + "/");
    assertThat(p.hostfileContent()).isEqualTo("gpu01 slots=8\ngpu02 slots=8\n");
    assertThat(p.agentString())
        .isEqualTo(
            "env ENROOT_ROOTFS_WRITABLE=y ENROOT_REMAP_ROOT=n CLUSTERRUN_RUN_ID=RUN"
                + " /bin/sh /shared/ws/runs/RUN/agent-join.sh enroot start"
                + " --rw --mount /shared/ws:/app --env CLUSTERRUN_RUN_ID=RUN"
                + " /shared/ws/.clusterrun/containers/hpc-benchmarks.sqsh"
                + " /bin/sh /app/runs/RUN/agent-proof.sh orted");
    // What every other node's container is begun with during the checks: the agent's start,
    // without the run id; the run's join script knows their key and how many words it replaces.
    assertThat(ShellQuote.join(p.held().words()))
        .isEqualTo(
            "env ENROOT_ROOTFS_WRITABLE=y ENROOT_REMAP_ROOT=n enroot start --rw --mount"
                + " /shared/ws:/app /shared/ws/.clusterrun/containers/hpc-benchmarks.sqsh");
    assertThat(p.held().count()).isEqualTo(8);
    assertThat(p.runFiles().get("/shared/ws/runs/RUN/agent-join.sh"))
        .startsWith("set -- " + p.held().key() + " 8 \"$@\"\n");
    // The proof script is the run's own, written beside the hostfile, and checks the job's mounts.
    assertThat(p.runFiles().get("/shared/ws/runs/RUN/agent-proof.sh"))
        .startsWith("set -- RUN 1 /app \"$@\"\n")
        .endsWith("exec \"$@\"\n");
    assertThat(p.launchEnv()).containsEntry(LaunchAgent.ENV_VAR, p.agentString());
    assertThat(PlanRenderer.text(p))
        .contains(SEED_LAUNCH + "hostname\n")
        .contains("'docker://nvcr.io#nvidia/hpc-benchmarks:25.04'")
        .contains("mpi.np ")
        .contains("hostfile (hostfiles/2x8.txt: total slots)")
        .contains("\n# nodes from hostfiles/2x8.txt\n");
  }

  @Test
  void planAndItsJsonSayWhereTheNodesCameFrom() throws Exception {
    Hostfile slurm =
        new Hostfile(
            "SLURM_JOB_NODELIST",
            TWO_BY_EIGHT.hosts(),
            "SLURM_JOB_NODELIST (slots from SLURM_TASKS_PER_NODE)");
    ResolvedJob job =
        new JobResolver().layer(seedFile(), Source.FILE, "seed.yaml").resolve(slurm, "/home/alice");
    Plan p = Planner.plan(job, slurm, new PlanOptions("RUN", LaunchAgent.Daemon.ORTED, true));
    assertThat(PlanRenderer.text(p))
        .contains("\n# nodes from SLURM_JOB_NODELIST (slots from SLURM_TASKS_PER_NODE)\n");
    assertThat(new ObjectMapper().readTree(PlanRenderer.json(p)).path("nodesFrom").asText())
        .isEqualTo("SLURM_JOB_NODELIST (slots from SLURM_TASKS_PER_NODE)");
    assertThat(RunSummary.builder().plan(p).build().nodesFrom()).isEqualTo(p.nodesFrom());
  }

  @Test
  void aSettledNetworkAndTheNodeTimeoutReachMpirunAndPlanSaysWhere() {
    ResolvedJob job =
        new JobResolver()
            .layer(seedFile(), Source.FILE, "examples/seed.yaml")
            .resolve(TWO_BY_EIGHT, "/home/alice");
    NetworkPick pick =
        new NetworkPick(
            new dev.clusterrun.core.mpi.MpiTuning.Network("10.0.0.0/24", List.of("eth0"), true),
            "10.0.0.0/24",
            "default",
            "auto: the network the head reached every node on (eth0)",
            List.of());
    Plan p =
        Planner.plan(
            job,
            TWO_BY_EIGHT,
            new PlanOptions("RUN", LaunchAgent.Daemon.ORTED, true).withNetwork(pick));
    String launch = ShellQuote.join(p.launch());
    assertThat(launch)
        .contains(
            "mpirun -np 16 --hostfile /app/runs/RUN/hosts.txt --mca btl_tcp_if_include"
                + " 10.0.0.0/24 --mca oob_tcp_if_include 10.0.0.0/24"
                + KEEPALIVE
                + " -x NCCL_SOCKET_IFNAME==eth0 -x UCX_NET_DEVICES=eth0 --mca plm rsh --mca ras '^slurm,tm,lsf,gridengine,alps' hostname");
    // The canary goes the same way: it must not hang where the job would not.
    assertThat(ShellQuote.join(p.canaryLaunch())).contains("--mca btl_tcp_if_include 10.0.0.0/24");
    assertThat(PlanRenderer.text(p))
        .containsPattern("mpi.network +10.0.0.0/24 +default .*auto: the network the head reached")
        .containsPattern("mpi.node-timeout +30s +default .*keepalive to 15s \\+ 4 × 7s");

    // Open MPI 5: PRRTE's daemons read theirs from PRTE_MCA_* in the head's container.
    Plan five =
        Planner.plan(
            job,
            TWO_BY_EIGHT,
            new PlanOptions("RUN", LaunchAgent.Daemon.PRTED, true).withNetwork(pick));
    assertThat(ShellQuote.join(five.launch()))
        .contains("--env PRTE_MCA_oob_tcp_if_include=10.0.0.0/24")
        .contains("--env PRTE_MCA_prte_keepalive_time=15")
        .contains(
            " --prtemca plm ssh --prtemca ras '^slurm,pbs,tm,lsf,gridengine,alps,flux' hostname")
        .doesNotContain("--mca oob_tcp_if_include")
        .doesNotContain("--mca plm");
  }

  @Test
  void planShowsAutoUnchosenAndAnExplicitNetworkAtOnce() {
    Plan auto = plan(new JobResolver().layer(seedFile(), Source.FILE, "seed.yaml"), true);
    assertThat(ShellQuote.join(auto.launch())).doesNotContain("if_include");
    assertThat(PlanRenderer.text(auto))
        .containsPattern("mpi.network +auto +default \\(auto: run finds");
    JobSpec flags =
        JobSpecBuilder.layer("flags")
            .mpi(new MpiSpec(null, null, null, null, null, null, "ib0", null))
            .build();
    Plan p =
        plan(
            new JobResolver()
                .layer(flags, Source.FLAG, "flags")
                .layer(seedFile(), Source.FILE, "seed.yaml"),
            true);
    assertThat(ShellQuote.join(p.launch()))
        .contains("--mca btl_tcp_if_include ib0 --mca oob_tcp_if_include ib0")
        .contains("-x NCCL_SOCKET_IFNAME==ib0")
        .doesNotContain("UCX_NET_DEVICES");
    assertThat(PlanRenderer.text(p)).containsPattern("mpi.network +ib0 +flag \\(--network");
  }

  @Test
  void agentCarriesExactlyTheHeadContainerFlags() {
    JobSpec f =
        JobSpecBuilder.layer("j.yaml")
            .image("/images/x.sqsh")
            .containerName("x")
            .parts(
                c -> {
                  c.mounts = List.of(Mount.parse("/data:/data:ro+rprivate"));
                  c.workdir = "/app";
                  c.writable = false;
                  c.mountHome = false;
                  c.remapRoot = true;
                  c.env = Map.of("OMP_NUM_THREADS", "4");
                })
            .workspace("/ws", "/app")
            .command("a.out")
            .build();
    Plan p = plan(new JobResolver().layer(f, Source.FILE, "j.yaml"), true);
    List<String> launch = p.launch();
    int mpirun = launch.indexOf("mpirun");
    // The head's own container also carries the run id and its clusterrun (HeadMark).
    assertThat(launch.subList(mpirun - 5, mpirun - 1))
        .containsExactly("--env", "CLUSTERRUN_RUN_ID=RUN", "--env", "CLUSTERRUN_HEAD");
    List<String> headFlags = launch.subList(2, mpirun - 5);
    List<String> agentFlags = p.agent().subList(9, p.agent().size() - 6);
    assertThat(agentFlags).isEqualTo(headFlags);
    assertThat(p.agent().subList(p.agent().size() - 6, p.agent().size()))
        .containsExactly(
            "--env",
            "CLUSTERRUN_RUN_ID=RUN",
            "/ws/.clusterrun/containers/x.sqsh",
            "/bin/sh",
            "/app/runs/RUN/agent-proof.sh",
            "orted");
    assertThat(headFlags)
        .containsExactly(
            "--root",
            "--mount",
            "/ws:/app",
            "--mount",
            "/data:/data:none:x-create=auto,rbind,ro,rprivate",
            "--env",
            "OMP_NUM_THREADS=4");
    assertThat(p.agent())
        .startsWith(
            "env",
            "ENROOT_ROOTFS_WRITABLE=n",
            "ENROOT_REMAP_ROOT=y",
            "ENROOT_MOUNT_HOME=n",
            "CLUSTERRUN_RUN_ID=RUN",
            "/bin/sh",
            "/ws/runs/RUN/agent-join.sh",
            "enroot",
            "start")
        .endsWith(
            "/ws/.clusterrun/containers/x.sqsh",
            "/bin/sh",
            "/app/runs/RUN/agent-proof.sh",
            "orted");
    assertThat(launch).contains("--allow-run-as-root", "--wdir", "/app");
  }

  @Test
  void flagsBeatEnvironmentBeatFileBeatDefault() {
    JobSpec file = seedFile();
    JobSpec env =
        EnvironmentLayer.read(
            Map.of(
                "CLUSTERRUN_CONTAINER_NAME", "from-env", "CLUSTERRUN_CONTAINER_WORKDIR", "/env"));
    JobSpec flags = JobSpecBuilder.layer("flags").containerName("from-flag").build();
    ResolvedJob job =
        new JobResolver()
            .layer(flags, Source.FLAG, "--container-name")
            .layer(env, Source.ENVIRONMENT, "CLUSTERRUN_CONTAINER_*")
            .layer(file, Source.FILE, "seed.yaml")
            .resolve(TWO_BY_EIGHT, "/home/alice");
    assertThat(job.containerName())
        .isEqualTo(Setting.of("from-flag", Source.FLAG, "--container-name"));
    assertThat(job.workdir().value()).isEqualTo("/env");
    assertThat(job.workdir().source()).isEqualTo(Source.ENVIRONMENT);
    assertThat(job.writable().source()).isEqualTo(Source.FILE);
    assertThat(job.mountHome().value()).as("unless said, enroot's configuration decides").isNull();
    assertThat(job.mountHome().source()).isEqualTo(Source.DEFAULT);
    assertThat(job.np())
        .isEqualTo(Setting.of(16, Source.HOSTFILE, "hostfiles/2x8.txt: total slots"));
  }

  @Test
  void enrootSettingsArePassedExplicitlyAsPyxisDoesAndMountHomeOnlyWhenSaid() {
    // Nothing said: read-only and not remapped, both enforced against a site's configuration;
    // mount-home left to each node's enroot configuration.
    JobSpec f =
        JobSpecBuilder.layer("j.yaml")
            .image("/i.sqsh")
            .workspace("/ws", "/app")
            .command("a.out")
            .build();
    Plan p = plan(new JobResolver().layer(f, Source.FILE, "j.yaml"), true);
    assertThat(p.launchEnv())
        .containsEntry("ENROOT_ROOTFS_WRITABLE", "n")
        .containsEntry("ENROOT_REMAP_ROOT", "n")
        .doesNotContainKey("ENROOT_MOUNT_HOME");
    assertThat(p.agent())
        .startsWith(
            "env",
            "ENROOT_ROOTFS_WRITABLE=n",
            "ENROOT_REMAP_ROOT=n",
            "CLUSTERRUN_RUN_ID=RUN",
            "/bin/sh",
            "/ws/runs/RUN/agent-join.sh",
            "enroot",
            "start");
    assertThat(p.launch()).doesNotContain("--rw", "--root");
    assertThat(PlanRenderer.text(p))
        .contains("# environment of enroot start: ENROOT_ROOTFS_WRITABLE=n ENROOT_REMAP_ROOT=n ")
        .containsPattern("container.mount-home +\\(each node's enroot configuration\\) +default");

    // Said, by flags: writable, root, home; each both on the head and in the agent.
    JobSpec flags =
        JobSpecBuilder.layer("flags")
            .parts(
                c -> {
                  c.writable = true;
                  c.mountHome = true;
                  c.remapRoot = true;
                })
            .build();
    Plan on = flagsOver(flags, "--container-writable", f);
    assertThat(on.launchEnv())
        .containsEntry("ENROOT_ROOTFS_WRITABLE", "y")
        .containsEntry("ENROOT_REMAP_ROOT", "y")
        .containsEntry("ENROOT_MOUNT_HOME", "y");
    assertThat(on.agent())
        .startsWith(
            "env",
            "ENROOT_ROOTFS_WRITABLE=y",
            "ENROOT_REMAP_ROOT=y",
            "ENROOT_MOUNT_HOME=y",
            "CLUSTERRUN_RUN_ID=RUN",
            "/bin/sh",
            "/ws/runs/RUN/agent-join.sh",
            "enroot",
            "start",
            "--rw",
            "--root");
    JobSpec noHome = JobSpecBuilder.layer("flags").parts(c -> c.mountHome = false).build();
    Plan off = flagsOver(noHome, "--no-container-mount-home", f);
    assertThat(off.launchEnv()).containsEntry("ENROOT_MOUNT_HOME", "n");
    assertThat(off.agent()).contains("ENROOT_MOUNT_HOME=n");
  }

  @Test
  void theCanaryReadsThisRunsTokenAndKnowsWhereMpirunPlacesRanks() {
    Plan p = plan(new JobResolver().layer(seedFile(), Source.FILE, "seed.yaml"), true);
    assertThat(ShellQuote.join(p.canaryLaunch()))
        .startsWith(SEED_LAUNCH + "sh -c ")
        .contains("/app/runs/RUN/canary.token");
    assertThat(p.placement().placement("gpu01"))
        .containsExactly(java.util.Map.entry("gpu01", 8), java.util.Map.entry("gpu02", 8));
    assertThat(p.placement().unpredictable()).isNull();
  }

  @Test
  void mpirunKeepsItsSshLauncherWhateverCrossesIntoTheContainerUnlessTheJobChoosesOne() {
    // SLURM_JOBID crossing with --container-env would make Open MPI's Slurm launcher (priority 75)
    // start the daemons with srun, outside the containers: mpirun's own words choose ssh.
    JobResolver r = new JobResolver().layer(seedFile(), Source.FILE, "seed.yaml");
    r.environment(Map.of("CLUSTERRUN_CONTAINER_ENV", "SLURM_JOBID"));
    Plan p = plan(r, true);
    assertThat(ShellQuote.join(p.launch()))
        .contains("--env SLURM_JOBID ")
        .contains(
            "-x SLURM_JOBID --mca plm rsh --mca ras '^slurm,tm,lsf,gridengine,alps' hostname");
    assertThat(ShellQuote.join(p.canaryLaunch()))
        .contains(" --mca plm rsh --mca ras '^slurm,tm,lsf,gridengine,alps' sh -c ");
    assertThat(PlanRenderer.text(p))
        .contains("--mca plm rsh --mca ras '^slurm,tm,lsf,gridengine,alps' hostname\n");
    // A job that names the launcher itself keeps its own.
    JobSpec own =
        seedLayer("own.yaml")
            .mpi(new MpiSpec(null, null, Map.of("plm", "rsh"), null, null, null))
            .command("hostname")
            .build();
    Plan mine = plan(new JobResolver().layer(own, Source.FILE, "own.yaml"), true);
    assertThat(ShellQuote.join(mine.launch()))
        .containsOnlyOnce("plm")
        .contains("--mca plm rsh --mca ras '^slurm,tm,lsf,gridengine,alps'");
  }

  @Test
  void noHookPassesTheAgentWithEnrootEnv() {
    Plan p = plan(new JobResolver().layer(seedFile(), Source.FILE, "seed.yaml"), false);
    assertThat(p.launchEnv()).doesNotContainKey(LaunchAgent.ENV_VAR);
    assertThat(p.launch())
        .contains(
            "OMPI_MCA_orte_launch_agent=" + p.agentString(),
            "PRTE_MCA_prte_launch_agent=" + p.agentString());
  }

  @Test
  void anUnnamedJobStartsItsImageDirectlyUnlessItSavesTheContainer() {
    JobSpec f =
        JobSpecBuilder.layer("h.yaml")
            .name("hello")
            .image("ubuntu:24.04")
            .workspace("/ws", null)
            .command("hostname")
            .build();
    Plan p = plan(new JobResolver().layer(f, Source.FILE, "h.yaml"), true);
    String sqsh = p.prepare().get(0).argv().get(3);
    assertThat(sqsh).matches("/ws/images/docker\\+ubuntu\\+24\\.04-[0-9a-f]{16}\\.sqsh");
    assertThat(p.prepare().get(0).argv())
        .containsExactly("enroot", "import", "--output", sqsh, "docker://ubuntu:24.04");
    // Imported once, then started directly on every node: no container made, none to remove.
    assertThat(p.containerName()).isEqualTo(sqsh);
    assertThat(p.prepare().get(1).action()).isEqualTo(Plan.Step.Action.START_IMAGE);
    assertThat(p.cleanup()).isEmpty();
    // The agent names the image, never ${ENROOT_ROOTFS##*/} (then the overlay's name).
    assertThat(p.agent()).containsSubsequence(sqsh, "/bin/sh", "orted");
    assertThat(p.launch()).containsSubsequence("enroot", "start", sqsh, "mpirun");

    // Saving the container afterwards needs one: then it is made for the run and removed after.
    JobSpec saved =
        JobSpecBuilder.layer("h.yaml")
            .name("hello")
            .image("ubuntu:24.04")
            .parts(c -> c.save = "/ws/out.sqsh")
            .workspace("/ws", null)
            .command("hostname")
            .build();
    Plan q = plan(new JobResolver().layer(saved, Source.FILE, "h.yaml"), true);
    assertThat(q.containerName()).isEqualTo("clusterrun-RUN");
    assertThat(q.prepare().get(1).argv())
        .containsExactly("enroot", "create", "--name", "clusterrun-RUN", sqsh);
    assertThat(q.cleanup().get(1).argv())
        .containsExactly("enroot", "remove", "--force", "clusterrun-RUN");
    assertThat(p.hostfilePath()).isEqualTo("/workspace/runs/RUN/hosts.txt");
  }

  @Test
  void aHostfileTheJobNamesIsUsedAsGiven() {
    JobSpec named =
        seedLayer("h.yaml")
            .mpi(new MpiSpec(null, null, null, null, null, "/app/hosts.txt"))
            .command("hostname")
            .build();
    Plan p = plan(new JobResolver().layer(named, Source.FILE, "h.yaml"), true);
    assertThat(p.hostfilePath()).isEqualTo("/app/hosts.txt");
    assertThat(p.hostfileHostPath()).isEqualTo("/shared/ws/hosts.txt");
    assertThat(ShellQuote.join(p.launch()))
        .contains(
            "--hostfile /app/hosts.txt --mca plm rsh --mca ras '^slurm,tm,lsf,gridengine,alps' hostname");
  }

  @Test
  void secretsAreMaskedInTextAndJson() throws Exception {
    Map<String, String> env = new LinkedHashMap<>();
    env.put("WANDB_API_KEY", "s3cr3t-value");
    env.put("MODE", "fast");
    JobSpec f =
        JobSpecBuilder.layer("s.yaml")
            .image("/i.sqsh")
            .containerName("c")
            .parts(c -> c.env = env)
            .workspace("/ws", "/app")
            .mpi(new MpiSpec(null, null, null, List.of("HF_TOKEN=abc123"), null, null))
            .command("x")
            .build();
    Plan p = plan(new JobResolver().layer(f, Source.FILE, "s.yaml"), true);
    String text = PlanRenderer.text(p);
    String json = PlanRenderer.json(p);
    assertThat(text)
        .doesNotContain("s3cr3t-value")
        .doesNotContain("abc123")
        .contains("WANDB_API_KEY=***", "MODE=fast");
    assertThat(json).doesNotContain("s3cr3t-value").doesNotContain("abc123");
    JsonNode n = new ObjectMapper().readTree(json);
    assertThat(n.path("np").asInt()).isEqualTo(16);
    assertThat(n.path("launchAgent").path("daemon").asText()).isEqualTo("orted");
    assertThat(n.path("settings").isArray()).isTrue();
  }

  @Test
  void badCombinationsAreNamed() {
    JobSpec tooMany =
        seedLayer("t.yaml").mpi(new MpiSpec(17, null, null, null, null, null)).command("x").build();
    assertThatThrownBy(() -> plan(new JobResolver().layer(tooMany, Source.FILE, "t.yaml"), true))
        .isInstanceOf(BadInputException.class)
        .hasMessage(
            "t.yaml: mpi.np: 17 ranks but hostfiles/2x8.txt has only 16 slots; raise slots= in"
                + " the hostfile or lower np (or allow oversubscription: --oversubscribe in"
                + " mpi.args)");

    JobSpec outside =
        seedLayer("o.yaml")
            .mpi(new MpiSpec(null, null, null, null, null, "/tmp/h"))
            .command("x")
            .build();
    assertThatThrownBy(() -> plan(new JobResolver().layer(outside, Source.FILE, "o.yaml"), true))
        .isInstanceOf(BadInputException.class)
        .hasMessageContaining(
            "o.yaml: mpi.hostfile: '/tmp/h' must lie inside the workspace mount /app");

    JobSpec noCommand = seedLayer("n.yaml").build();
    assertThatThrownBy(() -> plan(new JobResolver().layer(noCommand, Source.FILE, "n.yaml"), true))
        .hasMessageStartingWith("command: no command to run");

    JobSpec hidesWs =
        JobSpecBuilder.layer("h.yaml")
            .image("/i.sqsh")
            .containerName("c")
            .parts(c -> c.mounts = List.of(Mount.parse("/x:/app")))
            .workspace(seedFile().workspace())
            .command("x")
            .build();
    assertThatThrownBy(() -> plan(new JobResolver().layer(hidesWs, Source.FILE, "h.yaml"), true))
        .hasMessageContaining("hides the workspace mount /app");
  }

  @Test
  void environmentLayerNamesTheVariable() {
    assertThatThrownBy(() -> EnvironmentLayer.read(Map.of("CLUSTERRUN_CONTAINER_MOUNTS", "/a:")))
        .hasMessage(
            "CLUSTERRUN_CONTAINER_MOUNTS: mount '/a:' has an empty destination; expected"
                + " SRC[:DST[:FLAGS]]");
    assertThatThrownBy(
            () -> EnvironmentLayer.read(Map.of("CLUSTERRUN_CONTAINER_WRITABLE", "maybe")))
        .hasMessage(
            "CLUSTERRUN_CONTAINER_WRITABLE: 'maybe' is not a boolean; use 1 or 0 (also"
                + " true/false, yes/no, on/off)");
    assertThatThrownBy(
            () ->
                EnvironmentLayer.read(
                    Map.of(
                        "CLUSTERRUN_CONTAINER_WRITABLE",
                        "1",
                        "CLUSTERRUN_CONTAINER_READONLY",
                        "1")))
        .hasMessageContaining("contradict");
    assertThatThrownBy(() -> EnvironmentLayer.read(Map.of("CLUSTERRUN_CONTAINER_NAME", "a/b")))
        .hasMessageStartingWith("CLUSTERRUN_CONTAINER_NAME: container name 'a/b' contains '/'");
    assertThat(
            EnvironmentLayer.read(Map.of("CLUSTERRUN_CONTAINER_READONLY", "0"))
                .container()
                .writable())
        .isTrue();
  }

  @Test
  void agentRefusesWhiteSpace() {
    JobSpec f =
        JobSpecBuilder.layer("w.yaml")
            .image("/i.sqsh")
            .containerName("c")
            .parts(c -> c.env = Map.of("A", "two words"))
            .workspace("/ws", "/app")
            .command("x")
            .build();
    assertThatThrownBy(() -> plan(new JobResolver().layer(f, Source.FILE, "w.yaml"), true))
        .isInstanceOf(BadInputException.class)
        .hasMessageContaining("launch agent: the word 'A=two words' holds white space");
  }
}
