package dev.clusterrun.core.check;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.clusterrun.core.remote.ExecResult;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Pins the fact script's exact output on a rich node (several configuration files, nine hooks and
 * odd ones, environ.d, agents, escaping, containers) to a golden file, and counts the processes the
 * script starts there: it runs on every node in every check and run.
 */
class FactScriptGoldenTest {
  private static final Duration T = Duration.ofSeconds(60);
  private static final String GOLDEN = "facts/rich-node.expected.txt";
  private static final String UNNAMED = "facts/unnamed-user.expected.txt";

  /** The write probes' file names hold the node's name and the shell's PID. */
  private static final Pattern PROBE_FILE =
      Pattern.compile("\\.clusterrun-write-test\\.[^/']*\\.[0-9]+");

  /** Keys whose values belong to the machine, not to the fixture. */
  private static final Set<String> MACHINE_KEYS = Set.of("hostname", "mntns", "boot", "fuse");

  @TempDir Path tmp;
  Path sysconf;
  Path home;
  Path bin;

  @BeforeEach
  void richNode() throws IOException {
    Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rwxr-xr-x"));
    sysconf = Files.createDirectories(tmp.resolve("etc/enroot"));
    home = Files.createDirectories(tmp.resolve("home/alice"));
    Files.createDirectories(home.resolve(".ssh"));
    write(
        Files.createDirectories(home.resolve(".openmpi")).resolve("mca-params.conf"),
        "# site\nbtl_tcp_if_include = eth0\n  oob_tcp_if_exclude=lo\n",
        "rw-r--r--");
    Files.createDirectories(home.resolve("data/pytorch"));
    Files.createDirectories(home.resolve("data/it's $(x)"));

    // Configuration: a comment, a commented-out and a live agent line, `no`, a backslash, a value
    // expanded with a command, a drop-in without a final newline, a file that is not *.conf.
    write(
        sysconf.resolve("enroot.conf"),
        "# site configuration\n"
            + "#OMPI_MCA_plm_rsh_agent ssh -p 2222\n"
            + "ENROOT_DATA_PATH ${HOME}/data\n"
            + "ENROOT_TEMP_PATH /var/tmp/a\\\\b\\c\n"
            + "ENROOT_MOUNT_HOME no\n"
            + "OMPI_MCA_orte_launch_agent enroot start x orted\n",
        "rw-r--r--");
    Path confd = Files.createDirectories(sysconf.resolve("enroot.conf.d"));
    write(
        confd.resolve("10-site.conf"),
        "ENROOT_CACHE_PATH=${HOME}/cache-$(id -u)\nENROOT_RUNTIME_PATH ${HOME}/run\n"
            + "ENROOT_DATA_PATH /ignored/as/set/before\n",
        "rw-r--r--");
    write(
        confd.resolve("50-clusterrun.conf"),
        "ENROOT_CONFIG_PATH ${HOME}/cfg/enroot\nENROOT_SQUASH_OPTIONS -noI",
        "rw-r--r--");
    write(confd.resolve("99-notes.txt"), "ENROOT_DATA_PATH /not/a/conf\n", "rw-r--r--");

    // Nine hooks as a real enroot install has, clusterrun's own among them, and odd entries.
    Path hooks = Files.createDirectories(sysconf.resolve("hooks.d"));
    for (String h : List.of("10-aaa", "20-cuda", "30-devices", "40-mellanox", "45-shmem")) {
      write(
          hooks.resolve(h + ".sh"),
          "#!/bin/bash\n# enroot hook " + h + "\nset -eu\nexit 0\n",
          "rwxr-xr-x");
    }
    write(
        hooks.resolve("50-clusterrun-launch-agent.sh"),
        "#!/bin/sh\n# clusterrun-launch-agent-hook version 3\n"
            + "printf '%s=%s\\n' OMPI_MCA_orte_launch_agent x >> \"$ENROOT_ENVIRON\"\n",
        "rw-r--r--");
    write(
        hooks.resolve("60 my hook.sh"),
        "#!/bin/sh\n# clusterrun-launch-agent-hook version 12abc\n"
            + "# clusterrun-launch-agent-hook version 13\n"
            + "# writes OMPI_MCA_orte_launch_agent\n"
            + "echo \"OMPI_MCA_orte_launch_agent=enroot start x orted\" >> \"$ENROOT_ENVIRON\"\n",
        "rwxr-x---");
    StringBuilder many = new StringBuilder("#!/bin/sh\n\n\n\n\n");
    many.append("# clusterrun-launch-agent-hook version 9\n"); // line 6: not a header
    for (int i = 0; i < 23; i++) {
      many.append(i % 2 == 0 ? "export " : "  # ")
          .append("PRTE_MCA_plm_ssh_agent_")
          .append(i)
          .append("=ssh; OMPI_MCA_plm_rsh_agent=x\n");
    }
    write(hooks.resolve("70-many.sh"), many.toString(), "rwxr-xr-x");
    write(hooks.resolve("80-empty.sh"), "", "rwxrwxrwx");
    Files.createDirectories(hooks.resolve("85-a-directory"));
    Files.setPosixFilePermissions(
        hooks.resolve("85-a-directory"), PosixFilePermissions.fromString("rwxr-xr-x"));
    Files.createSymbolicLink(hooks.resolve("90-link.sh"), hooks.resolve("20-cuda.sh"));
    Files.createSymbolicLink(hooks.resolve("95-dangling.sh"), hooks.resolve("missing.sh"));
    write(
        hooks.resolve("97-back\\slash.sh"),
        "#!/bin/sh\n# clusterrun-launch-agent-hook version 2\nOMPI_MCA_plm_rsh_agent=\n",
        "rwxr-xr-x");
    Path userHooks = Files.createDirectories(home.resolve("cfg/enroot/hooks.d"));
    write(
        userHooks.resolve("9-prte.sh"),
        "export X=1\n  PRTE_MCA_prte_launch_agent=y\n",
        "rw-r--r--");

    Path environ = Files.createDirectories(sysconf.resolve("environ.d"));
    write(environ.resolve("50-mpi.env"), "A=1\nOMPI_MCA_plm_rsh_agent=ssh -p 2222\n", "rw-r--r--");
    write(environ.resolve("60-other.env"), "B=2\n", "rw-r--r--");
    write(environ.resolve("notes.txt"), "OMPI_MCA_plm_rsh_agent=not *.env\n", "rw-r--r--");

    // Commands whose output belongs to the machine, made fixed (builtins only).
    bin = Files.createDirectories(tmp.resolve("bin"));
    tool("enroot", "printf '4.1.2\\nwith a second line\\n'");
    tool(
        "nvidia-smi",
        "echo 'GPU 0: NVIDIA A100-SXM4-80GB (UUID: GPU-aaa)'\n"
            + "echo 'GPU 1: NVIDIA A100-SXM4-80GB (UUID: GPU-bbb)'");
    tool("mpirun", "printf 'mpirun (Open MPI) 4.1.4\\n\\nReport bugs\\n'");
    tool(
        "ip",
        "echo '1: lo    inet 127.0.0.1/8 scope host lo\\       valid_lft forever'\n"
            + "echo '2: eth0    inet 10.0.0.2/24 brd 10.0.0.255 scope global eth0'");
    tool("df", "echo 'Type Mounted on'; echo 'ext4 /srv/my data'");
    tool("squashfuse", "exit 0");
  }

