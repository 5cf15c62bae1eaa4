package dev.clusterrun.core.check;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clusterrun.core.remote.ExecResult;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Runs the real fact script with the real {@code sh} against temporary sysconf dirs and homes. */
class FactScriptTest {
  private static final Duration T = Duration.ofSeconds(30);

  @TempDir Path tmp;
  Path sysconf;
  Path home;

  @BeforeEach
  void setUp() throws IOException {
    sysconf = ShNodeShell.sysconf(tmp);
    home = Files.createDirectories(tmp.resolve("home/alice"));
  }

  private ShNodeShell shell() {
    return ShNodeShell.of("n1", home.toString())
        .withEnv("XDG_RUNTIME_DIR", tmp.resolve("xdg-run").toString());
  }

  private Facts facts(ShNodeShell shell, String... containers) {
    return withTable(shell, null, true, containers);
  }

  /**
   * The facts with the enroot versions {@code table} gives (null: none known), and with the host's
   * mpirun ({@code hostMpi}: as {@code check}).
   */
  private Facts withTable(ShNodeShell shell, String table, boolean hostMpi, String... containers) {
    ExecResult r =
        shell.run(FactScript.render(sysconf.toString(), List.of(containers), table, hostMpi), T);
    assertThat(r.stderr()).isEmpty();
    assertThat(r.exitCode()).isZero();
    Facts f = FactParser.parse(shell.node(), r);
    assertThat(f.problem()).isNull();
    return f;
  }

  private static ShNodeShell asNobody(ShNodeShell s) {
    return s.withPrefix("setpriv", "--reuid=65534", "--regid=65534", "--clear-groups");
  }

  @Test
  void withoutAnyConfigurationEnrootsDocumentedDefaultsApply() {
    Facts f = facts(ShNodeShell.of("n1", home.toString()));
    assertThat(f.enroot().settings().runtimePath().value()).isEqualTo("/run/enroot");
    assertThat(f.enroot().settings().runtimePath().source()).isEqualTo("default");
    assertThat(f.enroot().settings().dataPath().value()).isEqualTo(home + "/.local/share/enroot");
    assertThat(f.enroot().settings().cachePath().value()).isEqualTo(home + "/.cache/enroot");
    assertThat(f.enroot().settings().configPath().value()).isEqualTo(home + "/.config/enroot");
    assertThat(f.enroot().settings().tempPath().value()).isEqualTo("/tmp");
    assertThat(f.enroot().settings().mountHomeOn()).isFalse();
    assertThat(f.enroot().confFiles()).isEmpty();
    assertThat(f.account().uid()).isZero();
    assertThat(f.host().hostname()).isNotEmpty();
    assertThat(f.host().mountNamespace()).startsWith("mnt:[");
  }

  @Test
  void xdgVariablesMoveTheDefaults() {
    Facts f =
        facts(
            shell()
                .withEnv("XDG_DATA_HOME", "/srv/data")
                .withEnv("XDG_CACHE_HOME", "/srv/cache")
                .withEnv("TMPDIR", "/var/tmp"));
    assertThat(f.enroot().settings().runtimePath().value())
        .isEqualTo(tmp.resolve("xdg-run") + "/enroot");
    assertThat(f.enroot().settings().dataPath().value()).isEqualTo("/srv/data/enroot");
    assertThat(f.enroot().settings().cachePath().value()).isEqualTo("/srv/cache/enroot");
    assertThat(f.enroot().settings().tempPath().value()).isEqualTo("/var/tmp");
  }

