package dev.clusterrun.core.remote;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A session on the head's master: the OpenSSH client it runs (a stand-in here that records its argv
 * and then runs the remote command with the local {@code sh}, as sshd would hand it to the login
 * shell) and how OpenSSH's own failure, exit 255, is told apart from the script's exit code.
 */
class MasterNodeShellTest {
  @TempDir Path tmp;

  private MasterNodeShell shell(String behaviour) throws Exception {
    Path ssh = tmp.resolve("ssh");
    Files.writeString(
        ssh,
        "#!/bin/sh\n"
            + "printf '%s\\n' \"$@\" > "
            + tmp.resolve("argv")
            + "\n"
            + behaviour
            + "\n"
            + "for last; do :; done\n"
            + "exec sh -c \"$last\"\n");
    Files.setPosixFilePermissions(ssh, PosixFilePermissions.fromString("rwx------"));
    return new MasterNodeShell("node2", "/dev/shm/clusterrun-ssh.abcdef", ssh.toString());
  }

  @Test
  void eachCommandIsASessionOnTheNodesMasterWithTheScriptAsOneQuotedWord() throws Exception {
    MasterNodeShell s = shell("");
    String hostile = "echo \"$HOME\" '$(touch " + tmp.resolve("pwned") + ")' `id -u` ; exit 3";
    ExecResult r = s.run(hostile, Duration.ofSeconds(10));
    assertThat(r.error()).isNull();
    assertThat(r.exitCode()).isEqualTo(3);
    assertThat(r.stdout()).endsWith(" $(touch " + tmp.resolve("pwned") + ") " + uid() + "\n");
    assertThat(tmp.resolve("pwned")).doesNotExist();
    assertThat(Files.readAllLines(tmp.resolve("argv")))
        .containsExactly(
            "-T",
            "-o",
            "ControlMaster=no",
            "-o",
            "ControlPath=/dev/shm/clusterrun-ssh.abcdef/%n",
            "-o",
            "BatchMode=yes",
            "-o",
            "ConnectTimeout=" + MasterNodeShell.CONNECT_TIMEOUT_SECONDS,
            "--",
            "node2",
            "sh -c " + ShellQuote.quote(hostile));
  }

  @Test
  void openSshsOwnFailureIsTheConnectionsTroubleNotAResult() throws Exception {
    MasterNodeShell s =
        shell(
            "echo 'Control socket connect(x): Connection refused' >&2\necho 'ssh: connect to"
                + " host node2 port 22: No route to host' >&2\nexit 255");
    ExecResult r = s.run("true", Duration.ofSeconds(10));
    assertThat(r.ok()).isFalse();
    assertThat(r.error())
        .isEqualTo(
            "node2: ssh failed (exit 255): ssh: connect to host node2 port 22: No route to host");
  }

  @Test
  void aStreamedCommandKeepsItsOwnExitCodeAndOutput() throws Exception {
    MasterNodeShell s = shell("");
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    ExecResult r = s.stream("echo out; echo err >&2; exit 255", out, err);
    assertThat(r.exitCode()).isEqualTo(255);
    assertThat(r.error()).isNull();
    assertThat(out.toString()).isEqualTo("out\n");
    assertThat(err.toString()).isEqualTo("err\n");
  }

  private static String uid() throws Exception {
    Process p = new ProcessBuilder("id", "-u").start();
    return new String(p.getInputStream().readAllBytes()).strip();
  }
}
