package dev.clusterrun.core.setup;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clusterrun.core.check.SharedPathProof;
import dev.clusterrun.core.enroot.LaunchAgentHook;
import dev.clusterrun.core.remote.DeadShell;
import dev.clusterrun.core.remote.NodeShell;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs the generated scripts for real with {@code sh} against a temporary sysconf dir. The tests
 * run as root (as setup does on a node), so owners and modes are real.
 */
class NodeSetupTest {
  static final Clock CLOCK = Clock.fixed(Instant.parse("2026-01-02T03:04:05Z"), ZoneOffset.UTC);
  static final String STAMP = ".clusterrun-backup-20260102T030405Z-node1";

  @TempDir Path tmp;
  Path sysconf;
  Path hook;
  Path dropIn;
  SetupSpec spec;

  @BeforeEach
  void setUp() throws IOException {
    sysconf = tmp.resolve("etc enroot");
    Files.createDirectory(sysconf);
    hook = sysconf.resolve("hooks.d/50-clusterrun-launch-agent.sh");
    dropIn = sysconf.resolve("enroot.conf.d/50-clusterrun.conf");
    spec = SetupSpec.of("/shared/enroot").withSysconfDir(sysconf.toString());
  }

  NodeSetup setup(SetupSpec s) {
    return new NodeSetup(s, SharedPathProof.Verdict.assumed(), CLOCK, Duration.ofSeconds(30));
  }

  NodeOutcome apply(SetupSpec s) {
    return setup(s).apply(new LocalShell("node1"));
  }

  static String owner(Path p) {
    return LocalShell.sh("stat -c %u:%g " + p.toString().replace(" ", "\\ ")).strip();
  }

  static String mode(Path p) throws IOException {
    return PosixFilePermissions.toString(
        Files.getPosixFilePermissions(p, LinkOption.NOFOLLOW_LINKS));
  }

