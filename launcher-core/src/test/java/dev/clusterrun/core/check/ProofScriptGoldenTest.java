package dev.clusterrun.core.check;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clusterrun.core.remote.ExecResult;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Pins what each function of the shared-path proof's {@code proof.sh} answers, run with the real
 * {@code sh} on real directories, to a golden file: every outcome a node can report (the head's
 * write made or refused, a read that matches, sees another token, misses the probe, has no
 * directory or no data path, a hostname that cannot name a file), and the head's read-back, removal
 * and renaming.
 */
class ProofScriptGoldenTest {
  private static final String GOLDEN = "proof/functions.expected.txt";

  @TempDir Path tmp;

  @Test
  void everyFunctionAnswersAsTheGoldenFileSays() throws IOException {
    Files.createDirectories(tmp.resolve("shared"));
    Files.writeString(tmp.resolve("file"), "not a directory\n");
    String calls =
        "echo '# write: made, created first, refused, no directory'\n"
            + ProofProbe.call("cr_proof_write", 0, tmp + "/shared//", 0, "P", "head-token")
            + ProofProbe.call("cr_proof_write", 1, tmp + "/ws/new", 1, "P", "ws-token")
            + ProofProbe.call("cr_proof_write", 2, tmp + "/file", 0, "P", "t")
            + ProofProbe.call("cr_proof_write", 3, "", 0, "P", "t")
            + "echo '# read: match and answer by file, by hostname, a bad hostname'\n"
            + ProofProbe.call(
                "cr_proof_read", 0, tmp + "/shared", "P", "head-token", "n1", "node-1")
            + ProofProbe.call(
                "cr_proof_read", 0, tmp + "/shared", "P", "head-token", "n2", "", "n2")
            + ProofProbe.call(
                "cr_proof_read", 0, tmp + "/shared", "P", "head-token", "n3", "", "a b")
            + "echo '# read: another token, no probe, no directory, no data path'\n"
            + ProofProbe.call("cr_proof_read", 0, tmp + "/shared", "P", "other", "n", "f")
            + ProofProbe.call("cr_proof_read", 0, tmp + "/shared", "Q", "head-token", "n", "f")
            + ProofProbe.call("cr_proof_read", 0, tmp + "/none", "P", "head-token", "n", "f")
            + ProofProbe.call("cr_proof_read", 0, "", "P", "head-token", "n", "f")
            + "echo '# the head: read back, rename, remove'\n"
            + ProofProbe.call("cr_proof_collect", "p0.node.0", tmp + "/shared/P/node-1")
            + ProofProbe.call("cr_proof_collect", "p0.node.1", tmp + "/shared/P/node-n2")
            + ProofProbe.call("cr_proof_rename", 0, tmp + "/shared/P", tmp + "/shared/R")
            + ProofProbe.call("cr_proof_rename", 1, tmp + "/shared/P", tmp + "/shared/S")
            + ProofProbe.call("cr_proof_remove", 0, tmp + "/shared/R")
            + "echo '# a node removes its answer the head did not see'\n"
            + "mkdir -p "
            + ProofProbe.q(tmp + "/own/P")
            + " && echo x >"
            + ProofProbe.q(tmp + "/own/P/node-2")
            + "\n"
            + ProofProbe.call("cr_proof_discard", tmp + "/own/P/node-2", tmp + "/own/P")
            + "echo '# left behind:'\n"
            + "ls -A "
            + ProofProbe.q(tmp + "/shared")
            + " "
            + ProofProbe.q(tmp + "/own")
            + "\n";
    ExecResult r = ShNodeShell.of("head", tmp.toString()).run(ProofProbe.script(calls), T);

    assertThat(r.exitCode()).as(r.stderr()).isZero();
    String out = r.stdout().replace(tmp.toString(), "@TMP@");
    if (Boolean.getBoolean("golden.update")) {
      Files.writeString(source(GOLDEN), out);
    }
    assertThat(out).isEqualTo(golden(GOLDEN));
  }

  @Test
  void theIdentityIsTheUsersAsTheShellSeesIt() {
    ExecResult r =
        ShNodeShell.of("head", tmp.toString())
            .withEnv("USER", "alice")
            .run(ProofProbe.script(ProofProbe.call("cr_proof_identity")), T);
    Map<String, String> v = Scripts.parse(r.stdout()).values();
    assertThat(v).containsEntry("user", "alice").containsEntry("home", tmp.toString());
    assertThat(v.get("uid")).matches("[0-9]+");
    assertThat(v.get("gid")).matches("[0-9]+");
  }

  private static final Duration T = Duration.ofSeconds(30);

  static String golden(String name) throws IOException {
    try (InputStream in = ProofScriptGoldenTest.class.getResourceAsStream(name)) {
      assertThat(in).as(name).isNotNull();
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  /** The golden file in the source tree (written with -Dgolden.update=true). */
  private static Path source(String name) {
    return Path.of("src/test/resources/dev/clusterrun/core/check", name);
  }
}