  @Test
  void theFirstValueEnrootReadsWinsThenTheEnvironmentOverAllWithPerUserExpansion()
      throws Exception {
    // enroot.in: config::load exports NAME=${NAME:-value}, enroot.conf first, then the drop-ins in
    // glob order: a value set by the environment or by an earlier line is kept.
    write(
        sysconf.resolve("enroot.conf"),
        "# comment line\n"
            + "#ENROOT_DATA_PATH /commented/out\n"
            + "ENROOT_DATA_PATH ${HOME}/data-$(id -u)\n"
            + "ENROOT_SQUASH_OPTIONS -noI -noD\n");
    write(
        sysconf.resolve("enroot.conf.d/10-site.conf"),
        "ENROOT_MOUNT_HOME no\nENROOT_CACHE_PATH=/cache/group-$(id -g)\n"
            + "ENROOT_DATA_PATH /from/10\n");
    write(
        sysconf.resolve("enroot.conf.d/50-clusterrun.conf"),
        "ENROOT_DATA_PATH /from/50\n"
            + "ENROOT_MOUNT_HOME yes\n"
            + "ENROOT_RUNTIME_PATH "
            + tmp
            + "/enroot-runtime-$(id -u)"); // no \n
    write(sysconf.resolve("enroot.conf.d/99-ignored.txt"), "ENROOT_RUNTIME_PATH /not/a/conf\n");

    Facts f = facts(shell().withEnv("ENROOT_CACHE_PATH", "/env/cache"));
    assertThat(f.enroot().settings().runtimePath().value()).isEqualTo(tmp + "/enroot-runtime-0");
    assertThat(f.enroot().settings().runtimePath().source())
        .isEqualTo(sysconf + "/enroot.conf.d/50-clusterrun.conf");
    assertThat(f.enroot().settings().runtimePath().line()).isEqualTo(3);
    assertThat(f.enroot().settings().runtimePath().raw())
        .isEqualTo(tmp + "/enroot-runtime-$(id -u)");
    assertThat(f.enroot().settings().dataPath().value())
        .as("enroot.conf comes first")
        .isEqualTo(home + "/data-0");
    assertThat(f.enroot().settings().dataPath().source()).isEqualTo(sysconf + "/enroot.conf");
    assertThat(f.enroot().settings().dataPath().line()).isEqualTo(3);
    assertThat(f.enroot().settings().dataPath().describeSource())
        .isEqualTo(sysconf + "/enroot.conf:3");
    assertThat(f.enroot().settings().cachePath().value()).isEqualTo("/env/cache");
    assertThat(f.enroot().settings().cachePath().source()).isEqualTo("environment");
    assertThat(f.enroot().settings().cachePath().line()).isNull();
    assertThat(f.enroot().settings().mountHomeOn())
        .as("'no' in the first file wins, then unsets")
        .isFalse();
    assertThat(f.enroot().settings().mountHome().source())
        .isEqualTo(sysconf + "/enroot.conf.d/10-site.conf");
    assertThat(f.enroot().settings().mountHome().line()).isEqualTo(1);
    assertThat(f.enroot().settings().mountHome().raw()).isEqualTo("no");
    assertThat(f.enroot().confFiles())
        .extracting(ConfFile::fileName)
        .containsExactly("enroot.conf", "10-site.conf", "50-clusterrun.conf");
    assertThat(f.enroot().confFiles().get(2).sets())
        .containsExactly(
            java.util.Map.entry("ENROOT_DATA_PATH", 1),
            java.util.Map.entry("ENROOT_MOUNT_HOME", 2),
            java.util.Map.entry("ENROOT_RUNTIME_PATH", 3));
    assertThat(f.enroot().confFiles().get(1).sha256())
        .isEqualTo(sha256(sysconf.resolve("enroot.conf.d/10-site.conf")));
    assertThat(f.enroot().configFingerprint())
        .startsWith("enroot.conf " + sha256(sysconf.resolve("enroot.conf")) + "\n");
    assertThat(f.dataInHome()).isTrue();
  }

