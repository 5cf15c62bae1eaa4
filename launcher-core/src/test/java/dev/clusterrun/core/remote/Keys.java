package dev.clusterrun.core.remote;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Key files made by the real ssh-keygen, as users have them. */
public final class Keys {
  private Keys() {}

  public static Path keygen(Path dir, String name, String type, String passphrase)
      throws Exception {
    Path key = dir.resolve(name);
    Process p =
        new ProcessBuilder(
                List.of(
                    "ssh-keygen",
                    "-q",
                    "-t",
                    type,
                    "-N",
                    passphrase,
                    "-C",
                    name,
                    "-f",
                    key.toString()))
            .redirectErrorStream(true)
            .start();
    String out = new String(p.getInputStream().readAllBytes());
    assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as(out).isZero();
    return key;
  }
}
