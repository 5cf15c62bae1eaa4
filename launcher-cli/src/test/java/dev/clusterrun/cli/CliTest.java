package dev.clusterrun.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The CLI as a user meets it: exit codes, stdout for data, stderr for people. */
class CliTest {
  static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

  record Run(int code, String out, String err) {
    /** The JSON the run printed, once it is held to have ended with 0 (its stderr shown if not). */
    JsonNode okJson() throws IOException {
      assertThat(code).as(err).isZero();
      return new ObjectMapper().readTree(out);
    }
  }

  static Run run(Map<String, String> env, String... args) {
    ByteArrayOutputStream o = new ByteArrayOutputStream();
    ByteArrayOutputStream e = new ByteArrayOutputStream();
    int code =
        Main.run(
            new PrintStream(o, true, StandardCharsets.UTF_8),
            new PrintStream(e, true, StandardCharsets.UTF_8),
            env,
            args);
    return new Run(code, o.toString(StandardCharsets.UTF_8), e.toString(StandardCharsets.UTF_8));
  }

  static Run run(String... args) {
    return run(Map.of("HOME", "/home/tester"), args);
  }

  static String path(String rel) {
    return ROOT.resolve(rel).toString();
  }

  /** {@code WORDS... --nodes hostfiles/2x8.txt}, to add to: a command on the 2 x 8 GPU cluster. */
  static List<String> on2x8(String... words) {
    List<String> a = new ArrayList<>(List.of(words));
    a.addAll(List.of("--nodes", path("hostfiles/2x8.txt")));
    return a;
  }

  /** The CLI run with {@code first}, then {@code more}. */
  static Run run(List<String> first, String... more) {
    List<String> a = new ArrayList<>(first);
    a.addAll(List.of(more));
    return run(a.toArray(String[]::new));
  }

  /** {@code plan --nodes 2x8 --container-image=u:1 FLAGS -- x}. */
  static Run planU1(String... flags) {
    List<String> a = on2x8("plan");
    a.add("--container-image=u:1");
    a.addAll(List.of(flags));
    return run(a, "--", "x");
  }

  @Test
  void seedExamplePlansTheSeedCommand() throws Exception {
    Run r = run("plan", path("examples/seed.yaml"), "--nodes", path("hostfiles/2x8.txt"));
    assertThat(r.code()).isZero();
    assertThat(r.err()).isEmpty();
    // The seed's command, with the run id in the container (every process of the run carries it).
    assertThat(r.out())
        .containsPattern(
            "\nenroot start --rw --mount /shared/ws:/app --env CLUSTERRUN_RUN_ID=\\S+ --env"
                + " CLUSTERRUN_HEAD hpc-benchmarks mpirun -np 16 --hostfile /app/hosts.txt"
                + " --mca plm rsh --mca ras '\\^slurm,tm,lsf,gridengine,alps' hostname\n")
        .containsPattern(
            "env ENROOT_ROOTFS_WRITABLE=y ENROOT_REMAP_ROOT=n CLUSTERRUN_RUN_ID=\\S+ /bin/sh"
                + " /shared/ws/runs/\\S+/agent-join.sh enroot start --rw --mount /shared/ws:/app"
                + " --env CLUSTERRUN_RUN_ID=")
        .contains("gpu01 slots=8\ngpu02 slots=8\n");

    Run j = run("plan", path("examples/seed.yaml"), "--nodes", path("hostfiles/2x8.txt"), "--json");
    JsonNode n = new ObjectMapper().readTree(j.out());
    assertThat(n.path("launch").path("command").asText())
        .matches(
            "enroot start --rw --mount /shared/ws:/app --env CLUSTERRUN_RUN_ID=\\S+ --env"
                + " CLUSTERRUN_HEAD hpc-benchmarks mpirun -np 16 --hostfile /app/hosts.txt"
                + " --mca plm rsh --mca ras '\\^slurm,tm,lsf,gridengine,alps' hostname");
    assertThat(n.path("np").asInt()).isEqualTo(16);
    assertThat(n.path("hostfile").path("path").asText()).isEqualTo("/app/hosts.txt");
    assertThat(n.path("hostfile").path("hostPath").asText()).isEqualTo("/shared/ws/hosts.txt");
  }

