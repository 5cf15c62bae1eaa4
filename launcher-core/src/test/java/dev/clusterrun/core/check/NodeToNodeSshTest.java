package dev.clusterrun.core.check;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clusterrun.core.remote.ExecResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The head's probe script with the real {@code sh} and a stand-in {@code ssh} first on PATH (the
 * real sshd runs in the harness ITs): it records its arguments and fails like OpenSSH does.
 */
class NodeToNodeSshTest {
  @TempDir Path tmp;

  @Test
  void everyNodeIsProbedWithBatchModeAndTheErrorsComeBack() throws Exception {
    Path bin = Files.createDirectories(tmp.resolve("bin"));
    Path log = tmp.resolve("argv.log");
    Path ssh = bin.resolve("ssh");
    Files.writeString(
        ssh,
        "#!/bin/sh\n"
            // one write per call, so 43 parallel calls cannot interleave their lines
            + "line=$(printf '%s|' \"$@\"); printf '%s\\n' \"$line\" >> "
            + log
            + "\n"
            + "host=$(printf '%s\\n' \"$@\" | tail -n 2 | head -n 1)\n" // word before `true`
            + "case $host in\n"
            + "  good*) exit 0 ;;\n"
            + "  newkey) echo 'Host key verification failed.' >&2; exit 255 ;;\n"
            + "  *\\'*) echo \"odd name: $host\" >&2; exit 255 ;;\n"
            + "  *) echo \"ssh: Could not resolve hostname $host: Name or service not known\" >&2;"
            + " exit 255 ;;\n"
            + "esac\n");
    Files.setPosixFilePermissions(ssh, PosixFilePermissions.fromString("rwxr-xr-x"));
    ShNodeShell head =
        ShNodeShell.of("head", tmp.toString()).withEnv("PATH", bin + ":/usr/bin:/bin");
    List<String> nodes = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      nodes.add("good" + i);
    }
    nodes.add("newkey");
    nodes.add("nowhere");
    nodes.add("it's");

    Map<String, NodeToNodeSsh.Answer> r = NodeToNodeSsh.run(head, nodes, Duration.ofSeconds(30));

    assertThat(r).hasSize(43);
    assertThat(r.get("good0").ok()).isTrue();
    assertThat(r.get("good39").ok()).isTrue();
    assertThat(r.get("newkey").ok()).isFalse();
    assertThat(r.get("newkey").exitCode()).isEqualTo(255);
    assertThat(r.get("newkey").error()).isEqualTo("Host key verification failed.");
    assertThat(r.get("nowhere").error()).contains("Could not resolve hostname nowhere");
    assertThat(r.get("it's").error()).isEqualTo("odd name: it's");
    assertThat(head.calls).isEqualTo(1);
    List<String> lines = Files.readAllLines(log);
    assertThat(lines).hasSize(43);
    assertThat(lines)
        .contains("-n|-o|BatchMode=yes|-o|ConnectTimeout=5|--|newkey|true|")
        .noneMatch(l -> l.contains("StrictHostKeyChecking"));
  }

  @Test
  void noAnswerFromTheHeadIsAnOutcomeForEveryNode() {
    Map<String, NodeToNodeSsh.Answer> r =
        NodeToNodeSsh.parse(List.of("a", "b"), ExecResult.failed("connection lost", Duration.ZERO));
    assertThat(r.get("b").ok()).isFalse();
    assertThat(r.get("b").error()).isEqualTo("the head gave no answer: connection lost");
  }
}
