package dev.clusterrun.core.setup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertAll;

import dev.clusterrun.core.GoldenText;
import dev.clusterrun.core.Sha256;
import dev.clusterrun.core.remote.ExecResult;
import dev.clusterrun.core.remote.NodeShell;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The setup scripts ({@code setup.sh}, {@code as-root.sh}) and the exact words clusterrun sends
 * with them, pinned to golden files; and the scripts run with bash against real files whose names
 * and contents are hostile to a shell.
 */
class SetupScriptsTest {
  static final String ETC = "/etc/enroot";

  static DesiredFile file(String label, String path, String content, int mode) {
    return new DesiredFile(label, path, content, mode, 1, t -> OptionalInt.empty());
  }

  static FileState foreign(String path, FileState.Kind kind, String content) {
    return new FileState(path, kind, "0:0", 0640, Sha256.hex(content), content.length(), content);
  }

  @Test
  void theScriptsAndTheWordsSentWithThemAreTheGoldenOnes() {
    String hook = ETC + "/hooks.d/50 it's.sh";
    String conf = ETC + "/enroot.conf.d/50-clusterrun.conf";
    String link = ETC + "/environ.d/$(x).env";
    List<DesiredFile> desired =
        List.of(
            file("hook", hook, "#!/bin/sh\necho 'a\\b' \u2014 $HOME\n", 0755),
            file("drop-in", conf, "ENROOT_DATA_PATH /shared\n", 0644),
            file("environ", link, "A=1\n", 0644));
    NodeState current =
        new NodeState(
            0,
            Map.of(
                ETC,
                NodeState.DirKind.DIR,
                ETC + "/hooks.d",
                NodeState.DirKind.MISSING,
                ETC + "/enroot.conf.d",
                NodeState.DirKind.DIR,
                ETC + "/environ.d",
                NodeState.DirKind.DIR),
            Map.of(
                conf,
                foreign(conf, FileState.Kind.FILE, "ENROOT_DATA_PATH /old\n"),
                link,
                foreign(link, FileState.Kind.SYMLINK, "B=2\n")),
            null);
    SetupPlan plan = SetupPlan.of(current, ETC, desired, true);
    assertThat(plan.problems()).isEmpty();
    SetupScripts scripts =
        new SetupScripts(
            ETC, plan.dirsToCreate(), desired.stream().map(DesiredFile::path).toList());

    String apply = scripts.apply(plan, current, desired, ".clusterrun-backup-20260102T030405Z", -1);
    assertAll(
        () -> GoldenText.assertMatches(scripts.read(), getClass(), "golden/read.expected.txt"),
        () -> GoldenText.assertMatches(apply, getClass(), "golden/apply.expected.txt"),
        () ->
            GoldenText.assertMatches(
                SetupScripts.asRoot("echo 'it''s'\n"), getClass(), "golden/as-root.expected.txt"));
  }

  /** Runs each script with {@code bash -c} (as root, on this machine) instead of {@code sh -c}. */
  static LocalShell bash() {
    return new LocalShell("bash-node", "bash", "-c", "shift; exec bash \"$@\"", "bash");
  }

  static NodeState read(SetupScripts scripts, NodeShell shell) {
    ExecResult r = shell.run(SetupScripts.asRoot(scripts.read()), Duration.ofSeconds(30));
    assertThat(r.exitCode()).as(r.toString()).isZero();
    return NodeState.parse(r.stdout(), scripts.probedDirs(), scripts.probedFiles());
  }