  /**
   * Each per-user form setup writes expands as enroot's bash expands it, though the fact script
   * runs in sh: {@code $UID} too, which dash does not set.
   */
  @Test
  void perUserFormsExpandAsEnrootsBashDoesWithTheTemplateKept() throws Exception {
    write(
        sysconf.resolve("enroot.conf.d/50-clusterrun.conf"),
        "ENROOT_DATA_PATH /shared/enroot/$UID\n"
            + "ENROOT_CACHE_PATH /shared/cache/${USER}-$(id -g)\n"
            + "ENROOT_RUNTIME_PATH ${HOME}/run-${UID}\n");
    Facts f = facts(shell().withEnv("USER", "alice"));
    assertThat(f.enroot().settings().dataPath().value()).isEqualTo("/shared/enroot/0");
    assertThat(f.enroot().settings().dataPath().raw()).isEqualTo("/shared/enroot/$UID");
    assertThat(f.enroot().settings().dataPath().line()).isEqualTo(1);
    assertThat(f.enroot().settings().cachePath().value()).isEqualTo("/shared/cache/alice-0");
    assertThat(f.enroot().settings().runtimePath().value()).isEqualTo(home + "/run-0");
  }

  @Test
  void enrootsOwnFalseWordsUnsetASettingAndAnEmptyExpansionLetsTheNextLineWin() throws Exception {
    write(
        sysconf.resolve("enroot.conf"),
        "ENROOT_DATA_PATH $NOT_SET_ANYWHERE\nENROOT_MOUNT_HOME F\n");
    write(sysconf.resolve("enroot.conf.d/50-x.conf"), "ENROOT_DATA_PATH /second\n");
    Facts f = facts(shell());
    assertThat(f.enroot().settings().dataPath().value()).isEqualTo("/second");
    assertThat(f.enroot().settings().mountHomeOn()).isFalse();
    for (String on : List.of("yes", "nO", "0", "fALSE")) {
      write(sysconf.resolve("enroot.conf"), "ENROOT_MOUNT_HOME " + on + "\n");
      assertThat(facts(shell()).enroot().settings().mountHomeOn()).as(on).isTrue();
    }
  }

  @Test
  void valuesExpandAsTheUserWhoRunsTheScript() throws Exception {
    write(sysconf.resolve("enroot.conf"), "ENROOT_RUNTIME_PATH " + tmp + "/rt-$(id -u)\n");
    Facts f = facts(asNobody(shell()));
    assertThat(f.account().uid()).isEqualTo(65534);
    assertThat(f.enroot().settings().runtimePath().value()).isEqualTo(tmp + "/rt-65534");
  }

  @Test
  void environmentFalseUnsetsAndEnvironmentBeatsFiles() throws Exception {
    write(sysconf.resolve("enroot.conf"), "ENROOT_MOUNT_HOME y\nENROOT_DATA_PATH /file/data\n");
    Facts on = facts(shell());
    assertThat(on.enroot().settings().mountHomeOn()).isTrue();
    Facts off = facts(shell().withEnv("ENROOT_MOUNT_HOME", "FALSE"));
    assertThat(off.enroot().settings().mountHomeOn()).isFalse();
    assertThat(off.enroot().settings().mountHome().source()).isEqualTo("environment");
    Facts env = facts(shell().withEnv("ENROOT_DATA_PATH", "/env/data"));
    assertThat(env.enroot().settings().dataPath().value()).isEqualTo("/env/data");
  }

  @Test
  void unexpandableValueIsReportedNotFatal() throws Exception {
    write(sysconf.resolve("enroot.conf"), "\nENROOT_DATA_PATH /data/${HOME\n");
    Facts f = facts(shell());
    // enroot carries on with an empty value, so its default applies; the error names the line.
    assertThat(f.enroot().settings().dataPath().value()).isEqualTo(home + "/.local/share/enroot");
    assertThat(f.enroot().settings().dataPath().source()).isEqualTo("default");
    assertThat(f.enroot().settings().dataPath().error()).startsWith(sysconf + "/enroot.conf:2: ");
    assertThat(f.enroot().settings().runtimePath().value()).isNotNull();
  }

