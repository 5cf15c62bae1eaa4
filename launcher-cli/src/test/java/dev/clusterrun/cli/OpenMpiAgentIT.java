package dev.clusterrun.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clusterrun.cli.CliTest.Run;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The rule {@code HostileInputPropertyTest} follows for the launch agent is Open MPI's own: real
 * {@code mpirun} (Open MPI 4.1), given an agent clusterrun accepted and a stand-in {@code ssh} that
 * records the remote command instead of connecting, builds a line that a real shell reads back as
 * the agent's words, followed by Open MPI's own arguments, among them {@code -mca orte_launch_agent
 * AGENT}.
 */
class OpenMpiAgentIT {
  @TempDir Path dir;

  @Test
  void aRealMpirunHandsTheAgentToAnotherNodeAsClusterrunBuiltIt() throws Exception {
    Path mpirun = Path.of("/usr/bin/mpirun");
    assertThat(mpirun).as("Open MPI's mpirun (install-deps.sh installs it)").isExecutable();
    // Values the property test shows are carried: quotes, ';', '&', '|', '#', '*', unicode.
    Path src = Files.createDirectories(dir.resolve("d'a;t&a|#*é😀"));
    Path hosts = Files.writeString(dir.resolve("hosts.txt"), "node01 slots=1\nnode02 slots=1\n");
    Run plan =
        CliTest.run(
            Map.of("HOME", "/home/tester"),
            "plan",
            "--json",
            "--nodes",
            hosts.toString(),
            "--container-image=ubuntu",
            "--container-mounts=" + src + ":/data'x",
            "--",
            "hostname");
    JsonNode json = plan.okJson();
    String agent = json.path("launchAgent").path("command").asText();
    List<String> agentWords = new ArrayList<>();
    json.path("launchAgent").path("argv").forEach(w -> agentWords.add(w.asText()));
    assertThat(agentWords).contains(src + ":/data'x");

    // The stand-in ssh writes what the real one would send: its arguments joined by single
    // spaces; the remote command follows the host's name.
    Path seen = dir.resolve("remote-command.txt");
    Path ssh = dir.resolve("ssh");
    Files.writeString(
        ssh, "#!/bin/sh\nprintf '%s' \"$*\" > '" + seen + "'\nexit 1\n", StandardCharsets.UTF_8);
    Files.setPosixFilePermissions(ssh, PosixFilePermissions.fromString("rwxr-xr-x"));
    ProcessBuilder pb =
        new ProcessBuilder(
                // by name, as clusterrun runs it in the container: an absolute path would make
                // Open MPI assume --prefix and prepend its own PATH settings
                "mpirun",
                "--allow-run-as-root",
                "--mca",
                "plm_rsh_agent",
                ssh.toString(),
                "--mca",
                "orte_launch_agent",
                agent,
                "-H",
                "localhost:1,node02:1",
                "-np",
                "2",
                "true")
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.DISCARD);
    pb.environment().put("LC_ALL", "C.UTF-8");
    Process p = pb.start();
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("mpirun gives up on node02").isTrue();
    assertThat(seen).as("mpirun called the stand-in ssh for node02").exists();
    String all = Files.readString(seen, StandardCharsets.UTF_8);
    int host = all.indexOf("node02 ");
    assertThat(host).as("the host in %s", all).isNotNegative();
    String line = all.substring(host + "node02 ".length());

    RealShell shell = new RealShell(dir.resolve("shell"));
    for (String sh : RealShell.SHELLS) {
      List<List<String>> got = shell.words(sh, List.of(line));
      assertThat(got).as("%s reads %s", sh, line).hasSize(1);
      List<String> words = got.get(0);
      assertThat(words.size())
          .as("%s reads %s%n  as %s", sh, line, words)
          .isGreaterThan(agentWords.size());
      assertThat(words.subList(0, agentWords.size())).as("%s: the agent", sh).isEqualTo(agentWords);
      int i = words.indexOf("orte_launch_agent");
      assertThat(i).as("%s: -mca orte_launch_agent in %s", sh, words).isPositive();
      assertThat(words.get(i - 1)).isEqualTo("-mca");
      assertThat(words.get(i + 1)).as("%s: the agent handed on", sh).isEqualTo(agent);
    }
    assertThat(shell.executedSomething()).isFalse();
  }
}
