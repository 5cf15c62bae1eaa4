package dev.clusterrun.it;

import static dev.clusterrun.it.LocalCluster.ok;
import static org.assertj.core.api.Assertions.assertThat;

import dev.clusterrun.it.LocalCluster.Result;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.attribute.PosixFilePermission;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The contract between clusterrun and enroot: every behaviour of enroot 4.1.2 that clusterrun
 * relies on, checked by running {@code enroot} on the local cluster's nodes. The enroot stand-in
 * (examples/local-cluster/enroot-standin) lists these behaviours in its header, each with the
 * enroot source it follows; with {@code CLUSTERRUN_IT_REAL_ENROOT=1} (and {@code
 * CLUSTERRUN_IT_IMAGE} from build-image.sh) the very same tests run against a real enroot, so the
 * expectations here come from enroot's source, never from what the stand-in happens to print.
 */
class EnrootContractIT {
  @RegisterExtension static LocalClusterExtension CLUSTER = new LocalClusterExtension(2);

  static LocalCluster c;

  static final String NAME = "contract";
  static String dataPath;
  static String rootfs;
  static String runtimePath;
  static String image;
  static String sysconf;

  @BeforeAll
  static void containerOnASharedDataPath() {
    c = CLUSTER.cluster();
    dataPath = CLUSTER.shared() + "/contract-data/user-" + c.jobUid();
    runtimePath = "/tmp/enroot-runtime-" + c.jobUid();
    Runs.enrootPaths(
        c,
        "contract",
        CLUSTER.shared() + "/contract-data",
        CLUSTER.shared() + "/contract-cache",
        true);
    image = CLUSTER.shared() + "/contract-image.sqsh";
    Runs.containerAt(c, NAME, image);
    rootfs = dataPath + "/" + NAME;
    sysconf = setting(ok(c.exec("node1", "enroot", "info")).stdout(), "ENROOT_SYSCONF_PATH");
  }

  // ---------------------------------------------------------------------------------------------
  // helpers

  static Result fails(Result r) {
    assertThat(r.exitCode()).as("%s", r).isEqualTo(1);
    return r;
  }

  /** {@code enroot start FLAGS... contract CMD...} on node1. */
  static Result start(List<String> flags, String... cmd) {
    return start("node1", Map.of(), flags, cmd);
  }

  static Result start(String node, Map<String, String> env, List<String> flags, String... cmd) {
    List<String> w = new ArrayList<>();
    if (!env.isEmpty()) {
      w.add("env");
      env.forEach((k, v) -> w.add(k + "=" + v));
    }
    w.addAll(List.of("enroot", "start"));
    w.addAll(flags);
    w.add(NAME);
    w.addAll(Arrays.asList(cmd));
    return c.exec(node, false, null, LocalCluster.DEFAULT_TIMEOUT, w);
  }

  /** One line of {@code enroot info}: the effective value, or null when not set. */
  static String setting(String info, String name) {
    for (String l : info.split("\n")) {
      String t = l.strip();
      if (t.startsWith(name + "=")) {
        return t.substring(name.length() + 1);
      }
    }
    return null;
  }

  static String info(String... env) {
    List<String> w = new ArrayList<>(List.of("env"));
    w.addAll(Arrays.asList(env));
    w.addAll(List.of("enroot", "info"));
    return ok(c.exec("node1", false, null, LocalCluster.DEFAULT_TIMEOUT, w)).stdout();
  }

  static String unique(String prefix) {
    return prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
  }

  static String hook(String body) {
    return "#!/bin/sh\n" + body + "\n";
  }

  /** A directory in the shared dir, made by the job user. */
  static String sharedSubdir(String prefix) {
    String d = CLUSTER.shared() + "/" + unique(prefix);
    ok(c.exec("node1", "mkdir", "-p", d));
    return d;
  }

  // ---------------------------------------------------------------------------------------------
  // configuration (enroot.in config::load, config::init, config::export, config::fini)

  @Test
  void firstDefinitionOfASettingWinsAndTheEnvironmentWinsOverAll() {
    c.writeEnrootFile(
        "enroot.conf.d/60-contract-a.conf", "ENROOT_CONNECT_TIMEOUT 11\n", "rw-r--r--");
    c.writeEnrootFile(
        "enroot.conf.d/61-contract-b.conf", "ENROOT_CONNECT_TIMEOUT 22\n", "rw-r--r--");
    try {
      assertThat(setting(info(), "ENROOT_CONNECT_TIMEOUT")).isEqualTo("11");
      assertThat(setting(info("ENROOT_CONNECT_TIMEOUT=33"), "ENROOT_CONNECT_TIMEOUT"))
          .isEqualTo("33");
    } finally {
      c.removeEnrootFile("enroot.conf.d/60-contract-a.conf");
      c.removeEnrootFile("enroot.conf.d/61-contract-b.conf");
    }
  }

  @Test
  void aLaterDropInCannotTurnMountHomeOff() throws IOException {
    // 50-contract.conf says yes; a site drop-in sorting after it says no: the first one wins.
    c.writeEnrootFile("enroot.conf.d/90-site.conf", "ENROOT_MOUNT_HOME no\n", "rw-r--r--");
    String token = unique("home-token");
    ok(c.sh("node1", "echo " + token + " > ~/" + token));
    try {
      assertThat(setting(info(), "ENROOT_MOUNT_HOME")).isEqualTo("yes");
      assertThat(ok(start(List.of(), "sh", "-c", "cat \"$HOME/" + token + "\"")).out())
          .isEqualTo(token);
    } finally {
      c.removeEnrootFile("enroot.conf.d/90-site.conf");
      ok(c.sh("node1", "rm -f ~/" + token));
    }
  }