  private ShNodeShell shell() {
    return ShNodeShell.of("n1", home.toString())
        .withEnv("PATH", bin + ":/usr/bin:/bin:/usr/sbin:/sbin")
        .withEnv("XDG_RUNTIME_DIR", tmp.resolve("xdg-run").toString())
        .withEnv("PRTE_MCA_plm_ssh_agent", "ssh")
        .withEnv("OMPI_MCA_btl", "tcp,self")
        .withEnv("SSH_CONNECTION", "10.0.0.1 50000 10.0.0.2 22");
  }

  private String script() {
    return FactScript.render(
        sysconf.toString(), List.of("pytorch", "missing", "it's $(x)"), null, true);
  }

  @Test
  void theOutputOnARichNodeIsExactlyTheGoldenOne() throws IOException {
    ExecResult r = shell().run(script(), T);
    assertThat(r.stderr()).isEmpty();
    assertThat(r.exitCode()).isZero();
    String actual = normalise(r.stdout());
    Path out = Path.of("target", "facts-rich-node.actual.txt");
    Files.createDirectories(out.getParent());
    Files.writeString(out, actual, StandardCharsets.UTF_8);
    assertThat(actual).as("(written to %s)", out.toAbsolutePath()).isEqualTo(golden());
    // The parser reads all of it.
    Facts f = FactParser.parse("n1", r);
    assertThat(f.problem()).isNull();
  }

