package dev.clusterrun.core.remote;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clusterrun.core.check.ShNodeShell;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Pins what the head's logins script ({@code logins.sh}, with its arguments set as {@link
 * SshLogins#script} sets them) prints, run with the real {@code sh} and a stand-in {@code ssh} on
 * PATH, to a golden file: the masters' directory, each node's output and error output framed by the
 * mark, and each login's exit code.
 */
class LoginsScriptGoldenTest {
  private static final String GOLDEN = "logins/kept-with-a-command.expected.txt";
  private static final String MARK = "clusterrun-0123456789abcdef";

  @TempDir Path tmp;

  @Test
  void theScriptPrintsWhatTheGoldenFileSays() throws IOException {
    ShNodeShell head =
        ShNodeShell.headWithSsh(
            tmp,
            "for w in \"$@\"; do host=$cmd; cmd=$w; done\n"
                + "case $host in\n"
                + "  down) echo 'ssh: connect to host down port 22: Connection refused' >&2; exit 255 ;;\n"
                + "esac\n"
                + "NODE=$host; export NODE\n"
                + "exec sh -c \"$cmd\"\n");
    String dir = SshMasters.newMastersDir();
    String script =
        SshLogins.script(
            List.of("n1", "down", "it's"),
            SshLogins.Ask.kept(dir).running("echo \"on $NODE\"; echo oops >&2; exit 3"),
            MARK,
            25);
    ExecResult r;
    try {
      r = head.run(script, Duration.ofSeconds(30));
    } finally {
      SshMasters.closeMasters(head, dir, Duration.ofSeconds(30));
    }

    assertThat(Path.of(dir)).doesNotExist();
    assertThat(r.exitCode()).as(r.stderr()).isZero();
    String out = r.stdout().replace(dir, "@MASTERS@");
    if (Boolean.getBoolean("golden.update")) {
      Files.writeString(Path.of("src/test/resources/dev/clusterrun/core/remote", GOLDEN), out);
    }
    assertThat(out).isEqualTo(golden());
  }

  private static String golden() throws IOException {
    try (InputStream in = LoginsScriptGoldenTest.class.getResourceAsStream(GOLDEN)) {
      assertThat(in).as(GOLDEN).isNotNull();
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }
}