  @Test
  void valuesAreExpandedAsTheUser() {
    c.writeEnrootFile(
        "enroot.conf.d/60-contract-expand.conf", "ENROOT_ZSTD_OPTIONS -$(id -u)\n", "rw-r--r--");
    try {
      assertThat(setting(info(), "ENROOT_ZSTD_OPTIONS")).isEqualTo("-" + c.jobUid());
    } finally {
      c.removeEnrootFile("enroot.conf.d/60-contract-expand.conf");
    }
  }

  @Test
  void noOrFalseUnsetsASettingButZeroDoesNot() {
    for (String no : List.of("no", "n", "N", "No", "NO", "false", "False", "FALSE", "f")) {
      assertThat(setting(info("ENROOT_MOUNT_HOME=" + no), "ENROOT_MOUNT_HOME")).as(no).isNull();
    }
    assertThat(setting(info("ENROOT_MOUNT_HOME=0"), "ENROOT_MOUNT_HOME")).isEqualTo("0");
    assertThat(setting(info("ENROOT_MOUNT_HOME=nO"), "ENROOT_MOUNT_HOME")).isEqualTo("nO");
  }

  @Test
  void everyCommandCreatesItsDirectoriesFirstVersionIncluded() throws IOException {
    Result r =
        c.exec("node1", "env", "ENROOT_RUNTIME_PATH=/run/enroot-contract", "enroot", "version");
    fails(r);
    assertThat(r.stderr())
        .contains("mkdir: cannot create directory '/run/enroot-contract': Permission denied");
    String data = CLUSTER.shared() + "/" + unique("fresh-data") + "/enroot";
    ok(c.exec("node1", "env", "ENROOT_DATA_PATH=" + data, "enroot", "version"));
    assertThat(Files.getPosixFilePermissions(Paths.get(data)))
        .containsExactlyInAnyOrder(
            PosixFilePermission.OWNER_READ,
            PosixFilePermission.OWNER_WRITE,
            PosixFilePermission.OWNER_EXECUTE);
  }

  // ---------------------------------------------------------------------------------------------
  // start: arguments (runtime::start)

  @Test
  void missingOrInvalidNameFails() {
    Result missing = fails(c.exec("node1", "enroot", "start", "no-such-container", "true"));
    assertThat(missing.stderr())
        .contains("[ERROR] No such file or directory: " + dataPath + "/no-such-container");
    Result slash = fails(c.exec("node1", "enroot", "start", "a/b", "true"));
    assertThat(slash.stderr()).contains("[ERROR] Invalid argument: a/b");
  }

  @Test
  void mountWithWhiteSpaceOrABadEnvNameIsRefused() {
    assertThat(fails(start(List.of("--mount", "/tmp:/a b"), "true")).stderr())
        .contains("[ERROR] Invalid argument: /tmp:/a b");
    assertThat(fails(start(List.of("--mount", "/tmp\t:/x"), "true")).stderr())
        .contains("[ERROR] Invalid argument: /tmp\t:/x");
    assertThat(fails(start(List.of("--env", "1X=y"), "true")).stderr())
        .contains("[ERROR] Invalid argument: 1X=y");
    assertThat(fails(start(List.of("--env", "A-B=1"), "true")).stderr())
        .contains("[ERROR] Invalid argument: A-B=1");
  }

  @Test
  void commandReplacesEnrootStartSoItsPidExitCodeAndSignalsAreTheCommands() {
    Result pid =
        ok(
            c.sh(
                "node1",
                "enroot start " + NAME + " sh -c 'echo inner=$$' & echo outer=$!; wait $!"));
    String[] lines = pid.out().split("\n");
    assertThat(lines).hasSize(2);
    String outer = lines[0].startsWith("outer=") ? lines[0] : lines[1];
    String inner = lines[0].startsWith("inner=") ? lines[0] : lines[1];
    assertThat(inner.substring("inner=".length())).isEqualTo(outer.substring("outer=".length()));

    assertThat(start(List.of(), "sh", "-c", "exit 7").exitCode()).isEqualTo(7);

    String ready = CLUSTER.shared() + "/" + unique("ready");
    Result term =
        ok(
            c.sh(
                "node1",
                "enroot start --mount "
                    + CLUSTER.shared()
                    + " "
                    + NAME
                    + " sh -c 'touch "
                    + ready
                    + "; exec sleep 60' & p=$!;"
                    + " for i in $(seq 300); do [ -e "
                    + ready
                    + " ] && break; sleep 0.1; done;"
                    + " kill -TERM $p; wait $p; echo code=$?"));
    assertThat(term.out()).isEqualTo("code=143");
  }

  // ---------------------------------------------------------------------------------------------
  // exec (enroot.in enroot::exec; runtime::exec; enroot-nsenter.c join_namespaces)