  @Test
  void unwritableRuntimePathGivesTheExactErrorAsAnUnprivilegedUser() throws Exception {
    Path locked = Files.createDirectories(tmp.resolve("locked"));
    Files.setPosixFilePermissions(locked, PosixFilePermissions.fromString("rwxr-xr-x"));
    write(
        sysconf.resolve("enroot.conf"),
        "ENROOT_RUNTIME_PATH "
            + locked
            + "/runtime\nENROOT_CACHE_PATH "
            + tmp
            + "/cache-$(id -u)\n"
            + "ENROOT_DATA_PATH "
            + tmp
            + "/data-$(id -u)\n");
    Files.createDirectories(tmp.resolve("cache-65534"));
    Files.createDirectories(tmp.resolve("data-65534"));
    Files.setPosixFilePermissions(
        tmp.resolve("data-65534"), PosixFilePermissions.fromString("rwxr-xr-x"));
    // cache dir exists but is owned by root: not writable for nobody; data dir likewise
    Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rwxrwxrwx"));

    Facts f = facts(asNobody(shell()));
    assertThat(f.storage().runtime().writable()).isFalse();
    assertThat(f.storage().runtime().error())
        .contains("mkdir")
        .contains(locked + "/runtime")
        .contains("Permission denied");
    assertThat(f.storage().cache().writable()).isFalse();
    assertThat(f.storage().cache().error()).contains("touch").contains("Permission denied");
    assertThat(f.storage().data().writable()).isFalse();
  }

  @Test
  void aPathThisUserMayNotCreateIsTriedOnceNotOverAndOver() throws Exception {
    // The write probe retries only while another node's probe makes its directory vanish; a
    // directory this user may not create answers the same way every time.
    Path locked = Files.createDirectories(tmp.resolve("locked"));
    Files.setPosixFilePermissions(locked, PosixFilePermissions.fromString("rwxr-xr-x"));
    Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rwxrwxrwx"));
    write(sysconf.resolve("enroot.conf"), "ENROOT_RUNTIME_PATH " + locked + "/runtime\n");
    Path bin = Files.createDirectories(tmp.resolve("bin"));
    Path calls = tmp.resolve("mkdir-calls");
    Files.writeString(calls, "");
    Files.setPosixFilePermissions(calls, PosixFilePermissions.fromString("rw-rw-rw-"));
    write(
        bin.resolve("mkdir"),
        "#!/bin/sh\necho \"$*\" >>" + calls + "\nexec /usr/bin/mkdir \"$@\"\n");
    Files.setPosixFilePermissions(
        bin.resolve("mkdir"), PosixFilePermissions.fromString("rwxr-xr-x"));
    Files.setPosixFilePermissions(bin, PosixFilePermissions.fromString("rwxr-xr-x"));
    Facts f = facts(asNobody(shell().withEnv("PATH", bin + ":/usr/bin:/bin")));
    assertThat(f.storage().runtime().writable()).isFalse();
    assertThat(f.storage().runtime().error()).contains("Permission denied");
    assertThat(Files.readAllLines(calls).stream().filter(l -> l.contains(locked + "/runtime")))
        .as("mkdir of the runtime path")
        .hasSize(1);
  }

  @Test
  void defaultRuntimePathWithoutXdgRuntimeDirFailsForAnUnprivilegedUser() throws Exception {
    // The field-notes trap: no XDG_RUNTIME_DIR over non-interactive SSH -> /run/enroot.
    // Holds while /run/enroot is absent or closed to others (root-made, 0755, as root's enroot
    // leaves it); only a world-writable one would let nobody in.
    Path run = Path.of("/run/enroot");
    org.junit.jupiter.api.Assumptions.assumeFalse(
        Files.exists(run)
            && Files.getPosixFilePermissions(run)
                .contains(java.nio.file.attribute.PosixFilePermission.OTHERS_WRITE));
    Facts f = facts(asNobody(ShNodeShell.of("n1", home.toString())));
    assertThat(f.enroot().settings().runtimePath().value()).isEqualTo("/run/enroot");
    assertThat(f.storage().runtime().writable()).isFalse();
    assertThat(f.storage().runtime().error()).contains("/run/enroot").contains("Permission denied");
  }

