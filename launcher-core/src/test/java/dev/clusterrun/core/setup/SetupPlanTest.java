package dev.clusterrun.core.setup;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clusterrun.core.Sha256;
import dev.clusterrun.core.enroot.LaunchAgentHook;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The pure decision: what is on the node + what should be -> what to write, or why not. */
class SetupPlanTest {
  static final String ETC = "/etc/enroot";
  final SetupSpec spec = SetupSpec.of("/shared/enroot");
  final List<DesiredFile> desired = DesiredFile.forSpec(spec);
  final String hook = ETC + "/hooks.d/50-clusterrun-launch-agent.sh";
  final String dropIn = ETC + "/enroot.conf.d/50-clusterrun.conf";

  /** The plan for a node whose etc, hooks.d and enroot.conf.d exist, the hook and drop-in so. */
  SetupPlan plan(boolean force, FileState hookState, FileState dropInState) {
    return SetupPlan.of(state(hookState, dropInState), ETC, desired, force);
  }

  NodeState state(FileState hookState, FileState dropInState) {
    return new NodeState(
        0,
        Map.of(
            ETC,
            NodeState.DirKind.DIR,
            ETC + "/hooks.d",
            NodeState.DirKind.DIR,
            ETC + "/enroot.conf.d",
            NodeState.DirKind.DIR),
        Map.of(hook, hookState, dropIn, dropInState),
        null);
  }

  static FileState file(String path, String content, String owner, int mode) {
    return new FileState(
        path, FileState.Kind.FILE, owner, mode, Sha256.hex(content), content.length(), content);
  }

  FileState ourDropIn() {
    return file(dropIn, EnrootDropIn.content(spec), "0:0", 0644);
  }

  @Test
  void allInPlaceMeansNoChanges() {
    SetupPlan plan = plan(false, file(hook, LaunchAgentHook.content(), "0:0", 0755), ourDropIn());
    assertThat(plan.changes()).isEmpty();
    assertThat(plan.blocked()).isFalse();
  }

  @Test
  void aNewerVersionIsNotDowngradedWithoutForce() {
    String v9 = "#!/bin/sh\n# clusterrun-launch-agent-hook version 9\n";
    SetupPlan plan = plan(false, file(hook, v9, "0:0", 0755), ourDropIn());
    assertThat(plan.problems())
        .containsExactly(
            hook
                + " was written by a newer clusterrun (version 9 > 1); upgrade clusterrun, or use"
                + " --force to go back");
    SetupPlan forced = plan(true, file(hook, v9, "0:0", 0755), ourDropIn());
    assertThat(forced.changes())
        .singleElement()
        .extracting(FileChange::detail)
        .isEqualTo("version 9 -> 1 (downgrade, --force)");
  }

  @Test
  void rightContentWrongOwnerIsFixedWithoutBackup() {
    SetupPlan plan =
        plan(false, file(hook, LaunchAgentHook.content(), "1000:1000", 0755), ourDropIn());
    assertThat(plan.changes())
        .singleElement()
        .satisfies(
            c -> {
              assertThat(c.action()).isEqualTo(FileChange.Action.FIX_PERMISSIONS);
              assertThat(c.action().keepsBackup()).isFalse();
              assertThat(c.diff()).isEmpty();
            });
  }

  @Test
  void symlinksAndDirectoriesAtOurPaths() {
    FileState link = new FileState(hook, FileState.Kind.SYMLINK, "0:0", 0777, null, -1, null);
    FileState dir = new FileState(dropIn, FileState.Kind.OTHER, "0:0", 0755, null, -1, null);
    SetupPlan plan = plan(false, link, dir);
    assertThat(plan.problems())
        .containsExactly(
            hook
                + " is a symbolic link clusterrun did not make; use --force to replace it (a backup is kept)",
            dropIn + " exists but is not a regular file; remove it first");
    SetupPlan forced = plan(true, link, dir);
    assertThat(forced.problems()).as("a directory is never replaced").hasSize(1);
  }

  @Test
  void hugeForeignFileIsReplacedWithForceWithoutShowingIt() {
    FileState big =
        new FileState(dropIn, FileState.Kind.FILE, "0:0", 0644, "ab".repeat(32), 5_000_000, null);
    SetupPlan plan = plan(true, file(hook, LaunchAgentHook.content(), "0:0", 0755), big);
    assertThat(plan.changes())
        .singleElement()
        .satisfies(
            c -> {
              assertThat(c.action()).isEqualTo(FileChange.Action.REPLACE_FOREIGN);
              assertThat(c.diff())
                  .isEqualTo("(current content of " + dropIn + " not shown: 5000000 bytes)\n");
            });
  }

  @Test
  void missingDirsAreCreatedAndEveryProblemIsListed() {
    NodeState bare =
        new NodeState(
            0,
            Map.of(
                ETC,
                NodeState.DirKind.DIR,
                ETC + "/hooks.d",
                NodeState.DirKind.MISSING,
                ETC + "/enroot.conf.d",
                NodeState.DirKind.MISSING),
            Map.of(),
            null);
    SetupPlan plan = SetupPlan.of(bare, ETC, desired, false);
    assertThat(plan.dirsToCreate()).containsExactly(ETC + "/hooks.d", ETC + "/enroot.conf.d");
    assertThat(plan.changes())
        .extracting(FileChange::action)
        .containsExactly(FileChange.Action.CREATE, FileChange.Action.CREATE);

    NodeState broken =
        new NodeState(
            0,
            Map.of(
                ETC,
                NodeState.DirKind.OTHER,
                ETC + "/hooks.d",
                NodeState.DirKind.OTHER,
                ETC + "/enroot.conf.d",
                NodeState.DirKind.MISSING),
            Map.of(),
            null);
    assertThat(SetupPlan.of(broken, ETC, desired, true).problems())
        .containsExactly(
            ETC + " exists but is not a directory", ETC + "/hooks.d exists but is not a directory");
  }

  @Test
  void scriptsArePlainAsciiWhateverTheFilesHold() {
    NodeState bare = new NodeState(0, Map.of(ETC, NodeState.DirKind.DIR), Map.of(), null);
    SetupPlan plan = SetupPlan.of(bare, ETC, desired, false);
    SetupScripts scripts = new SetupScripts(ETC, plan.dirsToCreate(), List.of(hook, dropIn));
    String script =
        SetupScripts.asRoot(scripts.apply(plan, bare, desired, ".clusterrun-backup-x", -1));
    assertThat(script.chars().allMatch(c -> c < 0x80)).isTrue();
    assertThat(EnrootDropIn.content(spec)).contains("—");
    assertThat(SetupScripts.percentB("a\\b—\n")).isEqualTo("a\\\\b\\0342\\0200\\0224\n");
  }
}