  @Test
  void execJoinsTheContainerOfAProcessWithItsEnvironment() {
    String dir = sharedSubdir("exec");
    ok(c.exec("node1", "sh", "-c", "echo seen > " + dir + "/file"));
    Result r =
        ok(
            c.sh(
                "node1",
                "f=$(mktemp); enroot start --env CR_X=one --mount "
                    + dir
                    + ":/cr-exec "
                    + NAME
                    + " sh -c 'echo $$; cd /cr-exec; exec sleep 60' >$f &"
                    + " for i in $(seq 300); do [ -s $f ] && break; sleep 0.1; done; p=$(cat $f);"
                    + " export CR_W=caller; CR_Y=two enroot exec -e CR_Y -e CR_Z=three $p sh -c"
                    + " 'echo \"x=$CR_X y=$CR_Y z=$CR_Z w=${CR_W-unset} pwd=$(pwd)"
                    + " file=$(cat /cr-exec/file) ns=$(readlink /proc/self/ns/mnt)\"';"
                    + " echo target=$(readlink /proc/$p/ns/mnt) host=$(readlink /proc/self/ns/mnt)"
                    + " here=$(test -e /cr-exec && echo yes || echo no);"
                    + " enroot exec $p sh -c 'exit 7'; echo code=$?; kill $p; wait"));
    List<String> lines = r.out().lines().toList();
    assertThat(lines).hasSize(3);
    String target = lines.get(1).split(" ")[0].substring("target=".length());
    String host = lines.get(1).split(" ")[1].substring("host=".length());
    assertThat(target).isNotEqualTo(host);
    assertThat(lines.get(0))
        .isEqualTo("x=one y=two z=three w=unset pwd=/cr-exec file=seen ns=" + target);
    assertThat(lines.get(1)).endsWith(" here=no");
    assertThat(lines.get(2)).isEqualTo("code=7");
  }

  @Test
  void execRefusesAMissingProcessOrABadEnv() {
    assertThat(fails(c.exec("node1", "enroot", "exec", "999999", "true")).stderr())
        .contains("[ERROR] Process not found: 999999");
    assertThat(fails(c.exec("node1", "enroot", "exec", "-e", "1X=y", "1", "true")).stderr())
        .contains("[ERROR] Invalid argument: 1X=y");
    assertThat(fails(c.exec("node1", "enroot", "exec", "1")).stdout())
        .contains("Usage: enroot exec");
  }

  // ---------------------------------------------------------------------------------------------
  // --mount (enroot-mount.c mount_fstab, mount_entry, mount_generic; runtime::_do_mounts_fini)

  @Test
  void srcColonDstIsARecursiveBindThatCreatesItsMountPointEvenReadOnly() throws IOException {
    String src = sharedSubdir("m-src");
    ok(c.exec("node1", "touch", src + "/seen"));
    String dst = "/" + unique("clusterrun-m");
    assertThat(ok(start(List.of("--mount", src + ":" + dst), "ls", dst)).out()).isEqualTo("seen");
    // The mount point was made in the (otherwise read-only) container, with mode 0000.
    assertThat(Files.getPosixFilePermissions(Paths.get(rootfs + dst))).isEmpty();
  }

  @Test
  void oneFieldMountsTheSourceAtTheSamePath() throws IOException {
    // Not below the shared directory: earlier tests mounted it in this container, which left a
    // mode-0000 mount point there that nobody may pass through when nothing is mounted on it.
    Path src = c.sharedDir().getParent().resolve(unique("contract-same"));
    Files.createDirectories(src);
    Files.writeString(src.resolve("here"), "");
    try {
      assertThat(ok(start(List.of("--mount", src.toString()), "ls", src.toString())).out())
          .isEqualTo("here");
    } finally {
      Files.delete(src.resolve("here"));
      Files.delete(src);
    }
  }

  @Test
  void xCreateAutoMakesAFileForAFileSource() {
    String dir = sharedSubdir("m-file");
    ok(c.sh("node1", "echo content > " + dir + "/f"));
    String dst = "/" + unique("clusterrun-f") + "/f.txt";
    assertThat(ok(start(List.of("--mount", dir + "/f:" + dst), "cat", dst)).out())
        .isEqualTo("content");
    assertThat(Files.isRegularFile(Paths.get(rootfs + dst))).isTrue();
  }

  @Test
  void aMountOptionAsThirdFieldIsANonBindMountOfTypeNone() {
    mountFails(CLUSTER.shared() + ":/opt:ro", CLUSTER.shared(), "/opt", "No such device");
  }

  @Test
  void anUnknownThirdFieldIsAFileSystemType() {
    mountFails(CLUSTER.shared() + ":/opt:clusterrunfs", CLUSTER.shared(), "/opt", "No such device");
  }

  @Test
  void aMissingMountPointWithoutXCreateFails() {
    String missing = "/" + unique("clusterrun-missing");
    String why = "No such file or directory";
    mountFails(CLUSTER.shared() + ":" + missing + ":ro", CLUSTER.shared(), missing, why);
    mountFails("tmpfs:" + missing, "tmpfs", missing, why);
  }

  /**
   * {@code enroot start --mount MOUNT CONTAINER true} fails, enroot-mount saying it failed to mount
   * {@code source} at {@code target} in the rootfs, and {@code why}.
   */
  static void mountFails(String mount, String source, String target, String why) {
    Result r = fails(start(List.of("--mount", mount), "true"));
    assertThat(r.stderr())
        .contains(
            "enroot-mount: failed to mount: " + source + " at " + rootfs + target + ": " + why);
  }

