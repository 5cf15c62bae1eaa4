package dev.clusterrun.core.launch.head;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.clusterrun.core.output.SlowReader;
import dev.clusterrun.core.output.Spool;
import dev.clusterrun.core.session.Follower;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Debian's real mpirun, six ranks of 20 MB, its standard output non-blocking as OpenSSH's ssh
 * leaves the output it shares with mpirun (ssh makes its standard output non-blocking unless it is
 * a terminal, and the daemons' ssh share mpirun's), and a reader that takes nothing for 3 s.
 * Through a pipe mpirun then drops what it still holds when it ends (seen here: 64 740 of 121 212
 * 120 bytes, exit 0); through the spool every byte arrives.
 */
class SpooledMpirunTest {
  @TempDir Path tmp;

  static final long BYTES = 121_212_120L;

  private static boolean onPath(String p) {
    for (String d : System.getenv().getOrDefault("PATH", "").split(":")) {
      if (Files.isExecutable(Path.of(d, p))) {
        return true;
      }
    }
    return false;
  }

  @Test
  void mpirunWithANonBlockingOutputLosesNothingThroughTheSpool() throws Exception {
    boolean have = onPath("mpirun") && onPath("perl");
    if ("true".equals(System.getenv("CI"))) {
      assertThat(have).as("mpirun and perl (install-deps.sh installs openmpi-bin)").isTrue();
    }
    assumeTrue(have, "mpirun or perl missing");
    String job =
        "perl -MFcntl -e 'fcntl(STDOUT, F_SETFL, fcntl(STDOUT, F_GETFL, 0) | O_NONBLOCK) or die'"
            + " && exec mpirun --allow-run-as-root --oversubscribe -np 6 sh -c"
            + " 'head -c 20000000 /dev/zero | tr \"\\0\" x | fold -w 99'";
    for (int i = 1; i <= 3; i++) {
      Spool spool = Spool.create(tmp.resolve(".spool/" + i));
      SlowReader out = new SlowReader(Duration.ofSeconds(3), false);
      HeadProcess p =
          HeadProcess.startSpooled(
              List.of("sh", "-c", job), Map.of(), spool, OutputStream.nullOutputStream(), false);
      Follower.Pair f = p.spool().follow(out, OutputStream.nullOutputStream());
      assertThat(p.waitFor(Duration.ofSeconds(120))).isTrue();
      assertThat(p.waitFor()).isZero();
      f.finish(null);
      spool.close();
      assertThat(out.count()).as("bytes of run %d", i).isEqualTo(BYTES);
    }
  }
}
