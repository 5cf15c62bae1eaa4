package dev.clusterrun.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The launcher script as cron, a systemd unit or {@code ssh host clusterrun …} start it: without a
 * locale ({@code LANG} unset, so POSIX). Java would then read and pass on every character outside
 * ASCII as '?'; the launcher runs it with UTF-8 characters, so a command word such as {@code é😀}
 * reaches the plan (and enroot, and mpirun) as it was typed.
 */
class LauncherLocaleIT {
  @TempDir Path dir;

  @Test
  void aWordOutsideAsciiReachesThePlanWithoutALocale() throws Exception {
    Path launcher = Path.of("target", "clusterrun").toAbsolutePath();
    assertThat(launcher).as("the launcher the build leaves in target/").isExecutable();
    Path hosts = Files.writeString(dir.resolve("hosts.txt"), "node01 slots=1\n");
    // The word is made by printf from octal escapes: this JVM would pass it on as '?' itself
    // when it runs without a UTF-8 locale.
    String script =
        "w=$(printf '\\303\\251\\360\\237\\230\\200'); "
            + "exec env -u LANG -u LC_ALL -u LC_CTYPE -u LC_MESSAGES \"$0\" plan --json --nodes"
            + " \"$1\" --container-image=ubuntu -- echo \"$w\"";
    List<String> cmd = new ArrayList<>(List.of("sh", "-c", script, launcher.toString()));
    cmd.add(hosts.toString());
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(false);
    pb.environment().put("HOME", dir.toString());
    Process p = pb.start();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    Thread e = new Thread(() -> copy(p.getErrorStream(), err));
    e.start();
    copy(p.getInputStream(), out);
    assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
    e.join();
    String stderr = err.toString(StandardCharsets.UTF_8);
    assertThat(p.exitValue()).as(stderr).isZero();
    JsonNode plan = new ObjectMapper().readTree(out.toString(StandardCharsets.UTF_8));
    JsonNode argv = plan.path("launch").path("argv");
    assertThat(argv.get(argv.size() - 1).asText()).isEqualTo("é\uD83D\uDE00");
  }

  private static void copy(InputStream in, ByteArrayOutputStream out) {
    try (in) {
      in.transferTo(out);
    } catch (java.io.IOException ignored) {
      // the process ended
    }
  }
}