  @Test
  void nodesProbingOneSharedHomeAtOnceAllFindItWritable() throws Exception {
    // A home on NFS: every node probes ~/.cache/enroot at the same moment, and each removes the
    // directories it made. One node's cleanup must not make another's probe fail.
    java.util.concurrent.ExecutorService pool =
        java.util.concurrent.Executors.newFixedThreadPool(6);
    try {
      for (int round = 0; round < 15; round++) {
        List<java.util.concurrent.Future<Facts>> all = new java.util.ArrayList<>();
        for (int n = 0; n < 6; n++) {
          all.add(pool.submit(() -> facts(shell())));
        }
        for (var f : all) {
          Facts facts = f.get();
          assertThat(facts.storage().cache().writable())
              .as("round %d: %s", round, facts.storage().cache())
              .isTrue();
        }
      }
    } finally {
      pool.shutdownNow();
    }
    // (An empty ~/.cache/enroot may stay when probes overlap: a probe removes only directories
    // that did not exist when it started.)
  }

  @Test
  void writeProbesLeaveNoDirectoriesBehind() throws Exception {
    write(sysconf.resolve("enroot.conf"), "ENROOT_RUNTIME_PATH " + tmp + "/a/b/c\n");
    Facts f = facts(shell());
    assertThat(f.storage().runtime().writable()).isTrue();
    assertThat(tmp.resolve("a")).doesNotExist();
  }

  @Test
  void anotherNodeRemovingItsProbeDirectoryMidProbeIsNotAFailure() throws Exception {
    // A shared home: another node probing the same default cache path created it a moment ago
    // and removes it again (its probe leaves nothing behind) right between this node's mkdir -p
    // and its write. A `mkdir` on PATH plays that other node, once: it makes the directory as
    // asked, then the other node takes it away.
    Path cache = tmp.resolve("shared/.cache/enroot");
    write(sysconf.resolve("enroot.conf"), "ENROOT_CACHE_PATH " + cache + "\n");
    Path mkdir =
        onPath(
            "mkdir",
            "#!/bin/sh\n"
                + "/usr/bin/mkdir \"$@\" || exit\n"
                + "case $3 in "
                + cache
                + ") if /usr/bin/mkdir "
                + tmp.resolve("other-node-done")
                + " 2>/dev/null; then rmdir "
                + cache
                + " "
                + cache.getParent()
                + "; fi ;; esac\n");
    Facts f = facts(shell().withEnv("PATH", mkdir.getParent() + ":/usr/bin:/bin"));
    assertThat(tmp.resolve("other-node-done")).isDirectory();
    assertThat(f.storage().cache().writable()).as("%s", f.storage().cache().error()).isTrue();
    // On a shared path the probe keeps what it made (enroot makes it on first use anyway), so
    // it never pulls a directory from under another node's probe.
    assertThat(cache).isDirectory();
  }

