package dev.clusterrun.core.setup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clusterrun.core.BadInputException;
import dev.clusterrun.core.enroot.PathTemplate;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EnrootDropInTest {
  @TempDir Path tmp;

  @Test
  void defaultDropInReadsAsExpected() {
    SetupSpec spec = SetupSpec.of("/shared/enroot");
    String text = EnrootDropIn.content(spec);

    assertThat(text.lines().findFirst().orElseThrow())
        .isEqualTo(
            "# clusterrun enroot drop-in version 1 — managed by clusterrun setup; do not edit");
    assertThat(settings(text))
        .containsExactly(
            Map.entry("ENROOT_DATA_PATH", "/shared/enroot"),
            Map.entry("ENROOT_MOUNT_HOME", "yes"),
            Map.entry(
                "ENROOT_RUNTIME_PATH", "${XDG_RUNTIME_DIR:-/tmp/enroot-runtime-$(id -u)}/enroot"));
    assertThat(text).contains("predictable").endsWith("\n");
    assertThat(EnrootDropIn.versionOf(text)).hasValue(EnrootDropIn.VERSION);
    assertThat(spec.sysconfDir()).isEqualTo("/etc/enroot");
  }

  @Test
  void optionalCachePathAndNoHome() {
    SetupSpec spec =
        new SetupSpec(
            "/shared/enroot", false, "/run/enroot-user/$(id -u)", "/scratch/c", false, null);

    assertThat(settings(EnrootDropIn.content(spec)))
        .containsExactly(
            Map.entry("ENROOT_DATA_PATH", "/shared/enroot"),
            Map.entry("ENROOT_MOUNT_HOME", "no"),
            Map.entry("ENROOT_RUNTIME_PATH", "/run/enroot-user/$(id -u)"),
            Map.entry("ENROOT_CACHE_PATH", "/scratch/c"));
  }

  @Test
  void versionOfIgnoresOtherFiles() {
    assertThat(EnrootDropIn.versionOf("ENROOT_DATA_PATH /x\n")).isEmpty();
    assertThat(EnrootDropIn.versionOf("# clusterrun enroot drop-in version \n")).isEmpty();
    assertThat(EnrootDropIn.versionOf("# clusterrun enroot drop-in version 12 — x\n")).hasValue(12);
  }

  /**
   * enroot checks a config file with {@code bash -n} and expands each value with the shell, for the
   * user who runs it. Literal paths must come out as given, whatever they hold; the runtime path
   * must follow XDG_RUNTIME_DIR when the session has one and fall back per uid otherwise.
   */
  @Test
  void bashAcceptsTheFileAndValuesExpandAsIntended() throws IOException {
    String weird = "/shared/my enroot/it's ; * ~ \\ (x) \"q\"";
    SetupSpec spec = new SetupSpec(weird, true, null, "/c/a b", false, null);
    Path conf = tmp.resolve("50-clusterrun.conf");
    Files.writeString(conf, EnrootDropIn.content(spec));

    LocalShell.sh("bash -n " + conf);
    Map<String, String> values = settings(EnrootDropIn.content(spec));
    String uid = LocalShell.sh("id -u").strip();

    assertThat(expand(values.get("ENROOT_DATA_PATH"), "")).isEqualTo(weird);
    assertThat(expand(values.get("ENROOT_CACHE_PATH"), "")).isEqualTo("/c/a b");
    assertThat(expand(values.get("ENROOT_RUNTIME_PATH"), ""))
        .isEqualTo("/tmp/enroot-runtime-" + uid + "/enroot");
    assertThat(expand(values.get("ENROOT_RUNTIME_PATH"), "/run/user/7"))
        .isEqualTo("/run/user/7/enroot");
  }

  /**
   * A per-user data path (and cache path) is written unquoted, exactly as given, and bash (enroot's
   * {@code eval echo}) expands it to what clusterrun's own expansion for the sharing proof gives.
   */
  @Test
  void eachPerUserFormIsWrittenUnquotedAndBashExpandsItAsClusterrunDoes() throws IOException {
    String uid = LocalShell.sh("id -u").strip();
    String gid = LocalShell.sh("id -g").strip();
    PathTemplate.Identity me =
        new PathTemplate.Identity(
            uid, gid, Objects.toString(System.getenv("USER"), ""), System.getenv("HOME"));
    for (String form :
        List.of(
            "/shared/enroot/$(id -u)",
            "/shared/enroot/$(id -g)",
            "/shared/enroot/$UID",
            "/shared/enroot/${UID}",
            "/shared/enroot/$USER",
            "/shared/enroot/${USER}",
            "$HOME/enroot",
            "${HOME}/enroot")) {
      SetupSpec spec = new SetupSpec(form, true, null, form + "/cache", false, null);
      String text = EnrootDropIn.content(spec);
      Path conf = tmp.resolve("50-clusterrun.conf");
      Files.writeString(conf, text);
      LocalShell.sh("bash -n " + conf);
      Map<String, String> values = settings(text);
      assertThat(values.get("ENROOT_DATA_PATH")).as(form).isEqualTo(form);
      assertThat(values.get("ENROOT_CACHE_PATH")).as(form).isEqualTo(form + "/cache");
      assertThat(text).as(form).contains("# One directory per user");
      String expected = spec.dataPathTemplate().expand(me);
      assertThat(expected).as(form).doesNotContain("$").doesNotContain("id -");
      assertThat(expandLikeEnroot(values.get("ENROOT_DATA_PATH"))).as(form).isEqualTo(expected);
    }
    assertThat(EnrootDropIn.content(SetupSpec.of("/shared/enroot")))
        .doesNotContain("One directory per user");
  }

  @Test
  void anyOtherExpansionIsRefusedForEveryPathFlag() {
    assertThatThrownBy(() -> SetupSpec.of("/shared/$(touch /tmp/x)"))
        .isInstanceOf(BadInputException.class)
        .hasMessageStartingWith("--data-path: a command '$(touch /tmp/x)' is not accepted");
    assertThatThrownBy(() -> new SetupSpec("/a", true, null, "/c/`id -u`", false, null))
        .hasMessageStartingWith("--cache-path: a backquote '`id -u`' is not accepted");
    assertThatThrownBy(() -> new SetupSpec("/a", true, "/r/${UID:-0}", null, false, null))
        .hasMessageStartingWith("--runtime-path: an expansion '${UID:-0}' is not accepted");
    assertThatThrownBy(() -> new SetupSpec("/a", true, "/r/$UID;id", null, false, null))
        .hasMessageStartingWith("--runtime-path: ';' in '/r/$UID;id' is not accepted");
  }

  /** As enroot 4.1.2's config::load: {@code $(eval echo "${value}")}, in bash. */
  static String expandLikeEnroot(String value) throws IOException {
    ProcessBuilder pb = new ProcessBuilder("bash", "-c", "eval echo \"$1\"", "bash", value);
    return output(pb).strip();
  }

  @Test
  void specRejectsBadPaths() {
    assertThatThrownBy(() -> SetupSpec.of("shared/enroot"))
        .isInstanceOf(BadInputException.class)
        .hasMessage("--data-path: must be an absolute path, got 'shared/enroot'");
    assertThatThrownBy(() -> SetupSpec.of("/a\nENROOT_X y"))
        .isInstanceOf(BadInputException.class)
        .hasMessageStartingWith("--data-path: must not contain control characters");
    assertThatThrownBy(() -> new SetupSpec("/a", true, "/x\n/y", null, false, null))
        .isInstanceOf(BadInputException.class)
        .hasMessageStartingWith("--runtime-path: ");
    assertThatThrownBy(() -> new SetupSpec("/a", true, null, "cache", false, null))
        .hasMessageStartingWith("--cache-path: ");
    assertThatThrownBy(() -> new SetupSpec("/a", true, null, null, false, "etc/enroot"))
        .hasMessageStartingWith("--sysconf-dir: ");
    assertThat(new SetupSpec("/a", true, null, null, false, "/opt/etc/enroot/").sysconfDir())
        .isEqualTo("/opt/etc/enroot");
  }

  /** NAME VALUE lines: the name, then the rest of the line. */
  static Map<String, String> settings(String text) {
    Map<String, String> m = new LinkedHashMap<>();
    for (String line : text.lines().toList()) {
      if (line.isBlank() || line.startsWith("#")) {
        continue;
      }
      int sp = line.indexOf(' ');
      m.put(line.substring(0, sp), line.substring(sp + 1));
    }
    return m;
  }

  /** The value as bash expands it: its words after expansion, joined by one space. */
  static String expand(String value, String xdgRuntimeDir) throws IOException {
    ProcessBuilder pb =
        new ProcessBuilder("bash", "-c", "eval \"set -- $1\"; printf %s \"$*\"", "bash", value);
    pb.environment().remove("XDG_RUNTIME_DIR");
    if (!xdgRuntimeDir.isEmpty()) {
      pb.environment().put("XDG_RUNTIME_DIR", xdgRuntimeDir);
    }
    return output(pb);
  }

  /** What the process prints on stdout, its stderr passed on; it must exit 0. */
  private static String output(ProcessBuilder pb) throws IOException {
    Process p = pb.redirectError(ProcessBuilder.Redirect.INHERIT).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    try {
      assertThat(p.waitFor()).isZero();
    } catch (InterruptedException e) {
      throw new AssertionError(e);
    }
    return out;
  }
}