  @Test
  void aReadOnlyBindSaysReadOnlyFileSystem() {
    String src = sharedSubdir("m-ro");
    String dst = "/" + unique("clusterrun-ro");
    Result pyxisStyle =
        start(
            List.of("--mount", src + ":" + dst + ":none:x-create=auto,rbind,ro"),
            "touch",
            dst + "/x");
    assertThat(pyxisStyle.exitCode()).as("%s", pyxisStyle).isNotZero();
    assertThat(pyxisStyle.stderr()).contains("Read-only file system");
    // Options alone (no x-create): the mount point must exist; /opt does in every image.
    Result flags = start(List.of("--mount", src + ":/opt:rbind,ro"), "touch", "/opt/x");
    assertThat(flags.exitCode()).as("%s", flags).isNotZero();
    assertThat(flags.stderr()).contains("Read-only file system");
    assertThat(Files.exists(Paths.get(src, "x"))).isFalse();
  }

  @Test
  void rbindCarriesSubmountsAndBindDoesNot() {
    String tag = unique("clusterrun-b");
    // Inside the container's namespace a tmpfs is mounted at ROOTFS/TAG/sub, then ROOTFS/TAG is
    // mounted elsewhere twice: recursively (the tmpfs comes along) and not.
    List<String> flags =
        List.of(
            "--mount", "tmpfs:/" + tag + "/sub:tmpfs:x-create=dir",
            "--mount", rootfs + "/" + tag + ":/" + tag + "-r:none:x-create=dir,rbind",
            "--mount", rootfs + "/" + tag + ":/" + tag + "-b:none:x-create=dir,bind");
    Result r =
        ok(
            start(
                flags,
                "sh",
                "-c",
                "touch /"
                    + tag
                    + "/sub/in-tmpfs;"
                    + " test -e /"
                    + tag
                    + "-r/sub/in-tmpfs && echo rbind-sees-it;"
                    + " test -e /"
                    + tag
                    + "-b/sub/in-tmpfs || echo bind-does-not"));
    assertThat(r.out()).isEqualTo("rbind-sees-it\nbind-does-not");
  }

  @Test
  void tmpfsWithXCreateIsWritableInAReadOnlyContainer() {
    String dst = "/" + unique("clusterrun-tmp");
    Result r =
        ok(
            start(
                List.of("--mount", "tmpfs:" + dst + ":tmpfs:x-create=dir,mode=1777"),
                "sh",
                "-c",
                "stat -f -c %T " + dst + " && touch " + dst + "/w && echo wrote"));
    assertThat(r.out()).isEqualTo("tmpfs\nwrote");
  }

  @Test
  void xDetachUnmounts() {
    String mounted = "awk '$5 == \"/tmp\"' /proc/self/mountinfo | wc -l";
    assertThat(ok(start(List.of(), "sh", "-c", mounted)).out()).isEqualTo("1");
    assertThat(ok(start(List.of("--mount", "none:/tmp:x-detach"), "sh", "-c", mounted)).out())
        .isEqualTo("0");
  }

  @Test
  void nofailWarnsAndGoesOnSilentDoesNotWarn() {
    String src = "/" + unique("clusterrun-no-such-source");
    Result warned = ok(start(List.of("--mount", src + ":/opt:none:bind,nofail"), "echo", "ran"));
    assertThat(warned.out()).isEqualTo("ran");
    assertThat(warned.stderr())
        .contains(
            "enroot-mount: failed to mount: "
                + src
                + " at "
                + rootfs
                + "/opt: No such file or directory");
    Result silent =
        ok(start(List.of("--mount", src + ":/opt:none:bind,nofail,silent"), "echo", "ran"));
    assertThat(silent.out()).isEqualTo("ran");
    assertThat(silent.stderr()).doesNotContain("enroot-mount");
  }

  // ---------------------------------------------------------------------------------------------
  // read-only rootfs (runtime::_start)

  @Test
  void rootfsIsReadOnlyUnlessRwOrEnrootRootfsWritable() {
    String probe = "/" + unique("clusterrun-rw-probe");
    Result ro = start(List.of(), "touch", probe);
    assertThat(ro.exitCode()).as("%s", ro).isNotZero();
    assertThat(ro.stderr()).contains("Read-only file system");
    ok(start(List.of("--rw"), "touch", probe));
    ok(start("node1", Map.of("ENROOT_ROOTFS_WRITABLE", "yes"), List.of(), "rm", probe));
    assertThat(Files.exists(Paths.get(rootfs + probe))).isFalse();
  }

  // ---------------------------------------------------------------------------------------------
  // environment, hooks and their order (runtime::_do_environ, _do_mounts_init, _do_hooks)

  @Test
  void hooksSeeTheEnrootVariablesAndTheCallersEnvironment() {
    c.writeEnrootFile(
        "hooks.d/60-contract-vars.sh",
        hook(
            "{ echo SEEN_PID=$ENROOT_PID; echo SEEN_ROOTFS=$ENROOT_ROOTFS;"
                + " echo SEEN_ENVIRON=$ENROOT_ENVIRON; echo SEEN_MOUNTS=$ENROOT_MOUNTS;"
                + " echo SEEN_CALLER=$CLUSTERRUN_CONTRACT_CALLER; } >> \"$ENROOT_ENVIRON\""),
        "rwxr-xr-x");
    try {
      Result r =
          ok(
              start(
                  "node1",
                  Map.of("CLUSTERRUN_CONTRACT_CALLER", "from-caller"),
                  List.of(),
                  "sh",
                  "-c",
                  "echo $$; echo $SEEN_PID; echo $SEEN_ROOTFS; echo $SEEN_ENVIRON; echo $SEEN_MOUNTS;"
                      + " echo $SEEN_CALLER; echo ${CLUSTERRUN_CONTRACT_CALLER-unset}"));
      String[] l = r.out().split("\n");
      assertThat(l[1]).isEqualTo(l[0]);
      assertThat(l[2]).isEqualTo(rootfs);
      assertThat(l[3]).startsWith(runtimePath + "/");
      assertThat(l[4]).startsWith(runtimePath + "/");
      assertThat(l[5]).isEqualTo("from-caller");
      assertThat(l[6]).isEqualTo("unset");
    } finally {
      c.removeEnrootFile("hooks.d/60-contract-vars.sh");
    }
  }

