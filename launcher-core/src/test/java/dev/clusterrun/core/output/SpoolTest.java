package dev.clusterrun.core.output;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clusterrun.core.session.Follower;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A process started through the spool's wrapper writes into regular files, so it never waits for
 * (nor loses output to) a slow reader; the followers pass on every byte, in order, once it ended.
 */
class SpoolTest {
  @TempDir Path tmp;

  private static Process start(Spool s, String script) throws IOException {
    return new ProcessBuilder(s.wrap(List.of("sh", "-c", script))).start();
  }

  @Test
  void aWriterEndsWithoutWaitingForASlowReaderAndEveryByteArrivesInOrder() throws Exception {
    Spool s = Spool.create(tmp.resolve("run/.spool/1"));
    SlowReader out = new SlowReader(Duration.ofSeconds(2), true);
    SlowReader err = new SlowReader(Duration.ZERO, true);
    Follower.Pair f = s.follow(out, err);
    long t = System.nanoTime();
    // 30 MB on stdout, numbered lines, and 1 MB on stderr; a pipe would hold 64 KiB.
    Process p =
        start(
            s, "seq 1 3000000 | sed 's/$/ abcdefghijklmnopqrstu/' ; head -c 1048576 /dev/zero >&2");
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    double wrote = (System.nanoTime() - t) / 1e9;
    assertThat(wrote).as("the writer did not wait for the reader's 2 s").isLessThan(2.0);
    assertThat(f.finish(null)).isTrue();
    byte[] o = out.bytes();
    String text = new String(o, java.nio.charset.StandardCharsets.US_ASCII);
    assertThat(text)
        .startsWith("1 abcdefghijklmnopqrstu\n")
        .endsWith("3000000 abcdefghijklmnopqrstu\n");
    assertThat(text.lines().count()).isEqualTo(3_000_000);
    assertThat(err.bytes()).hasSize(1 << 20);
    s.close();
    assertThat(tmp.resolve("run/.spool")).doesNotExist();
    assertThat(tmp.resolve("run")).exists();
  }

  @Test
  void theSpoolIsPrivateAndAWrapperThatCannotWriteSaysSo() throws Exception {
    Spool s = Spool.create(tmp.resolve(".spool/1"));
    assertThat(
            PosixFilePermissions.toString(Files.getPosixFilePermissions(tmp.resolve(".spool/1"))))
        .isEqualTo("rwx------");
    Path out = tmp.resolve(".spool/1/stdout");
    Files.delete(out);
    Files.createDirectory(out);
    Process p = start(s, "echo never");
    assertThat(p.waitFor(10, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).isNotZero();
    assertThat(new String(p.getErrorStream().readAllBytes())).contains(out.toString());
  }

  @Test
  void wordsReachTheCommandUnchanged() throws Exception {
    Spool s = Spool.create(tmp.resolve(".spool/2"));
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    Follower.Pair f = s.follow(out, new ByteArrayOutputStream());
    Process p =
        new ProcessBuilder(s.wrap(List.of("printf", "[%s]", "a b", "$HOME", "'\"", "-- x", "*")))
            .start();
    assertThat(p.waitFor(10, TimeUnit.SECONDS)).isTrue();
    f.finish(Duration.ofSeconds(10));
    assertThat(out.toString()).isEqualTo("[a b][$HOME]['\"][-- x][*]");
  }
}
