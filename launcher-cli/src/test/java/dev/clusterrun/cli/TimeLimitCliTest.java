package dev.clusterrun.cli;

import static dev.clusterrun.cli.CliTest.on2x8;
import static dev.clusterrun.cli.CliTest.planU1;
import static dev.clusterrun.cli.CliTest.run;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --time} as srun's {@code -t} reads: the flag, {@code CLUSTERRUN_TIME} and the job file's
 * {@code time:}, each bad value refused with exit 2 naming where it came from; {@code plan} shows
 * the limit and its source; run, hpl and bench take it.
 */
class TimeLimitCliTest {
  @Test
  void aBadValueIsRefusedNamingTheFlagTheVariableOrTheFileAndLine(@TempDir Path tmp)
      throws Exception {
    CliTest.Run flag = planU1("--time=10 minutes");
    assertThat(flag.code()).isEqualTo(2);
    assertThat(flag.err()).contains("--time").contains("expected MM, MM:SS, HH:MM:SS");

    List<String> a = on2x8("plan");
    a.addAll(List.of("--container-image=u:1", "--", "x"));
    CliTest.Run env =
        run(Map.of("HOME", "/home/tester", "CLUSTERRUN_TIME", "soon"), a.toArray(String[]::new));
    assertThat(env.code()).isEqualTo(2);
    assertThat(env.err()).contains("CLUSTERRUN_TIME").contains("'soon'");

    Path job = tmp.resolve("job.yaml");
    Files.writeString(job, "container: {image: u:1}\ntime: 1:2:3:4\ncommand: [x]\n");
    CliTest.Run file = run(on2x8("plan", job.toString()), new String[0]);
    assertThat(file.code()).isEqualTo(2);
    assertThat(file.err()).contains("job.yaml:2").contains("time");

    for (String cmd : List.of("hpl", "bench")) {
      List<String> b = on2x8(cmd);
      if (cmd.equals("bench")) {
        b.add(1, "hpcc");
      }
      b.addAll(List.of("--dry-run", "--time=-3"));
      CliTest.Run r = run(b.toArray(String[]::new));
      assertThat(r.code()).as("%s: %s", cmd, r.err()).isEqualTo(2);
      assertThat(r.err()).as(cmd).contains("--time");
    }
  }

  @Test
  void planShowsTheLimitAndWhereItCameFromAndNothingWithoutOne(@TempDir Path tmp) throws Exception {
    assertThat(planU1().out()).doesNotContainPattern("(?m)^time ");
    assertThat(planU1("-t", "1-2:30").out())
        .containsPattern("(?m)^time +1d 2h 30m +flag \\(--time;");

    Path job = tmp.resolve("job.yaml");
    Files.writeString(job, "container: {image: u:1}\ntime: 90s\ncommand: [x]\n");
    CliTest.Run file = run(on2x8("plan", job.toString()), new String[0]);
    assertThat(file.code()).as(file.err()).isZero();
    assertThat(file.out()).containsPattern("(?m)^time +1m 30s +file \\(.*job.yaml;");

    List<String> a = on2x8("plan", job.toString());
    CliTest.Run env =
        run(Map.of("HOME", "/home/tester", "CLUSTERRUN_TIME", "2h"), a.toArray(String[]::new));
    assertThat(env.out()).containsPattern("(?m)^time +2h +environment \\(CLUSTERRUN_TIME;");
  }
}