  @Test
  void hostileNamesAndContentsArriveExactlyAndAFailureRollsBack(@TempDir Path tmp)
      throws IOException {
    // The scripts run in /: a word run as a command would leave this file there.
    String mark = "clusterrun-pwned-" + tmp.getFileName();
    Path pwned = Path.of("/", mark);
    String evil = "it's $(touch " + mark + ") `touch " + mark + "` \"q\" \\ *;\nx";
    Path etc = Files.createDirectories(tmp.resolve("etc " + evil));
    Path dir = etc.resolve("d " + evil);
    String content = "#!/bin/sh\n" + evil + "\n\u2014 \\0101 %s %b\n";
    Path a = dir.resolve("a " + evil);
    Path b = etc.resolve("b " + evil);
    Files.writeString(b, "old\n");
    List<DesiredFile> desired =
        List.of(file("a", a.toString(), content, 0750), file("b", b.toString(), content, 0600));
    SetupScripts scripts =
        new SetupScripts(etc.toString(), List.of(dir.toString()), List.of(a + "", b + ""));
    LocalShell shell = bash();
    NodeState before = read(scripts, shell);
    assertThat(before.file(b.toString()).content()).isEqualTo("old\n");
    SetupPlan plan = SetupPlan.of(before, etc.toString(), desired, true);
    assertThat(plan.dirsToCreate()).containsExactly(dir.toString());

    // Failing after the first rename undoes everything: the new file, the directory, the backup.
    ExecResult failed =
        shell.run(
            SetupScripts.asRoot(scripts.apply(plan, before, desired, ".bak " + evil, 1)),
            Duration.ofSeconds(30));
    assertThat(failed.exitCode()).isEqualTo(1);
    assertThat(failed.stderr()).contains(SetupScripts.ERROR + "failing on purpose (test)");
    assertThat(names(tmp)).containsExactly(etc.getFileName().toString());
    assertThat(names(etc)).containsExactly(b.getFileName().toString());
    assertThat(Files.readString(b)).isEqualTo("old\n");

    ExecResult applied =
        shell.run(
            SetupScripts.asRoot(scripts.apply(plan, before, desired, ".bak " + evil, -1)),
            Duration.ofSeconds(30));
    assertThat(applied.exitCode()).as(applied.toString()).isZero();
    assertThat(Files.readAllBytes(a)).isEqualTo(content.getBytes(StandardCharsets.UTF_8));
    assertThat(Files.readAllBytes(b)).isEqualTo(content.getBytes(StandardCharsets.UTF_8));
    assertThat(Files.readString(Path.of(b + ".bak " + evil))).isEqualTo("old\n");
    assertThat(NodeSetupTest.mode(a)).isEqualTo("rwxr-x---");
    assertThat(NodeSetupTest.mode(dir)).isEqualTo("rwxr-xr-x");
    assertThat(Files.exists(pwned)).isFalse();
    NodeState after = read(scripts, shell);
    assertThat(SetupPlan.of(after, etc.toString(), desired, false).changes()).isEmpty();
  }

  @Test
  void aReplacedSymbolicLinkIsKeptAsALink(@TempDir Path tmp) throws IOException {
    Path etc = Files.createDirectories(tmp.resolve("etc"));
    Path target = Files.writeString(tmp.resolve("site's env"), "B=2\n");
    Path link = Files.createSymbolicLink(etc.resolve("l $(x)"), target);
    List<DesiredFile> desired = List.of(file("l", link.toString(), "A=1\n", 0644));
    SetupScripts scripts = new SetupScripts(etc.toString(), List.of(), List.of(link.toString()));
    NodeState before = read(scripts, bash());
    SetupPlan plan = SetupPlan.of(before, etc.toString(), desired, true);
    ExecResult r =
        bash()
            .run(
                SetupScripts.asRoot(scripts.apply(plan, before, desired, ".bak", -1)),
                Duration.ofSeconds(30));
    assertThat(r.exitCode()).as(r.toString()).isZero();
    assertThat(Files.isSymbolicLink(link)).isFalse();
    assertThat(Files.readString(link)).isEqualTo("A=1\n");
    Path backup = Path.of(link + ".bak");
    assertThat(Files.readSymbolicLink(backup)).isEqualTo(target);
    assertThat(Files.readString(target)).isEqualTo("B=2\n");
  }

  static List<String> names(Path dir) throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return s.map(p -> p.getFileName().toString()).sorted().toList();
    }
  }
}
