package dev.clusterrun.core.terminal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** clusterrun's input read from a terminal only in the foreground, other input as it is. */
class ForegroundInputTest {
  @Test
  void theForegroundIsTheTerminalsGroupBeingOurs() {
    // pid (comm) state ppid pgrp session tty_nr tpgid ...; a command name may hold ") ".
    assertThat(ForegroundInput.foreground("42 (java) S 1 42 42 34816 42 4194560 0")).isTrue();
    assertThat(ForegroundInput.foreground("42 (a) b (c) S 1 42 42 34816 77 4194560 0")).isFalse();
  }

  @Test
  void anInputThatIsNoTerminalIsReadAsItIs() throws Exception {
    // The tests' standard input is not a terminal (or the check says so): nothing waits.
    ForegroundInput in =
        new ForegroundInput(new ByteArrayInputStream("l1\nl2\n".getBytes(StandardCharsets.UTF_8)));
    assertThat(new String(in.readAllBytes(), StandardCharsets.UTF_8)).isEqualTo("l1\nl2\n");
  }
}