  static List<String> names(Path dir) throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return s.map(p -> p.getFileName().toString()).sorted().toList();
    }
  }

  void assertInstalled() throws IOException {
    assertThat(Files.readString(hook)).isEqualTo(LaunchAgentHook.content());
    assertThat(Files.readString(dropIn)).isEqualTo(EnrootDropIn.content(spec));
    assertThat(mode(hook)).isEqualTo("rwxr-xr-x");
    assertThat(mode(dropIn)).isEqualTo("rw-r--r--");
    assertThat(mode(hook.getParent())).isEqualTo("rwxr-xr-x");
    assertThat(mode(dropIn.getParent())).isEqualTo("rwxr-xr-x");
    assertThat(owner(hook)).isEqualTo("0:0");
    assertThat(owner(dropIn)).isEqualTo("0:0");
    assertThat(owner(hook.getParent())).isEqualTo("0:0");
  }

  void write(Path p, String content, String perms) throws IOException {
    Files.createDirectories(p.getParent());
    Files.writeString(p, content, StandardCharsets.UTF_8);
    Files.setPosixFilePermissions(p, PosixFilePermissions.fromString(perms));
  }

  @Test
  void bareNodeGetsBothFilesRootOwnedWithTheRightModes() throws IOException {
    NodeOutcome o = apply(spec);

    assertThat(o.status()).as(o.toString()).isEqualTo(NodeOutcome.Status.CHANGED);
    assertThat(o.changes())
        .extracting(FileChange::path, FileChange::action, FileChange::backup)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(hook.toString(), FileChange.Action.CREATE, null),
            org.assertj.core.groups.Tuple.tuple(dropIn.toString(), FileChange.Action.CREATE, null));
    assertInstalled();
    assertThat(names(hook.getParent())).containsExactly(hook.getFileName().toString());
    assertThat(names(dropIn.getParent())).containsExactly(dropIn.getFileName().toString());
  }

  @Test
  void secondRunChangesNothingAndLeavesFilesUntouched() throws IOException {
    assertThat(apply(spec).status()).isEqualTo(NodeOutcome.Status.CHANGED);
    FileTime old = FileTime.from(Instant.parse("2020-01-01T00:00:00Z"));
    Files.setLastModifiedTime(hook, old);
    Files.setLastModifiedTime(dropIn, old);
    Object hookInode = Files.getAttribute(hook, "unix:ino");

    LocalShell shell = new LocalShell("node1");
    NodeOutcome o = setup(spec).apply(shell);

    assertThat(o).isEqualTo(NodeOutcome.unchanged("node1"));
    assertThat(o.message()).isEqualTo("node1: unchanged");
    assertThat(shell.scripts()).as("one round trip, no write script").hasSize(1);
    assertThat(Files.getLastModifiedTime(hook)).isEqualTo(old);
    assertThat(Files.getLastModifiedTime(dropIn)).isEqualTo(old);
    assertThat(Files.getAttribute(hook, "unix:ino")).isEqualTo(hookInode);
    assertInstalled();
  }

  @Test
  void foreignHookIsRefusedWithoutForceAndNothingIsWritten() throws IOException {
    write(hook, "#!/bin/sh\necho site hook\n", "rwxr-xr-x");

    NodeOutcome o = apply(spec);

    assertThat(o.status()).isEqualTo(NodeOutcome.Status.FAILED);
    assertThat(o.reason())
        .isEqualTo(
            hook + " was not written by clusterrun; use --force to replace it (a backup is kept)");
    assertThat(Files.readString(hook)).isEqualTo("#!/bin/sh\necho site hook\n");
    assertThat(sysconf.resolve("enroot.conf.d")).as("all or nothing").doesNotExist();
    assertThat(names(hook.getParent())).containsExactly(hook.getFileName().toString());
  }

  @Test
  void foreignHookIsReplacedWithForceAndKeptAsBackup() throws IOException {
    write(hook, "#!/bin/sh\necho site hook\n", "rwx------");

    NodeOutcome o = apply(spec.withForce(true));

    assertThat(o.status()).as(o.toString()).isEqualTo(NodeOutcome.Status.CHANGED);
    Path backup = Path.of(hook + STAMP);
    assertThat(o.changes().get(0).action()).isEqualTo(FileChange.Action.REPLACE_FOREIGN);
    assertThat(o.changes().get(0).backup()).isEqualTo(backup.toString());
    assertThat(Files.readString(backup)).isEqualTo("#!/bin/sh\necho site hook\n");
    assertThat(mode(backup)).as("the backup is the old file as it was").isEqualTo("rwx------");
    assertInstalled();
    assertThat(names(hook.getParent()))
        .containsExactly(hook.getFileName().toString(), backup.getFileName().toString());
  }

  @Test
  void olderVersionIsUpgradedWithBackup() throws IOException {
    String v0 = "#!/bin/sh\n# clusterrun-launch-agent-hook version 0\nexit 0\n";
    write(hook, v0, "rwxr-xr-x");

    NodeOutcome o = apply(spec);

    assertThat(o.status()).as(o.toString()).isEqualTo(NodeOutcome.Status.CHANGED);
    FileChange c = o.changes().get(0);
    assertThat(c.action()).isEqualTo(FileChange.Action.UPGRADE);
    assertThat(c.detail()).isEqualTo("version 0 -> 1");
    assertThat(Files.readString(Path.of(hook + STAMP))).isEqualTo(v0);
    assertInstalled();
  }

  @Test
  void changedSettingsUpdateOurDropInWithBackup() throws IOException {
    apply(spec);
    SetupSpec moved = SetupSpec.of("/nfs/enroot").withSysconfDir(sysconf.toString());

    NodeOutcome o = apply(moved);

    assertThat(o.status()).as(o.toString()).isEqualTo(NodeOutcome.Status.CHANGED);
    assertThat(o.changes()).hasSize(1);
    assertThat(o.changes().get(0).action()).isEqualTo(FileChange.Action.UPDATE);
    assertThat(o.changes().get(0).diff())
        .contains("-ENROOT_DATA_PATH /shared/enroot\n+ENROOT_DATA_PATH /nfs/enroot\n");
    assertThat(Files.readString(Path.of(dropIn + STAMP))).isEqualTo(EnrootDropIn.content(spec));
    assertThat(Files.readString(dropIn)).isEqualTo(EnrootDropIn.content(moved));
  }

  @Test
  void aHookThatLostItsExecuteBitIsFixed() throws IOException {
    apply(spec);
    Files.setPosixFilePermissions(hook, PosixFilePermissions.fromString("rw-r--r--"));

    NodeOutcome o = apply(spec);

    assertThat(o.status()).isEqualTo(NodeOutcome.Status.CHANGED);
    assertThat(o.changes())
        .singleElement()
        .satisfies(
            c -> {
              assertThat(c.action()).isEqualTo(FileChange.Action.FIX_PERMISSIONS);
              assertThat(c.detail()).isEqualTo("owner 0:0 mode 0644 -> owner 0:0 mode 0755");
              assertThat(c.backup()).isNull();
            });
    assertInstalled();
  }

  @Test
  void dryRunShowsDiffsAndWritesNothing() throws IOException {
    NodeOutcome o = setup(spec).dryRun(new LocalShell("node1"));

    assertThat(o.status()).isEqualTo(NodeOutcome.Status.WOULD_CHANGE);
    assertThat(o.changes()).hasSize(2);
    assertThat(o.changes().get(1).diff())
        .startsWith("--- /dev/null\n+++ " + dropIn + "\n@@ -0,0 +1,")
        .contains("+ENROOT_DATA_PATH /shared/enroot\n");
    assertThat(names(sysconf)).isEmpty();
  }

  @Test
  void dryRunOfAnOldVersionShowsTheDiffAgainstIt() throws IOException {
    apply(spec);
    String edited =
        Files.readString(dropIn).replace("ENROOT_MOUNT_HOME yes", "ENROOT_MOUNT_HOME no");
    write(dropIn, edited, "rw-r--r--");

    NodeOutcome o = setup(spec).dryRun(new LocalShell("node1"));

    assertThat(o.status()).isEqualTo(NodeOutcome.Status.WOULD_CHANGE);
    assertThat(o.changes())
        .singleElement()
        .extracting(FileChange::diff)
        .asString()
        .contains("-ENROOT_MOUNT_HOME no\n+ENROOT_MOUNT_HOME yes\n");
    assertThat(Files.readString(dropIn)).isEqualTo(edited);
  }

  @Test
  void hooksDirThatIsAFileFailsTheNodeWithoutWritingAnything() throws IOException {
    Files.writeString(sysconf.resolve("hooks.d"), "not a dir\n");

    NodeOutcome o = apply(spec);

    assertThat(o.status()).isEqualTo(NodeOutcome.Status.FAILED);
    assertThat(o.reason()).isEqualTo(sysconf.resolve("hooks.d") + " exists but is not a directory");
    assertThat(names(sysconf)).containsExactly("hooks.d");
  }

  @Test
  void missingSysconfDirMeansEnrootIsNotInstalled() throws IOException {
    SetupSpec elsewhere = spec.withSysconfDir(tmp.resolve("nope").toString());

    NodeOutcome o = apply(elsewhere);

    assertThat(o.status()).isEqualTo(NodeOutcome.Status.FAILED);
    assertThat(o.reason()).startsWith(tmp.resolve("nope") + " does not exist: is enroot installed");
    assertThat(tmp.resolve("nope")).doesNotExist();
  }

  @Test
  void failureAfterTheFirstRenameRollsEverythingBack() throws IOException {
    NodeSetup failing =
        new NodeSetup(spec, SharedPathProof.Verdict.assumed(), CLOCK, Duration.ofSeconds(30), 1);

    NodeOutcome o = failing.apply(new LocalShell("node1"));

    assertThat(o.status()).isEqualTo(NodeOutcome.Status.FAILED);
    assertThat(o.reason()).isEqualTo("failing on purpose (test)");
    assertThat(names(sysconf)).as("new dirs removed, no temp files").isEmpty();
  }

  @Test
  void failureAfterAllRenamesPutsTheOldFilesBack() throws IOException {
    String v0 = "#!/bin/sh\n# clusterrun-launch-agent-hook version 0\nexit 0\n";
    write(hook, v0, "rwxr-x---");
    Object inode = Files.getAttribute(hook, "unix:ino");
    NodeSetup failing =
        new NodeSetup(spec, SharedPathProof.Verdict.assumed(), CLOCK, Duration.ofSeconds(30), 2);

    NodeOutcome o = failing.apply(new LocalShell("node1"));

    assertThat(o.status()).isEqualTo(NodeOutcome.Status.FAILED);
    assertThat(Files.readString(hook)).isEqualTo(v0);
    assertThat(Files.getAttribute(hook, "unix:ino")).as("the very same file").isEqualTo(inode);
    assertThat(mode(hook)).isEqualTo("rwxr-x---");
    assertThat(names(hook.getParent())).containsExactly(hook.getFileName().toString());
    assertThat(sysconf.resolve("enroot.conf.d")).doesNotExist();
  }

  @Test
  void anExistingBackupNameStopsTheNodeBeforeAnyWrite() throws IOException {
    String v0 = "#!/bin/sh\n# clusterrun-launch-agent-hook version 0\nexit 0\n";
    write(hook, v0, "rwxr-xr-x");
    write(dropIn, "# site settings\nENROOT_DATA_PATH /x\n", "rw-r--r--");
    write(Path.of(dropIn + STAMP), "in the way\n", "rw-r--r--");

    NodeOutcome o = apply(spec.withForce(true));

    assertThat(o.status()).isEqualTo(NodeOutcome.Status.FAILED);
    assertThat(o.reason()).isEqualTo(dropIn + STAMP + " already exists");
    assertThat(Files.readString(hook)).isEqualTo(v0);
    assertThat(names(hook.getParent())).containsExactly(hook.getFileName().toString());
    assertThat(Files.readString(dropIn)).isEqualTo("# site settings\nENROOT_DATA_PATH /x\n");
  }

  @Test
  void aFileChangedBetweenReadAndWriteIsNotOverwritten() throws IOException {
    LocalShell racing =
        new LocalShell("node1")
            .afterFirstRun(
                () -> {
                  try {
                    write(hook, "#!/bin/sh\necho raced in\n", "rwxr-xr-x");
                  } catch (IOException e) {
                    throw new UncheckedIOException(e);
                  }
                });

    NodeOutcome o = setup(spec).apply(racing);

    assertThat(o.status()).isEqualTo(NodeOutcome.Status.FAILED);
    assertThat(o.reason()).isEqualTo(hook + " changed since it was read; run setup again");
    assertThat(Files.readString(hook)).isEqualTo("#!/bin/sh\necho raced in\n");
    assertThat(names(hook.getParent())).containsExactly(hook.getFileName().toString());
    assertThat(sysconf.resolve("enroot.conf.d")).doesNotExist();
  }

  @Test
  void nonRootSessionWithoutSudoRightsNeedsRoot() throws IOException {
    LocalShell nobody = new LocalShell("node2", "runuser", "-u", "nobody", "--");

    NodeOutcome o = setup(spec).apply(nobody);

    assertThat(o.status()).isEqualTo(NodeOutcome.Status.FAILED);
    if (Files.isExecutable(Path.of("/usr/bin/sudo"))) {
      assertThat(o.message())
          .isEqualTo("node2: setup needs root: sudo -n failed: a password is required");
    } else {
      assertThat(o.message())
          .isEqualTo("node2: setup needs root: not root, and sudo is not installed");
    }
    assertThat(names(sysconf)).isEmpty();
  }

  @Test
  void unreachableNodeFailsWithTheConnectionError() {
    NodeShell down = new DeadShell("node3", "connection refused");

    NodeOutcome o = setup(spec).apply(down);

    assertThat(o.message())
        .isEqualTo(
            "node3: cannot run the setup script (reading the enroot configuration): connection refused");
  }

  @Test
  void unprovenDataPathBlocksTheDropInAndSoTheWholeNode() throws IOException {
    SharedPathProof.Verdict proof =
        SharedPathProof.Verdict.notProven(Map.of("node1", "node1 cannot see the token"));

    NodeOutcome o =
        new NodeSetup(spec, proof, CLOCK, Duration.ofSeconds(30)).apply(new LocalShell("node1"));

    assertThat(o.status()).isEqualTo(NodeOutcome.Status.FAILED);
    assertThat(o.reason())
        .isEqualTo("data path /shared/enroot is not proven shared: node1 cannot see the token");
    assertThat(names(sysconf)).isEmpty();
  }

  @Test
  void proofIsOnlyNeededWhenTheDropInChanges() throws IOException {
    apply(spec);
    Files.delete(hook);
    SharedPathProof.Verdict proof =
        SharedPathProof.Verdict.notProven(Map.of("node1", "not shared"));

    NodeOutcome o =
        new NodeSetup(spec, proof, CLOCK, Duration.ofSeconds(30)).apply(new LocalShell("node1"));

    assertThat(o.status()).isEqualTo(NodeOutcome.Status.CHANGED);
    assertInstalled();
  }

  @Test
  void installedHookWorksAsEnrootRunsIt() throws IOException {
    apply(spec);
    Path environ = tmp.resolve("environ");
    Files.writeString(environ, "");

    String out =
        LocalShell.sh(
            "ENROOT_ENVIRON="
                + environ
                + " CLUSTERRUN_LAUNCH_AGENT='enroot start n orted' "
                + hook.toString().replace(" ", "\\ ")
                + " && cat "
                + environ);

    assertThat(out)
        .isEqualTo(
            "OMPI_MCA_orte_launch_agent=enroot start n orted\n"
                + "PRTE_MCA_prte_launch_agent=enroot start n orted\n");
  }

  // --- nodes that share one sysconf dir (diskless nodes, an NFS root) ---------------------------

  @Test
  void twoNodesReadingOneSysconfDirSeeOneIdentityAndTheSecondIsAFollower() throws IOException {
    NodeSetup setup = setup(spec);
    NodeSetup.Read one = setup.read(new LocalShell("node1"));
    NodeSetup.Read two = setup.read(new LocalShell("node2"));
    assertThat(one.sysconfId()).matches("\\d+:\\d+").isEqualTo(two.sysconfId());
    java.util.Map<String, NodeSetup.Read> reads = new java.util.HashMap<>();
    reads.put("node1", one);
    reads.put("node2", two);
    reads.put(
        "node3", new NodeSetup.Read("node3", null, NodeOutcome.failed("node3", "x", List.of())));
    assertThat(SetupFlow.sharing(List.of("node1", "node2", "node3"), reads))
        .containsExactly(java.util.Map.entry("node2", "node1"));
    Path other = tmp.resolve("other");
    Files.createDirectory(other);
    NodeSetup.Read elsewhere =
        setup(SetupSpec.of("/shared/enroot").withSysconfDir(other.toString()))
            .read(new LocalShell("node4"));
    assertThat(elsewhere.sysconfId()).isNotNull().isNotEqualTo(one.sysconfId());
  }

  @Test
  void aNodeWhoseSharedFilesAnotherNodeWroteMeanwhileSkipsThemAndDoesNotFail() throws IOException {
    // Both nodes read the bare directory; node1 writes; node2's apply then finds exactly the
    // content it would write: it writes nothing and leaves no backup, and does not fail.
    write(dropIn, "# site settings\nENROOT_DATA_PATH /x\n", "rw-r--r--");
    SetupSpec forced = spec.withForce(true);
    NodeSetup setup = setup(forced);
    LocalShell s1 = new LocalShell("node1");
    LocalShell s2 = new LocalShell("node2");
    NodeSetup.Read r1 = setup.read(s1);
    NodeSetup.Read r2 = setup.read(s2);
    NodeOutcome o1 = setup.run(s1, r1, false);
    NodeOutcome o2 = setup.run(s2, r2, false);
    assertThat(o1.status()).as(o1.toString()).isEqualTo(NodeOutcome.Status.CHANGED);
    assertThat(o2.status()).as(o2.toString()).isEqualTo(NodeOutcome.Status.CHANGED);
    assertThat(o2.changes()).allMatch(c -> c.backup() == null);
    assertThat(names(dropIn.getParent()))
        .containsExactly(dropIn.getFileName().toString(), dropIn.getFileName() + STAMP);
    assertInstalled();
    assertThat(apply(forced).status()).isEqualTo(NodeOutcome.Status.UNCHANGED);
  }

  @Test
  void backupsOfTwoNodesInOneSecondNeverCollide() throws IOException {
    write(dropIn, "# site settings\nENROOT_DATA_PATH /x\n", "rw-r--r--");
    NodeOutcome o1 = setup(spec.withForce(true)).apply(new LocalShell("node1"));
    write(dropIn, "# site settings\nENROOT_DATA_PATH /y\n", "rw-r--r--");
    NodeOutcome o2 = setup(spec.withForce(true)).apply(new LocalShell("node2"));
    String b1 = o1.changes().stream().filter(c -> c.backup() != null).findFirst().get().backup();
    String b2 = o2.changes().stream().filter(c -> c.backup() != null).findFirst().get().backup();
    assertThat(b1).isEqualTo(dropIn + ".clusterrun-backup-20260102T030405Z-node1");
    assertThat(b2).isEqualTo(dropIn + ".clusterrun-backup-20260102T030405Z-node2");
    assertThat(Files.readString(Path.of(b1))).isEqualTo("# site settings\nENROOT_DATA_PATH /x\n");
    assertThat(Files.readString(Path.of(b2))).isEqualTo("# site settings\nENROOT_DATA_PATH /y\n");
  }
}