  @Test
  void hooksSeeTheSystemMountsButNotYetTheCliMounts() {
    String dst = "/" + unique("clusterrun-cli");
    c.writeEnrootFile(
        "hooks.d/60-contract-order.sh",
        hook(
            "p=no; [ -e \"$ENROOT_ROOTFS/proc/self/status\" ] && p=yes;"
                + " m=no; [ -e \"$ENROOT_ROOTFS"
                + dst
                + "\" ] && m=yes;"
                + " echo \"SEEN_PROC=$p\" >> \"$ENROOT_ENVIRON\"; echo \"SEEN_CLI=$m\" >> \"$ENROOT_ENVIRON\""),
        "rwxr-xr-x");
    try {
      Result r =
          ok(
              start(
                  List.of("--mount", CLUSTER.shared() + ":" + dst),
                  "sh",
                  "-c",
                  "echo $SEEN_PROC $SEEN_CLI; test -d " + dst + " && echo mounted"));
      assertThat(r.out()).isEqualTo("yes no\nmounted");
    } finally {
      c.removeEnrootFile("hooks.d/60-contract-order.sh");
    }
  }

  @Test
  void hooksRunInOrderExecutableOnlySystemThenUserAndALaterOneWins() {
    c.writeEnrootFile(
        "hooks.d/60-contract-a.sh", hook("echo CONTRACT_V=a >> \"$ENROOT_ENVIRON\""), "rwxr-xr-x");
    c.writeEnrootFile(
        "hooks.d/61-contract-b.sh", hook("echo CONTRACT_V=b >> \"$ENROOT_ENVIRON\""), "rwxr-xr-x");
    c.writeEnrootFile(
        "hooks.d/62-contract-c.sh", hook("echo CONTRACT_V=c >> \"$ENROOT_ENVIRON\""), "rw-r--r--");
    try {
      assertThat(ok(start(List.of(), "sh", "-c", "echo $CONTRACT_V")).out()).isEqualTo("b");
      // The user's hooks (ENROOT_CONFIG_PATH/hooks.d) run after the system's, even 00-*.
      ok(
          c.sh(
              "node1",
              "mkdir -p ~/.config/enroot/hooks.d && printf '#!/bin/sh\\necho CONTRACT_V=user"
                  + " >> \"$ENROOT_ENVIRON\"\\n' > ~/.config/enroot/hooks.d/00-contract.sh"
                  + " && chmod 755 ~/.config/enroot/hooks.d/00-contract.sh"));
      assertThat(ok(start(List.of(), "sh", "-c", "echo $CONTRACT_V")).out()).isEqualTo("user");
    } finally {
      c.removeEnrootFile("hooks.d/60-contract-a.sh");
      c.removeEnrootFile("hooks.d/61-contract-b.sh");
      c.removeEnrootFile("hooks.d/62-contract-c.sh");
      ok(c.sh("node1", "rm -f ~/.config/enroot/hooks.d/00-contract.sh"));
    }
  }

  @Test
  void hookLinesWinOverEnvAndHookMountsAreMounted() {
    String src = sharedSubdir("hook-mount");
    ok(c.exec("node1", "touch", src + "/from-hook"));
    String dst = "/" + unique("clusterrun-hook");
    c.writeEnrootFile(
        "hooks.d/60-contract-hook.sh",
        hook(
            "echo CONTRACT_HV=hook >> \"$ENROOT_ENVIRON\"; echo \""
                + src
                + " "
                + dst
                + " none x-create=dir,rbind\" >> \"$ENROOT_MOUNTS\""),
        "rwxr-xr-x");
    try {
      Result r =
          ok(
              start(
                  List.of("--env", "CONTRACT_HV=cli"), "sh", "-c", "echo $CONTRACT_HV; ls " + dst));
      assertThat(r.out()).isEqualTo("hook\nfrom-hook");
    } finally {
      c.removeEnrootFile("hooks.d/60-contract-hook.sh");
    }
  }

  @Test
  void hookStdoutIsDiscardedAndAFailingHookStopsTheStart() {
    c.writeEnrootFile(
        "hooks.d/60-contract-out.sh",
        hook("echo CONTRACT-HOOK-STDOUT; echo CONTRACT-HOOK-STDERR >&2"),
        "rwxr-xr-x");
    try {
      Result r = ok(start(List.of(), "echo", "command-ran"));
      assertThat(r.out()).isEqualTo("command-ran");
      assertThat(r.stderr()).contains("CONTRACT-HOOK-STDERR");
      c.writeEnrootFile("hooks.d/70-contract-fail.sh", hook("exit 3"), "rwxr-xr-x");
      Result failed = fails(start(List.of(), "echo", "command-ran"));
      assertThat(failed.stdout()).doesNotContain("command-ran");
      assertThat(failed.stderr())
          .contains(
              "[ERROR] " + sysconf + "/hooks.d/70-contract-fail.sh exited with return code 3");
    } finally {
      c.removeEnrootFile("hooks.d/60-contract-out.sh");
      c.removeEnrootFile("hooks.d/70-contract-fail.sh");
    }
  }

