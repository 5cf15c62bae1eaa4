package dev.clusterrun.cli;

import static dev.clusterrun.cli.CliTest.path;
import static dev.clusterrun.cli.CliTest.run;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.clusterrun.cli.CliTest.Run;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/**
 * Pyxis's own argument tests ({@code NVIDIA/pyxis tests/invalid_args.bats}, and the cases of {@code
 * mounts.bats} and {@code workdir.bats} that fail on the arguments alone), ported to clusterrun:
 * each is bad input (exit 2) named by its flag, found by {@code plan} without touching a node. And
 * the Pyxis command syntax: {@code clusterrun run --nodes h --container-image=IMG hostname}.
 */
class PyxisArgsTest {
  static final String HF = path("hostfiles/2x8.txt");

  static Run plan(String... args) {
    List<String> a = new ArrayList<>(List.of("plan", "--nodes", HF));
    a.addAll(List.of(args));
    return run(a.toArray(String[]::new));
  }

  static void badInput(Run r, String subject, String problem) {
    assertThat(r.code()).as("%s", r).isEqualTo(2);
    assertThat(r.out()).isEmpty();
    assertThat(r.err()).startsWith("clusterrun: " + subject + ": ").contains(problem);
    assertThat(r.err()).doesNotContain("Exception").doesNotContain("\tat ");
  }