  @Test
  void hooksAreListedWithModeOwnerChecksumAndVersion() throws Exception {
    Path hooks = sysconf.resolve("hooks.d");
    Path ours = hooks.resolve("50-clusterrun-launch-agent.sh");
    write(ours, "#!/bin/bash\n# clusterrun-launch-agent-hook version 3\nexit 0\n");
    Files.setPosixFilePermissions(ours, PosixFilePermissions.fromString("rw-r--r--"));
    Path other = hooks.resolve("10-other.sh");
    write(other, "#!/bin/sh\n");
    Files.setPosixFilePermissions(other, PosixFilePermissions.fromString("rwxrwxrwx"));
    Files.setOwner(
        other,
        other.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName("nobody"));

    Facts f = facts(asNobody(shell()));
    HookFile h = f.enroot().systemHook("50-clusterrun-launch-agent.sh").orElseThrow();
    assertThat(h.executable()).isFalse();
    assertThat(h.mode()).isEqualTo("644");
    assertThat(h.uid()).isZero();
    assertThat(h.owner()).isEqualTo("root");
    assertThat(h.version()).isEqualTo(3);
    assertThat(h.sha256()).isEqualTo(sha256(ours));
    assertThat(h.type()).isEqualTo("regular file");
    HookFile o = f.enroot().systemHook("10-other.sh").orElseThrow();
    assertThat(o.uid()).isEqualTo(65534);
    assertThat(o.modeBits() & 0022).isNotZero();
    assertThat(o.executable()).isTrue();
    assertThat(o.version()).isNull();
  }

  @Test
  void everyFileThatNamesAnAgentVariableIsReportedWithItsLine() throws Exception {
    Path hooks = sysconf.resolve("hooks.d");
    Path ours = hooks.resolve("50-clusterrun-launch-agent.sh");
    write(
        ours,
        "#!/bin/sh\n# clusterrun-launch-agent-hook version 1\n"
            + "printf '%s=%s\\n' OMPI_MCA_orte_launch_agent x >> \"$ENROOT_ENVIRON\"\n");
    Path ompi = hooks.resolve("ompi.sh");
    write(
        ompi,
        "#!/bin/bash\n"
            + "# writes OMPI_MCA_orte_launch_agent\n"
            + "echo \"OMPI_MCA_orte_launch_agent=enroot start x orted\" >> \"$ENROOT_ENVIRON\"\n");
    Files.setPosixFilePermissions(ompi, PosixFilePermissions.fromString("rwxr-xr-x"));
    Path userHooks = Files.createDirectories(tmp.resolve("cfg/enroot/hooks.d"));
    write(userHooks.resolve("9-prte.sh"), "export X=1\n  PRTE_MCA_prte_launch_agent=y\n");
    Path environ = Files.createDirectories(sysconf.resolve("environ.d"));
    write(environ.resolve("50-mpi.env"), "A=1\nOMPI_MCA_plm_rsh_agent=ssh -p 2222\n");
    write(environ.resolve("60-other.env"), "B=2\n");
    write(environ.resolve("notes.txt"), "OMPI_MCA_plm_rsh_agent=ignored, not *.env\n");
    write(sysconf.resolve("enroot.conf"), "ENROOT_DATA_PATH /d\nOMPI_MCA_orte_launch_agent x\n");

    Facts f =
        facts(
            shell()
                .withEnv("ENROOT_CONFIG_PATH", tmp.resolve("cfg/enroot").toString())
                .withEnv("PRTE_MCA_plm_ssh_agent", "ssh")
                .withEnv("OMPI_MCA_btl", "tcp,self"));
    assertThat(f.mpi().agents())
        .extracting(
            m ->
                m.kind()
                    + " "
                    + m.place()
                    + " "
                    + m.variable()
                    + " "
                    + m.comment()
                    + " "
                    + m.active())
        .containsExactly(
            "CONFIG " + sysconf + "/enroot.conf:2 OMPI_MCA_orte_launch_agent false true",
            "HOOK " + hooks + "/ompi.sh:2 OMPI_MCA_orte_launch_agent true true",
            "HOOK " + hooks + "/ompi.sh:3 OMPI_MCA_orte_launch_agent false true",
            "HOOK " + userHooks + "/9-prte.sh:2 PRTE_MCA_prte_launch_agent false false",
            "ENVIRON " + environ + "/50-mpi.env:2 OMPI_MCA_plm_rsh_agent false true",
            "ENVIRONMENT the environment PRTE_MCA_plm_ssh_agent false true");
    assertThat(f.mpi().agents().get(3).scope()).isEqualTo("user");
  }