  @Test
  void environmentIsClearedThenBuiltFromImageEnvironDCliAndHooks() throws IOException {
    // The image's own /etc/environment, as the container directory has it.
    String imageLine =
        Files.readAllLines(Paths.get(rootfs, "etc/environment")).stream()
            .filter(l -> l.matches("[A-Za-z_][A-Za-z0-9_]*=.*"))
            .findFirst()
            .orElseThrow();
    String imageVar = imageLine.substring(0, imageLine.indexOf('='));
    c.writeEnrootFile(
        "environ.d/60-contract.env",
        "CONTRACT_ENVD=${CLUSTERRUN_CONTRACT_IN}\n"
            + "CONTRACT_LAYER=environ.d\n"
            + "  CONTRACT_QUOTED=\"q v\"\n"
            + "ENROOT_CONTRACT=dropped\n"
            + "# CONTRACT_COMMENT=dropped\n",
        "rw-r--r--");
    try {
      Result r =
          ok(
              start(
                  "node1",
                  Map.of("CLUSTERRUN_CONTRACT_IN", "in", "CLUSTERRUN_CONTRACT_HOSTONLY", "host"),
                  List.of("--env", "CONTRACT_LAYER=cli", "--env", "CLUSTERRUN_CONTRACT_IN"),
                  "sh",
                  "-c",
                  "echo \"$"
                      + imageVar
                      + "|$CONTRACT_ENVD|$CONTRACT_LAYER|$CONTRACT_QUOTED|$CLUSTERRUN_CONTRACT_IN"
                      + "|${CLUSTERRUN_CONTRACT_HOSTONLY-unset}|${ENROOT_CONTRACT-unset}"
                      + "|${CONTRACT_COMMENT-unset}\""));
      assertThat(r.out())
          .isEqualTo(
              imageLine.substring(imageVar.length() + 1) + "|in|cli|q v|in|unset|unset|unset");
    } finally {
      c.removeEnrootFile("environ.d/60-contract.env");
    }
  }

  @Test
  void loginEnvironmentComesFromTheContainersPasswd() {
    Result user = ok(start(List.of(), "sh", "-c", "echo \"$USER|$LOGNAME|$HOME|$SHELL|$(id -u)\""));
    assertThat(user.out())
        .isEqualTo(
            c.jobUser() + "|" + c.jobUser() + "|" + c.jobHome() + "|/bin/bash|" + c.jobUid());
    Result root =
        ok(start(List.of("--root"), "sh", "-c", "echo \"$USER|$LOGNAME|$HOME|$(id -u)\""));
    assertThat(root.out()).isEqualTo("root|" + c.jobUser() + "|/root|0");
  }

  @Test
  void workingDirectoryIsHomeUnlessTheImagesRcChangesIt() throws IOException {
    Path rc = Paths.get(rootfs, "etc/rc");
    Path aside = Paths.get(rootfs, "etc/rc.contract-aside");
    boolean had = Files.exists(rc);
    if (had) {
      Files.move(rc, aside);
    }
    try {
      assertThat(ok(start(List.of(), "pwd")).out()).isEqualTo(c.jobHome().toString());
      Files.writeString(rc, "cd /opt || exit 1\nexec \"$@\"\n");
      assertThat(ok(start(List.of(), "pwd")).out()).isEqualTo("/opt");
    } finally {
      Files.deleteIfExists(rc);
      if (had) {
        Files.move(aside, rc);
      }
    }
  }

  @Test
  void confScriptEnvironAndMountsAreUsed() throws IOException {
    String src = sharedSubdir("conf-mount");
    ok(c.exec("node1", "touch", src + "/from-conf"));
    String dst = "/" + unique("clusterrun-conf");
    String conf = src + "/contract.conf";
    Files.writeString(
        Paths.get(conf),
        "environ() {\n  echo CONTRACT_CONF=environ\n}\n"
            + "mounts() {\n  echo \""
            + src
            + " "
            + dst
            + " none x-create=dir,rbind\"\n}\n");
    Result r = ok(start(List.of("--conf", conf), "sh", "-c", "echo $CONTRACT_CONF; ls " + dst));
    assertThat(r.out()).contains("environ").contains("from-conf");
  }

  // ---------------------------------------------------------------------------------------------
  // ENROOT_MOUNT_HOME and ENROOT_REMAP_ROOT (conf/hooks/10-home.sh, enroot-nsenter --remap-root)

  @Test
  void mountHomeBindsTheHomeAtHomeOrAtRootWhenRemapped() {
    String token = unique("home");
    ok(c.sh("node1", "echo " + token + " > ~/" + token));
    try {
      assertThat(ok(start(List.of(), "sh", "-c", "echo $HOME; cat $HOME/" + token)).out())
          .isEqualTo(c.jobHome() + "\n" + token);
      assertThat(ok(start(List.of("--root"), "sh", "-c", "echo $HOME; cat /root/" + token)).out())
          .isEqualTo("/root\n" + token);
      Result off =
          start(
              "node1",
              Map.of("ENROOT_MOUNT_HOME", "no"),
              List.of(),
              "cat",
              c.jobHome() + "/" + token);
      assertThat(off.exitCode()).as("%s", off).isNotZero();
    } finally {
      ok(c.sh("node1", "rm -f ~/" + token));
    }
  }