  // ------------------------------------------------------------------ invalid_args.bats

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        // invalid arg: --container-image= (without argument)
        "--container-image=         | --container-image   | argument required",
        // invalid arg: --container-image=./
        "--container-image=./       | --container-image   | is a directory",
        // invalid arg: --container-name=/tmp/foo
        "--container-name=/tmp/foo  | --container-name    | contains '/'",
        // invalid arg: --container-name=:exec (Pyxis's name flags)
        "--container-name=:attach   | --container-name    | Pyxis's NAME:FLAG forms",
        "--container-name=n:create  | --container-name    | give the name alone (n)",
        // invalid arg: --container-mounts= (without argument)
        "--container-mounts=        | --container-mounts  | argument required",
        // invalid arg: --container-mounts=:
        "--container-mounts=:       | --container-mounts  | has no source",
        // invalid arg: --container-mounts=/tmp:
        "--container-mounts=/tmp:   | --container-mounts  | has an empty destination",
        // invalid arg: --container-workdir= (without argument)
        "--container-workdir=       | --container-workdir | argument required",
        // invalid arg: --container-env= (without argument)
        "--container-env=           | --container-env     | argument required",
        // invalid arg: --container-env trailing comma
        "--container-env=FOO,       | --container-env     | empty name in 'FOO,'",
        // invalid arg: --container-save=<directory>
        "--container-save=/tmp/     | --container-save    | is a directory",
        "--container-save=/         | --container-save    | is a directory",
        "--container-save=./        | --container-save    | is a directory",
        // mounts.bats: devpts source, invalid target, path escape; workdir.bats: relative workdir
        "--container-mounts=devpts:/mydevpts:ro | --container-mounts | mount source 'devpts'",
        "--container-mounts=/tmp:mnt:ro | --container-mounts | must be an absolute path inside",
        "--container-mounts=/home:../home | --container-mounts | must be an absolute path inside",
        "--container-workdir=../    | --container-workdir | expected an absolute path",
        // mounts.bats: space in paths (clusterrun refuses: the launch agent cannot carry it)
        "'--container-mounts=/tmp/pyxis test dir:/mnt/test' | --container-mounts | white space",
        "'--container-mounts=/tmp:/mnt/my mount' | --container-mounts | white space",
        // the flags Pyxis passes to enroot unchecked
        "--container-mounts=/a:/b:bogus | --container-mounts | unknown flag 'bogus'",
        "--container-mounts=/a:/b:ro:x | --container-mounts | has 4 ':'-separated fields",
        "--container-mounts=/a:/b:ro++rw | --container-mounts | has an empty flag",
        "--container-mounts=data:/data | --container-mounts | ./ or ../ (e.g. ./data)",
      })
  void invalidArgs(String arg, String subject, String problem) {
    Run r =
        arg.startsWith("--container-image")
            ? plan(arg, "true")
            : plan("--container-image=ubuntu:24.04", arg, "true");
    badInput(r, subject, problem);
  }

  @Test
  void invalidArgVeryLongInvalidImageName() {
    byte[] junk = new byte[2048];
    new Random(42).nextBytes(junk);
    String image = Base64.getEncoder().encodeToString(junk);
    badInput(plan("--container-image=" + image, "true"), "--container-image", "not an enroot URI");
  }

  @Test
  void invalidArgImageThatIsNotAFile() {
    badInput(plan("--container-image=/dev/urandom", "true"), "--container-image", "is not a file");
  }

  @Test
  void invalidArgVeryLongContainerName() {
    badInput(
        plan("--container-image=ubuntu:24.04", "--container-name=" + "a".repeat(300), "true"),
        "--container-name",
        "300 characters long");
  }

  @Test
  void invalidArgReadonlyAndWritable() {
    badInput(
        plan("--container-readonly", "--container-writable", "--container-image=u:1", "true"),
        "--container-writable",
        "contradicts --container-readonly");
    badInput(
        plan(
            "--container-entrypoint", "--no-container-entrypoint", "--container-image=u:1", "true"),
        "--container-entrypoint",
        "contradicts --no-container-entrypoint");
  }

  @Test
  void aNamedContainerWithoutAnImageIsUsedAsItIs() {
    Run r = plan("--container-name=args-test", "true");
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(r.out()).contains("# use the existing container args-test: it must exist");
  }

  // ------------------------------------------------------------------ the Pyxis command syntax

  static String launch(Run r) throws Exception {
    return r.okJson().path("launch").path("command").asText();
  }

  @Test
  void theFirstWordThatIsNotAnOptionStartsTheCommand() throws Exception {
    Run h = plan("--json", "--container-image=img.sqsh", "hostname");
    assertThat(launch(h))
        .endsWith(
            " mpirun -np 16 --hostfile "
                + hostfileIn(h)
                + " --mca plm rsh --mca ras '^slurm,tm,lsf,gridengine,alps' hostname");
    // Options after the command are the command's.
    assertThat(launch(plan("--json", "--container-image=img.sqsh", "hostname", "-f")))
        .endsWith(" hostname -f");
    Run text = plan("--container-image=img.sqsh", "sh", "-c", "echo hi", "--json");
    assertThat(text.code()).as(text.err()).isZero();
    assertThat(text.out()).startsWith("# clusterrun plan").contains(" sh -c 'echo hi' --json\n");
    // -- still ends the options, and what follows is the command whatever its name.
    assertThat(launch(plan("--json", "--container-image=i.sqsh", "--", "hostname", "--json")))
        .endsWith(" hostname --json");
    assertThat(launch(plan("--json", "--container-image=i.sqsh", "--", "conf.yaml")))
        .endsWith(" conf.yaml");
    assertThat(launch(plan("--json", "--container-image=i.sqsh", "--", "cat", "a.yml")))
        .endsWith(" cat a.yml");
    // A word starting with @ is the command's, not a file for picocli to read.
    assertThat(launch(plan("--json", "--container-image=i.sqsh", "echo", "@nonexistent")))
        .endsWith(" echo @nonexistent");
  }

  static String hostfileIn(Run r) throws Exception {
    return new ObjectMapper().readTree(r.out()).path("hostfile").path("path").asText();
  }

  @Test
  void aFirstWordEndingInYamlIsTheJobFileAndOptionsGoOnAfterIt() throws Exception {
    String seed = path("examples/seed.yaml");
    Run r = run("plan", seed, "--nodes", HF, "--json");
    assertThat(launch(r))
        .endsWith(
            " hpc-benchmarks mpirun -np 16 --hostfile /app/hosts.txt --mca plm rsh --mca ras '^slurm,tm,lsf,gridengine,alps' hostname");
    // The job file, then a command that replaces the file's, its options its own.
    Run c = run("plan", "--nodes", HF, "--json", seed, "hostname", "-s", "--nodes", "x");
    assertThat(launch(c))
        .endsWith(
            " --hostfile /app/hosts.txt --mca plm rsh --mca ras '^slurm,tm,lsf,gridengine,alps' hostname -s --nodes x");
    // A second .yaml word is the command's.
    Run two = run("plan", "--nodes", HF, "--json", seed, "cat", "other.yaml");
    assertThat(launch(two)).endsWith(" cat other.yaml");
  }

  @Test
  void runBenchAndHplTakeTheCommandTheSameWay(@TempDir Path tmp) throws Exception {
    // run gets as far as the mounts (bad input, before any node) with the command unquoted.
    Run r =
        run(
            "run",
            "--nodes",
            HF,
            "--container-image=img.sqsh",
            "--container-mounts=/a:/b:bogus",
            "hostname",
            "-f");
    badInput(r, "--container-mounts", "unknown flag 'bogus'");
    Run hpl =
        BenchCommandsTest.hplDryRun2x8(
            "--gpu-model=H200", "--workspace=/shared/ws", "--test-loop", "2");
    assertThat(hpl.code()).as(hpl.err()).isEqualTo(2);
    assertThat(hpl.err()).contains("--test-loop");
    Run hplWords =
        BenchCommandsTest.hplDryRun2x8(
            "--gpu-model=H200", "--workspace=/shared/ws", "loop", "--test-loop", "2");
    assertThat(hplWords.code()).as(hplWords.err()).isZero();
    assertThat(hplWords.out()).contains(" loop --test-loop 2\n");
    Run bench =
        run(
            "bench",
            "stream",
            "--dry-run",
            "--nodes",
            HF,
            "--workspace=/shared/ws",
            "--container-image=img.sqsh",
            "arg1",
            "--arg2");
    assertThat(bench.code()).as(bench.err()).isZero();
    assertThat(bench.out()).contains(" arg1 --arg2\n");
  }

  // ------------------------------------------------------------------ plan takes run's options

  @Test
  void planAcceptsEveryOptionRunAcceptsAndTheSameDefaults() {
    CommandLine cl = new Cli(System.out, System.err, Map.of()).commandLine();
    CommandLine runCl = cl.getSubcommands().get("run");
    CommandLine planCl = cl.getSubcommands().get("plan");
    Set<String> runNames = new TreeSet<>();
    for (OptionSpec o : runCl.getCommandSpec().options()) {
      runNames.addAll(List.of(o.names()));
    }
    Set<String> planNames = new TreeSet<>();
    for (OptionSpec o : planCl.getCommandSpec().options()) {
      planNames.addAll(List.of(o.names()));
    }
    assertThat(planNames).containsAll(runNames);
    // Every run option parses on plan, each with a value of its type.
    for (OptionSpec o : runCl.getCommandSpec().options()) {
      List<String> args = new ArrayList<>(List.of("--nodes", HF));
      if (!o.longestName().equals("--nodes")) {
        args.add(o.longestName());
        if (o.arity().min() > 0) {
          args.add(sample(o));
        }
      }
      Run p = run(withPlan(args));
      assertThat(p.err())
          .as("plan %s", String.join(" ", args))
          .doesNotContain("Unknown option")
          .doesNotContain("Invalid value")
          .doesNotContain("Missing required parameter");
    }
    OptionSpec runDaemon = runCl.getCommandSpec().findOption("--mpi-daemon");
    OptionSpec planDaemon = planCl.getCommandSpec().findOption("--mpi-daemon");
    assertThat((Object) planDaemon.initialValue())
        .isEqualTo(runDaemon.initialValue())
        .isEqualTo("auto");
  }

  static String[] withPlan(List<String> args) {
    List<String> a = new ArrayList<>(List.of("plan"));
    a.addAll(args);
    a.addAll(List.of("--container-image=u:1", "--", "true"));
    return a.toArray(String[]::new);
  }

  static String sample(OptionSpec o) {
    Class<?> t = o.type();
    if (t == Integer.class || t == int.class || t == Long.class || t == long.class) {
      return "2";
    }
    return switch (o.longestName()) {
      case "--mpi-daemon" -> "auto";
      case "--connect-timeout" -> "5s";
      case "--container-mounts" -> "/tmp:/mnt:ro";
      case "--container-env" -> "HOME";
      case "--container-image" -> "u:1";
      case "--container-name" -> "n";
      case "--container-save" -> "out.sqsh";
      case "--ssh-user" -> "alice";
      case "--identity" -> "~/.ssh/id_ed25519";
      default -> "/abs";
    };
  }

  @Test
  void planShowsWhatRunWouldDoWithRunsOptions() throws Exception {
    Run r =
        plan(
            "--json",
            "--mpi-daemon=auto",
            "--ssh-user=alice",
            "--skip-checks",
            "--no-canary",
            "--container-image=u:1",
            "true");
    JsonNode n = r.okJson();
    Map<String, String> settings = new HashMap<>();
    n.path("settings")
        .forEach(s -> settings.put(s.path("key").asText(), s.path("origin").asText()));
    assertThat(settings.get("mpi.daemon")).startsWith("auto: run asks mpirun --version");
    Run prted = plan("--json", "--mpi-daemon=prted", "--container-image=u:1", "true");
    assertThat(new ObjectMapper().readTree(prted.out()).path("launchAgent").path("daemon").asText())
        .isEqualTo("prted");
    badInput(
        plan("--mpi-daemon=mpd", "--container-image=u:1", "true"),
        "--mpi-daemon",
        "expected auto, orted or prted");
    badInput(
        plan("--ssh-port=70000", "--container-image=u:1", "true"), "--ssh-port", "at most 65535");
    badInput(
        plan("--canary", "--no-canary", "--container-image=u:1", "true"),
        "--canary",
        "contradicts --no-canary");
  }

  // ------------------------------------------------------------------ one rule per setting

  /**
   * The same bad value, given by a flag, a variable or the job file, is refused with the same
   * problem, each naming its own subject.
   */
  @ParameterizedTest(name = "{0} {1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "--workspace       | CLUSTERRUN_WORKSPACE         | workspace.path  | /a,b | contains ','",
        "--workspace       | CLUSTERRUN_WORKSPACE         | workspace.path  | /e:f | contains ':'",
        "--workspace       | CLUSTERRUN_WORKSPACE         | workspace.path  | rel  | expected an"
            + " absolute path",
        "--workspace-mount |                              | workspace.mount | /a:b | contains ':'",
        "--workspace-mount |                              | workspace.mount | /    | would hide"
            + " the container's root",
        "--container-workdir | CLUSTERRUN_CONTAINER_WORKDIR | container.workdir | /a b | white space",
        "--container-save  | CLUSTERRUN_CONTAINER_SAVE    | container.save  | out/ | is a directory",
        "--container-name  | PYXIS_CONTAINER_NAME         | container.name  | a:b  | contains ':'",
        "--container-image | PYXIS_CONTAINER_IMAGE        | container.image | ./   | is a directory",
        "--np              |                              | mpi.np          | 0    | at least 1",
      })
  void oneRulePerSettingWhateverLayerSetsIt(
      String flag, String variable, String key, String value, String problem, @TempDir Path tmp)
      throws Exception {
    String image =
        flag.equals("--container-image") ? "--container-name=n" : "--container-image=u:1";
    Run f = run("plan", "--nodes", HF, image, flag + "=" + value, "--", "x");
    badInput(f, flag, problem);
    if (variable != null) {
      Map<String, String> env = new HashMap<>(Map.of("HOME", "/home/tester", variable, value));
      Run v = run(env, "plan", "--nodes", HF, image, "--", "x");
      badInput(v, variable, problem);
    }
    String[] k = key.split("\\.");
    Path job = tmp.resolve("job.yaml");
    String yamlValue = k[1].equals("np") ? value : "\"" + value + "\"";
    String container = k[1].equals("image") ? "name: n" : "image: u:1";
    String yaml =
        k[0].equals("container")
            ? "container:\n  " + container + "\n  " + k[1] + ": " + yamlValue + "\n"
            : "container:\n  " + container + "\n" + k[0] + ":\n  " + k[1] + ": " + yamlValue + "\n";
    Files.writeString(job, "command: [x]\n" + yaml);
    Run y = run("plan", job.toString(), "--nodes", HF);
    assertThat(y.code()).as("%s", y).isEqualTo(2);
    assertThat(y.err())
        .startsWith("clusterrun: " + job + ":")
        .contains(": " + key + ": ")
        .contains(problem);
  }

  @Test
  void aRegistryHostBeforeTheFirstSlashIsReadAsTheRegistryAndSaid() throws Exception {
    String note =
        "read nvcr.io/nvidia/pytorch:25.01-py3 as nvcr.io#nvidia/pytorch:25.01-py3 (a registry"
            + " host before the first '/')";
    Run p = plan("--container-image=nvcr.io/nvidia/pytorch:25.01-py3", "true");
    assertThat(p.code()).as(p.err()).isZero();
    assertThat(p.out())
        .contains("enroot import --output ")
        .contains(" 'docker://nvcr.io#nvidia/pytorch:25.01-py3'\n")
        .containsPattern(
            "\ncontainer\\.image +docker://nvcr\\.io#nvidia/pytorch:25\\.01-py3 +flag"
                + " \\(--container-image; "
                + java.util.regex.Pattern.quote(note)
                + "\\)\n");
    JsonNode settings =
        new ObjectMapper()
            .readTree(plan("--json", "--container-image=localhost/x", "true").out())
            .path("settings");
    assertThat(settings.toString()).contains("read localhost/x as localhost#x");
    // run says it on stderr first (here --keep-going, an error of the resolved job, stops it).
    Run r =
        run(
            "run",
            "--nodes",
            HF,
            "--container-image=nvcr.io/nvidia/pytorch:25.01-py3",
            "--keep-going",
            "true");
    assertThat(r.err().lines().toList())
        .startsWith("clusterrun: --container-image: " + note)
        .anyMatch(l -> l.startsWith("clusterrun: --keep-going: "));
    // Docker Hub names are as they were, and nothing is said.
    Run hub = run("run", "--nodes", HF, "--container-image=nvidia/cuda:12", "--keep-going", "true");
    assertThat(hub.code()).isEqualTo(2);
    assertThat(hub.err()).startsWith("clusterrun: --keep-going: ").doesNotContain("read ");
  }
}
