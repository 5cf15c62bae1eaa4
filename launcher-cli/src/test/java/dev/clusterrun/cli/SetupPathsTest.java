package dev.clusterrun.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * {@code setup}'s path flags as a user meets them: a per-user template enroot expands is taken, any
 * other expansion is bad input (exit 2) naming the flag and the part, before any node is reached.
 */
class SetupPathsTest {
  static CliTest.Run setup(String... paths) {
    String[] args = new String[4 + paths.length];
    args[0] = "setup";
    args[1] = "--nodes";
    args[2] = CliTest.path("hostfiles/2x8.txt");
    args[3] = "--dry-run";
    System.arraycopy(paths, 0, args, 4, paths.length);
    return CliTest.run(args);
  }

  @Test
  void anotherExpansionIsRefusedWithExit2NamingTheFlagAndThePart() {
    CliTest.Run r = setup("--data-path", "/shared/enroot/$(whoami)");
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.out()).isEmpty();
    assertThat(r.err())
        .startsWith("clusterrun: --data-path: a command '$(whoami)' is not accepted")
        .contains("$(id -u), $(id -g), $UID, ${UID}, $USER, ${USER}, $HOME, ${HOME}")
        .doesNotContain("Exception");

    r = setup("--data-path", "/shared/enroot/$(id -u)", "--cache-path", "/c/`id -u`");
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err()).startsWith("clusterrun: --cache-path: a backquote '`id -u`'");

    r = setup("--data-path", "/shared/enroot/$(id -u)", "--runtime-path", "/r/${UID:-0}");
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err()).startsWith("clusterrun: --runtime-path: an expansion '${UID:-0}'");

    r = setup("--data-path", "/shared/enroot/$UID;reboot");
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err()).startsWith("clusterrun: --data-path: ';' in '/shared/enroot/$UID;reboot'");
  }
}