  @Test
  void remapRootByFlagOrSetting() {
    assertThat(ok(start(List.of(), "id", "-u")).out()).isEqualTo(Integer.toString(c.jobUid()));
    assertThat(ok(start(List.of("--root"), "id", "-u")).out()).isEqualTo("0");
    assertThat(ok(start("node1", Map.of("ENROOT_REMAP_ROOT", "yes"), List.of(), "id", "-u")).out())
        .isEqualTo("0");
    c.writeEnrootFile(
        "enroot.conf.d/60-contract-root.conf", "ENROOT_REMAP_ROOT yes\n", "rw-r--r--");
    try {
      assertThat(ok(start(List.of(), "id", "-u")).out()).isEqualTo("0");
    } finally {
      c.removeEnrootFile("enroot.conf.d/60-contract-root.conf");
    }
  }

  // ---------------------------------------------------------------------------------------------
  // the rootfs lock (runtime::_start: flock -w 30 on ROOTFS/.lock around the hooks)

  @Test
  void rootfsLockTimesOutAfterThirtySeconds() {
    String held = CLUSTER.shared() + "/" + unique("lock-held");
    String release = held + ".release";
    CompletableFuture<Result> holder =
        CompletableFuture.supplyAsync(
            () ->
                c.sh(
                    "node2",
                    "exec flock "
                        + rootfs
                        + "/.lock sh -c 'touch "
                        + held
                        + "; for i in $(seq 900); do [ -e "
                        + release
                        + " ] && exit 0; sleep 0.1; done'"));
    try {
      ok(
          c.sh(
              "node1",
              "for i in $(seq 300); do [ -e " + held + " ] && exit 0; sleep 0.1; done; exit 1"));
      long t0 = System.nanoTime();
      Result r = fails(start(List.of(), "true"));
      Duration waited = Duration.ofNanos(System.nanoTime() - t0);
      assertThat(r.stderr()).contains("[ERROR] Could not acquire rootfs lock");
      assertThat(waited).isGreaterThanOrEqualTo(Duration.ofSeconds(29));
    } finally {
      c.exec("node1", "touch", release);
      ok(holder.join());
    }
  }

  @Test
  void hooksOfTwoStartsOfOneContainerNeverOverlap() throws IOException {
    String log = CLUSTER.shared() + "/" + unique("hook-times");
    ok(c.exec("node1", "touch", log));
    c.writeEnrootFile(
        "hooks.d/60-contract-slow.sh",
        hook(
            "echo \"$(hostname) start $(date +%s%N)\" >> "
                + log
                + "; sleep 2; echo \"$(hostname) end $(date +%s%N)\" >> "
                + log),
        "rwxr-xr-x");
    try {
      CompletableFuture<Result> a =
          CompletableFuture.supplyAsync(() -> start("node1", Map.of(), List.of(), "true"));
      CompletableFuture<Result> b =
          CompletableFuture.supplyAsync(() -> start("node2", Map.of(), List.of(), "true"));
      ok(a.join());
      ok(b.join());
    } finally {
      c.removeEnrootFile("hooks.d/60-contract-slow.sh");
    }
    List<String> lines = Files.readAllLines(Paths.get(log));
    assertThat(lines).hasSize(4);
    // Each hook run ends before the other one starts.
    assertThat(lines.get(0).split(" ")[0]).isEqualTo(lines.get(1).split(" ")[0]);
    assertThat(lines.get(0).split(" ")[1]).isEqualTo("start");
    assertThat(lines.get(1).split(" ")[1]).isEqualTo("end");
    assertThat(lines.get(2).split(" ")[1]).isEqualTo("start");
    assertThat(lines.get(2).split(" ")[0]).isNotEqualTo(lines.get(0).split(" ")[0]);
  }

  // ---------------------------------------------------------------------------------------------
  // starting from an image (runtime::_mount_rootfs)