  @Test
  void theOutputForAUserWithoutANameAndFilesItCannotReadIsExactlyTheGoldenOne() throws Exception {
    // Files only root may read: a drop-in (its sha256sum error), a hook, an environ.d file.
    write(
        sysconf.resolve("enroot.conf.d/20-secret.conf"),
        "ENROOT_TEMP_PATH /secret\n# OMPI_MCA_plm_rsh_agent\n",
        "rw-------");
    write(
        sysconf.resolve("hooks.d/55-secret.sh"),
        "#!/bin/sh\n# clusterrun-launch-agent-hook version 7\nOMPI_MCA_plm_rsh_agent=x\n",
        "rwx------");
    write(sysconf.resolve("environ.d/70-secret.env"), "OMPI_MCA_plm_rsh_agent=x\n", "rw-------");
    ShNodeShell unnamed =
        shell().withPrefix("setpriv", "--reuid=12345", "--regid=12345", "--clear-groups");
    ExecResult r = unnamed.run(script(), T);
    assertThat(r.exitCode()).isZero();
    // (stderr holds the shell's own "cannot open" for the unreadable drop-in.)
    String actual = normalise(r.stdout());
    Path out = Path.of("target", "facts-unnamed-user.actual.txt");
    Files.createDirectories(out.getParent());
    Files.writeString(out, actual, StandardCharsets.UTF_8);
    assertThat(actual).as("(written to %s)", out.toAbsolutePath()).isEqualTo(golden(UNNAMED));
    assertThat(FactParser.parse("n1", r).problem()).isNull();
  }

  /**
   * Processes the script starts on the rich node, counted with strace (every successful execve).
   * Before the batched scans it was 160 (the shell itself included); with them it is 42, and it
   * must stay at most half of 160.
   */
  @Test
  void theScriptStartsAtMostHalfTheProcessesItUsedTo() throws Exception {
    Path strace = findOnPath("strace");
    if (strace == null) {
      if ("true".equals(System.getenv("CI"))) {
        fail("strace is missing (examples/local-cluster/install-deps.sh installs it)");
      }
      Assumptions.abort("strace is not installed");
    }
    Path trace = Path.of("target", "facts-rich-node.strace").toAbsolutePath();
    Files.createDirectories(trace.getParent());
    ShNodeShell traced =
        shell()
            .withPrefix(
                strace.toString(), "-f", "-qq", "-e", "trace=execve", "-o", trace.toString());
    ExecResult r = traced.run(script(), T);
    assertThat(r.exitCode()).isZero();
    assertThat(normalise(r.stdout())).isEqualTo(golden());
    long execs =
        Files.readAllLines(trace).stream()
            .filter(l -> l.contains("execve") && l.endsWith("= 0"))
            .count();
    assertThat(execs).as("processes started (strace %s)", trace).isPositive();
    assertThat(execs).isLessThanOrEqualTo(BEFORE / 2);
  }

  private static final long BEFORE = 160;

  private String normalise(String out) {
    String s = out.replace(tmp.toString(), "@TMP@");
    s = PROBE_FILE.matcher(s).replaceAll(".clusterrun-write-test.@NODE@.@PID@");
    List<String> lines = new ArrayList<>();
    for (String line : s.split("\n", -1)) {
      int eq = line.indexOf('=');
      if (eq > 0 && MACHINE_KEYS.contains(line.substring(0, eq))) {
        line = line.substring(0, eq + 1) + "@MACHINE@";
      }
      lines.add(line);
    }
    return String.join("\n", lines);
  }

  private static String golden() throws IOException {
    return golden(GOLDEN);
  }

  private static String golden(String name) throws IOException {
    try (InputStream in = FactScriptGoldenTest.class.getResourceAsStream(name)) {
      assertThat(in).as(name).isNotNull();
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  private void tool(String name, String body) throws IOException {
    write(bin.resolve(name), "#!/bin/sh\n" + body + "\n", "rwxr-xr-x");
  }

  private static void write(Path p, String text, String mode) throws IOException {
    Files.writeString(p, text, StandardCharsets.UTF_8);
    Files.setPosixFilePermissions(p, PosixFilePermissions.fromString(mode));
  }

  private static Path findOnPath(String name) {
    for (String dir : System.getenv().getOrDefault("PATH", "").split(Pattern.quote(":"))) {
      Path p = Path.of(dir.isEmpty() ? "." : dir, name);
      if (Files.isExecutable(p)) {
        return p;
      }
    }
    return null;
  }
}