  @Test
  void aJobGivenWithFlagsAloneAndPrecedence() throws Exception {
    Map<String, String> env = new HashMap<>();
    env.put("HOME", "/home/tester");
    env.put("CLUSTERRUN_CONTAINER_IMAGE", "/images/env.sqsh");
    env.put("CLUSTERRUN_CONTAINER_WORKDIR", "/env-wd");
    Run r =
        run(
            env,
            "plan",
            "--nodes",
            path("hostfiles/range-16x8.txt"),
            "--container-image=/images/flag.sqsh",
            "--container-mounts=/data:/data:ro+rprivate,/scratch:/scratch",
            "--container-remap-root",
            "--json",
            "--",
            "python3",
            "train.py",
            "--lr",
            "0.1");
    JsonNode n = r.okJson();
    assertThat(n.path("np").asInt()).isEqualTo(128);
    assertThat(n.path("nodes").size()).isEqualTo(16);
    assertThat(n.path("nodes").get(0).asText()).isEqualTo("gpu01");
    String launch = n.path("launch").path("command").asText();
    assertThat(launch)
        .startsWith(
            "enroot start --root --mount /home/tester/clusterrun:/workspace --mount"
                + " /data:/data:none:x-create=auto,rbind,ro,rprivate --mount /scratch:/scratch"
                + " --env CLUSTERRUN_RUN_ID=")
        .contains(" --env CLUSTERRUN_HEAD /images/flag.sqsh mpirun")
        .containsPattern(
            " mpirun -np 128 --hostfile /workspace/runs/[^ /]+/hosts.txt --allow-run-as-root"
                + " --wdir /env-wd --mca plm rsh --mca ras '\\^slurm,tm,lsf,gridengine,alps'"
                + " python3 train\\.py --lr 0\\.1$");
    Map<String, String> sources = new HashMap<>();
    n.path("settings")
        .forEach(
            s ->
                sources.put(
                    s.path("key").asText(),
                    s.path("source").asText() + " " + s.path("origin").asText()));
    assertThat(sources)
        .containsEntry("container.image", "flag --container-image")
        .containsEntry("container.workdir", "environment CLUSTERRUN_CONTAINER_WORKDIR")
        .containsEntry("container.writable", "default built-in");
  }

  @Test
  void badInputExitsTwoAndNamesTheFileAndLine(@TempDir Path tmp) throws Exception {
    Path hosts = tmp.resolve("hosts.txt");
    Files.writeString(hosts, "node1 slots=2\nnode2 slots=zero\n");
    Run r = run("plan", path("examples/seed.yaml"), "--nodes", hosts.toString());
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.out()).isEmpty();
    assertThat(r.err())
        .startsWith("clusterrun: " + hosts + ":2: ")
        .doesNotContain("Exception")
        .doesNotContain("\tat ");

    Path job = tmp.resolve("job.yaml");
    Files.writeString(
        job, "name: x\ncontainer:\n  image: ubuntu:24.04\n  writable: perhaps\ncommand: [true]\n");
    Run y = run("plan", job.toString(), "--nodes", path("hostfiles/2x8.txt"));
    assertThat(y.code()).isEqualTo(2);
    assertThat(y.err()).startsWith("clusterrun: " + job + ":4:13: container.writable: ");
  }

  @Test
  void contradictionsAndEmptyValuesAreUsageErrors() {
    String hf = path("hostfiles/2x8.txt");
    assertThat(planU1("--container-readonly", "--container-writable").err())
        .isEqualTo(
            "clusterrun: --container-writable: contradicts --container-readonly; give only one of them\n");
    assertThat(run("plan", "--nodes", hf, "--container-image=", "--", "x").code()).isEqualTo(2);
    assertThat(planU1("--container-mounts=/a:").err())
        .contains("--container-mounts: mount '/a:' has an empty destination");
    assertThat(planU1("--container-name=a/b").err())
        .contains("--container-name: container name 'a/b' contains '/'");
    assertThat(planU1("--no-container-mount-home", "--container-mount-home").code()).isEqualTo(2);
    Run noCmd = run("plan", "--nodes", hf, "--container-image=u:1");
    assertThat(noCmd.code()).isEqualTo(2);
    assertThat(noCmd.err()).startsWith("clusterrun: command: no command to run");
  }

  @Test
  void helpListsExitCodesAndUnknownCommandsSuggest() {
    Run h = run("--help");
    assertThat(h.code()).isZero();
    assertThat(h.out()).contains("Exit codes:").contains("128+N").contains("plan");
    Run u = run("plann");
    assertThat(u.code()).isEqualTo(2);
    assertThat(u.err()).contains("plan");
    Run c = run("completion");
    assertThat(c.code()).isZero();
    assertThat(c.out()).contains("complete -F").contains("clusterrun");
  }
}