  @Test
  void sqshStartRunsOnTheRuntimeOverlayAndLeavesNothingBehind() {
    List<String> before = List.of(ok(c.sh("node1", "ls -A " + dataPath)).out().split("\n"));
    c.writeEnrootFile(
        "hooks.d/60-contract-sqsh.sh",
        hook(
            "echo SEEN_ROOTFS=$ENROOT_ROOTFS >> \"$ENROOT_ENVIRON\";"
                + " echo SEEN_FS=$(stat -f -c %T \"$ENROOT_ROOTFS\") >> \"$ENROOT_ENVIRON\""),
        "rwxr-xr-x");
    String probe = "/" + unique("clusterrun-sqsh-probe");
    try {
      Result r =
          ok(
              c.exec(
                  "node1",
                  "enroot",
                  "start",
                  "--rw",
                  image,
                  "sh",
                  "-c",
                  "echo $SEEN_ROOTFS; echo $SEEN_FS; touch " + probe + " && echo wrote"));
      String[] l = r.out().split("\n");
      assertThat(l[0]).isEqualTo(runtimePath + "/overlay");
      if (!c.sqshMode().equals("unpack")) {
        assertThat(l[1]).isEqualTo("overlayfs");
      }
      assertThat(l[2]).isEqualTo("wrote");
      Result again =
          ok(
              c.exec(
                  "node1",
                  "enroot",
                  "start",
                  image,
                  "sh",
                  "-c",
                  "test -e " + probe + " && echo present || echo gone"));
      assertThat(again.out()).as("a write of an earlier start").isEqualTo("gone");
      Result ro = c.exec("node1", "enroot", "start", image, "touch", probe);
      assertThat(ro.stderr()).contains("Read-only file system");
    } finally {
      c.removeEnrootFile("hooks.d/60-contract-sqsh.sh");
    }
    // Nothing left: no runtime files, no container directory, no mount, no fuse process.
    assertThat(ok(c.sh("node1", "ls -A " + runtimePath)).out()).isEmpty();
    assertThat(List.of(ok(c.sh("node1", "ls -A " + dataPath)).out().split("\n")))
        .containsExactlyInAnyOrderElementsOf(before);
    assertThat(ok(c.sh("node1", "grep -c " + runtimePath + " /proc/self/mountinfo || true")).out())
        .isEqualTo("0");
    String fuse =
        "for i in $(seq 50); do ps -u "
            + c.jobUser()
            + " -o stat=,comm= | awk '$1 !~ /^Z/ && $2 ~ /squashfuse|fuse-overlayfs/' > /tmp/fuse-left;"
            + " [ -s /tmp/fuse-left ] || exit 0; sleep 0.1; done; cat /tmp/fuse-left; exit 1";
    ok(c.sh("node1", fuse));
  }

  @Test
  void sqshStartsDoNotShareALock() {
    String dir = sharedSubdir("rendezvous");
    ok(c.exec("node1", "chmod", "777", dir));
    // Each start's hook waits (holding its rootfs lock) until the other start's hook runs too:
    // with one shared lock the first would wait in vain.
    c.writeEnrootFile(
        "hooks.d/60-contract-meet.sh",
        hook(
            "touch "
                + dir
                + "/$(hostname); for i in $(seq 200); do"
                + " [ -e "
                + dir
                + "/node1 ] && [ -e "
                + dir
                + "/node2 ] && exit 0; sleep 0.1; done; exit 1"),
        "rwxr-xr-x");
    try {
      CompletableFuture<Result> a =
          CompletableFuture.supplyAsync(() -> c.exec("node1", "enroot", "start", image, "true"));
      CompletableFuture<Result> b =
          CompletableFuture.supplyAsync(() -> c.exec("node2", "enroot", "start", image, "true"));
      ok(a.join());
      ok(b.join());
    } finally {
      c.removeEnrootFile("hooks.d/60-contract-meet.sh");
    }
  }

  // ---------------------------------------------------------------------------------------------
  // export, create, remove, list (runtime::export, runtime::create, runtime::remove, runtime::list)

  @Test
  void exportKeepsWhatARwContainerWroteButNotTheLockOrMountPoints() {
    String file = "/opt/" + unique("clusterrun-export");
    String mountPoint = "/" + unique("clusterrun-export-mp");
    ok(start(List.of("--rw"), "sh", "-c", "echo kept > " + file));
    ok(start(List.of("--mount", CLUSTER.shared() + ":" + mountPoint), "true"));
    String out = CLUSTER.shared() + "/" + unique("export") + ".sqsh";
    try {
      ok(c.exec("node1", "enroot", "export", "-o", out, NAME));
      String listing = ok(c.exec("node1", "unsquashfs", "-l", out)).stdout();
      assertThat(listing).contains("squashfs-root" + file + "\n");
      assertThat(listing).doesNotContain("squashfs-root" + mountPoint);
      assertThat(listing).doesNotContain("squashfs-root/.lock");
    } finally {
      ok(start(List.of("--rw"), "rm", "-f", file));
      ok(c.exec("node1", "rm", "-f", out));
    }
  }

  @Test
  void exportWritesNameSqshAndRefusesAnExistingFileUnlessForced() {
    String dir = sharedSubdir("export-default");
    String expected = dir + "/" + NAME + ".sqsh";
    ok(c.sh("node1", "cd " + dir + " && enroot export " + NAME));
    assertThat(Files.isRegularFile(Paths.get(expected))).isTrue();
    Result again = fails(c.sh("node1", "cd " + dir + " && enroot export " + NAME));
    assertThat(again.stderr()).contains("[ERROR] File already exists: " + expected);
    ok(c.sh("node1", "cd " + dir + " && enroot export --force " + NAME));
    ok(c.exec("node1", "rm", "-f", expected));
  }

  @Test
  void createRefusesAnExistingNameUnlessForcedAndRemoveDeletesIt() {
    String other = unique("contract-copy");
    ok(c.exec("node1", "enroot", "create", "--name", other, image));
    assertThat(ok(c.exec("node1", "enroot", "list")).stdout().split("\n")).contains(other, NAME);
    Result again = fails(c.exec("node1", "enroot", "create", "--name", other, image));
    assertThat(again.stderr()).contains("[ERROR] File already exists: " + dataPath + "/" + other);
    ok(c.exec("node1", "enroot", "create", "--force", "--name", other, image));
    ok(c.exec("node1", "enroot", "remove", "--force", other));
    assertThat(Files.exists(Paths.get(dataPath, other))).isFalse();
    Result gone = fails(c.exec("node1", "enroot", "remove", "--force", other));
    assertThat(gone.stderr())
        .contains("[ERROR] No such file or directory: " + dataPath + "/" + other);
  }
}
