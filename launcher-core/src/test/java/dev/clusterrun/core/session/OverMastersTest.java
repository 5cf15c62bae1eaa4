package dev.clusterrun.core.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clusterrun.core.check.ShNodeShell;
import dev.clusterrun.core.remote.ExecResult;
import dev.clusterrun.core.remote.SshMasters;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The session's opening round over the head's logins, with the real {@code sh} and a stand-in
 * {@code ssh} on PATH that runs the command it is given: each login carries the nodes' script, the
 * head runs its own beside them and is heard at once, and every answer is taken once.
 */
class OverMastersTest {
  @TempDir Path tmp;

  @Test
  void theOpeningRidesOnTheLoginsAndTheHeadRunsItsOwnBeside() throws Exception {
    ShNodeShell head =
        ShNodeShell.headWithSsh(
            tmp,
            "for w in \"$@\"; do host=$cmd; cmd=$w; done\n"
                + "if [ \"$host\" = down ]; then echo 'Connection refused' >&2; exit 255; fi\n"
                + "NODE=$host; export NODE\n"
                + "exec sh -c \"$cmd\"\n");
    Map<String, String> heard = new ConcurrentHashMap<>();
    SshMasters masters =
        new SshMasters(Duration.ofSeconds(10))
            .first("echo \"node $NODE\"", "echo head")
            .onHeadAnswer((n, r) -> heard.put(n, r.stdout()));
    OverMasters reach = new OverMasters(masters);

    try (FanOut fan = new FanOut(2)) {
      // no master socket is left by this ssh: every node then gets clusterrun's own connection
      assertThat(reach.reach(head, List.of("n1", "down"), fan)).isEmpty();
    } finally {
      reach.close();
    }

    assertThat(heard).containsExactly(Map.entry("head", "head\n"));
    ExecResult n1 = reach.firstAnswer("n1");
    assertThat(n1.stdout()).isEqualTo("node n1\n");
    assertThat(reach.firstAnswer("n1")).as("taken once").isNull();
    assertThat(reach.firstAnswer("down")).isNull();
    assertThat(reach.firstAnswer("head").stdout()).isEqualTo("head\n");
    assertThat(reach.logins().logins().get("down").error()).isEqualTo("Connection refused");
    assertThat(reach.logins().logins().get("n1").ok()).isTrue();
    assertThat(reach.logins().masters()).isEqualTo(masters.plannedMasters());
    assertThat(Path.of(masters.plannedMasters())).as("closed: removed").doesNotExist();
  }

  @Test
  void withoutMastersNothingIsReachedAndTheOpeningIsTheChecksFirstRound() throws Exception {
    Session.Reach direct = Session.Reach.DIRECT;
    try (FanOut fan = new FanOut(1)) {
      assertThat(direct.reach(ShNodeShell.of("head", tmp.toString()), List.of("n1"), fan))
          .isEmpty();
    }
    assertThat(direct.firstAnswer("n1")).isNull();
    assertThat(direct.logins()).isNull();
  }
}