  @Test
  void namedContainersAreLookedUpUnderTheDataPathWithQuotedNames() throws Exception {
    Path data = Files.createDirectories(tmp.resolve("data"));
    Files.createDirectories(data.resolve("pytorch"));
    Files.createDirectories(data.resolve("it's $(x)"));
    Facts f =
        facts(
            shell().withEnv("ENROOT_DATA_PATH", data.toString()),
            "pytorch",
            "missing",
            "it's $(x)");
    assertThat(f.enroot().containers())
        .containsEntry("pytorch", true)
        .containsEntry("missing", false)
        .containsEntry("it's $(x)", true);
    assertThat(f.storage().dataFsType()).isNotBlank();
  }

  @Test
  void aNewlineInAValueCannotForgeAKey() {
    Facts f = facts(shell().withEnv("ENROOT_DATA_PATH", "/x\nuid=4242\\n"));
    assertThat(f.account().uid()).isZero();
    assertThat(f.enroot().settings().dataPath().value()).isEqualTo("/x\nuid=4242\\n");
  }

  @Test
  void gpusAreCountedFromNvidiaSmiWhenPresent() throws Exception {
    Path smi =
        onPath(
            "nvidia-smi",
            "#!/bin/sh\n"
                + "echo 'GPU 0: NVIDIA A100-SXM4-80GB (UUID: GPU-aaa)'\n"
                + "echo 'GPU 1: NVIDIA A100-SXM4-80GB (UUID: GPU-bbb)'\n");
    Facts f = facts(shell().withEnv("PATH", smi.getParent() + ":/usr/bin:/bin"));
    assertThat(f.gpus().count()).isEqualTo(2);
    assertThat(f.gpus().model()).isEqualTo("NVIDIA A100-SXM4-80GB");
    Facts none = facts(shell());
    assertThat(none.gpus().count()).isNull();
  }

  @Test
  void fakeEnrootVersionIsReportedAndItsFailureToo() throws Exception {
    Path enroot = onPath("enroot", "#!/bin/sh\necho 4.1.2\n");
    Facts f = facts(shell().withEnv("PATH", enroot.getParent() + ":/usr/bin:/bin"));
    assertThat(f.enroot().installed()).isTrue();
    assertThat(f.enroot().version()).isEqualTo("4.1.2");
    write(enroot, "#!/bin/sh\necho \"mkdir: cannot create directory '/run/enroot'\" >&2\nexit 1\n");
    Facts bad = facts(shell().withEnv("PATH", enroot.getParent() + ":/usr/bin:/bin"));
    assertThat(bad.enroot().version()).isNull();
    assertThat(bad.enroot().versionError()).contains("exit 1").contains("/run/enroot");
  }

  /**
   * A run's checks and {@code check} give the enroot versions read before: an unchanged executable
   * is not started (its version comes from the table), a reinstalled one (new change time) is, and
   * so is every enroot when no table is given.
   */
  @Test
  void anUnchangedEnrootIsNotStartedAgainOnceItsVersionIsRemembered() throws Exception {
    Path bin = Files.createDirectories(tmp.resolve("bin dir"));
    Path enroot = bin.resolve("enroot");
    Path started = tmp.resolve("started");
    write(enroot, "#!/bin/sh\necho x >>'" + started + "'\necho 4.1.2\n");
    Files.setPosixFilePermissions(enroot, PosixFilePermissions.fromString("rwxr-xr-x"));
    Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rwxrwxrwx"));
    ShNodeShell sh = shell().withEnv("PATH", bin + ":/usr/bin:/bin");
    EnrootVersions memory =
        new EnrootVersions(
            tmp.resolve("ws/.clusterrun/enroot-versions"), java.time.Clock.systemUTC());

    // First run: nothing known, enroot is started, its id and version are learned.
    Facts first = withTable(sh, memory.table(), false);
    assertThat(first.enroot().version()).isEqualTo("4.1.2");
    assertThat(first.raw()).containsKey("enroot.id").doesNotContainKey("enroot.version.remembered");
    memory.learn(List.of(first));
    assertThat(starts(started)).isEqualTo(1);

    // Second run (a new reader of the same file): enroot is not started.
    EnrootVersions again =
        new EnrootVersions(
            tmp.resolve("ws/.clusterrun/enroot-versions"), java.time.Clock.systemUTC());
    Facts second = withTable(sh, again.table(), false);
    assertThat(second.enroot().version()).isEqualTo("4.1.2");
    assertThat(second.raw()).containsEntry("enroot.version.remembered", "yes");
    assertThat(starts(started)).isEqualTo(1);

    // `check` gives the same table: enroot is not started either. Only `check` asks the host's
    // mpirun, which only `check --json` shows.
    Path mpirun = bin.resolve("mpirun");
    write(mpirun, "#!/bin/sh\necho 'mpirun (Open MPI) 4.1.4'\n");
    Files.setPosixFilePermissions(mpirun, PosixFilePermissions.fromString("rwxr-xr-x"));
    Facts checked = withTable(sh, again.table(), true);
    assertThat(checked.enroot().version()).isEqualTo("4.1.2");
    assertThat(checked.raw()).containsEntry("enroot.version.remembered", "yes");
    assertThat(starts(started)).isEqualTo(1);
    assertThat(checked.mpi().version()).isEqualTo("mpirun (Open MPI) 4.1.4");
    assertThat(withTable(sh, again.table(), false).mpi().version()).isNull();
    // Without a table (no workspace to remember in), enroot is started.
    assertThat(facts(sh).enroot().version()).isEqualTo("4.1.2");
    assertThat(starts(started)).isEqualTo(2);
    // A path enroot needs cannot be made: enroot is started after all, so that what it says of
    // that shows too (real enroot makes its directories before any command).
    Facts unusable =
        withTable(
            sh.withEnv("ENROOT_RUNTIME_PATH", "/proc/clusterrun-no-such-dir"), again.table(), true);
    assertThat(unusable.raw()).containsEntry("probe.runtime.writable", "no");
    assertThat(unusable.raw()).doesNotContainKey("enroot.version.remembered");
    assertThat(unusable.enroot().version()).isEqualTo("4.1.2");
    assertThat(starts(started)).isEqualTo(3);

    // Reinstalled (a new file under the same name): started again, and its version is new.
    Path next = bin.resolve("enroot.new");
    write(next, "#!/bin/sh\necho x >>'" + started + "'\necho 4.2.0\n");
    Files.setPosixFilePermissions(next, PosixFilePermissions.fromString("rwxr-xr-x"));
    Files.move(next, enroot, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    Facts third = withTable(sh, again.table(), false);
    assertThat(third.enroot().version()).isEqualTo("4.2.0");
    assertThat(third.raw()).doesNotContainKey("enroot.version.remembered");
    assertThat(starts(started)).isEqualTo(4);
  }

  private static long starts(Path counter) throws IOException {
    return Files.exists(counter) ? Files.readAllLines(counter).size() : 0;
  }

  @Test
  void theScriptIsFast() {
    ShNodeShell s = shell();
    facts(s);
    long start = System.nanoTime();
    facts(s);
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(2));
  }

  /** An executable {@code name} in {@code tmp/bin}, to put first on PATH. */
  private Path onPath(String name, String script) throws IOException {
    Path p = Files.createDirectories(tmp.resolve("bin")).resolve(name);
    write(p, script);
    Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
    return p;
  }

  private static void write(Path p, String text) throws IOException {
    Files.writeString(p, text, StandardCharsets.UTF_8);
  }

  static String sha256(Path p) throws Exception {
    return HexFormat.of()
        .formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(p)));
  }
}
