package dev.clusterrun.it;

import static dev.clusterrun.it.ClusterrunExtension.RUN_TIMEOUT;
import static dev.clusterrun.it.LocalCluster.ok;
import static org.assertj.core.api.Assertions.assertThat;

import dev.clusterrun.it.LocalCluster.Result;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Pyxis's own behaviour tests ({@code NVIDIA/pyxis tests/*.bats}: mounts, workdir, name, env_vars,
 * mount_home, remap_root, writable, squashfs_image, entrypoint, concurrency), every case that has a
 * meaning without Slurm, ported to {@code clusterrun run} in Pyxis's own syntax ({@code run --nodes
 * H --container-image=IMG CMD ARGS}, no {@code --}) on the local 3-node cluster. Cases are grouped
 * into few runs where one run still proves each of them (one command checks several mounts). Most
 * run on the head alone ({@code srun -N1} in Pyxis's tests); the read-only mount runs on every
 * node, through the launch agent. The argument cases ({@code invalid_args.bats}) are unit tests:
 * {@code PyxisArgsTest}.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class PyxisCasesIT {
  @RegisterExtension
  static final ClusterrunExtension HEAD = new ClusterrunExtension(3, "hosts", 1, "ws");

  static String hosts1;
  static String pyx;

  /** The job's image as a squashfs file on the shared filesystem, by absolute path. */
  static String image;

  /** Shell functions for the commands: is PATH a mount point; the file system type at PATH. */
  static final String MOUNT_FUNCTIONS =
      "m() { awk -v p=\"$1\" '$5==p{f=1} END{exit !f}' /proc/self/mountinfo; }\n"
          + "t() { awk -v p=\"$1\" '$5==p{for(i=7;i<=NF;i++) if($i==\"-\"){print $(i+1); exit}}'"
          + " /proc/self/mountinfo; }\n";

  @BeforeAll
  static void setupAndImage() {
    LocalCluster c = HEAD.cluster();
    pyx = HEAD.shared() + "/pyx";
    hosts1 = HEAD.shared() + "/hosts-head";
    ok(c.exec("node1", "mkdir", "-p", pyx + "/ro-src", pyx + "/gone-src"));
    c.writeAsJobUser(hosts1, "node1 slots=1\n");
    c.writeAsJobUser(pyx + "/ro-src/marker", "ro-marker\n");
    c.writeAsJobUser(pyx + "/script.txt", "script-marker\n");
    Runs.keepMpiOnClusterNetwork(c);
    HEAD.setup(HEAD.shared() + "/enroot-data");
    image = pyx + "/base.sqsh";
    Runs.imageFileAt(c, image);
  }

  // ------------------------------------------------------------------ mounts.bats

  /**
   * mounts.bats: absolute directory, regular file, character device, current working directory,
   * multiple entries, short form, tmpfs, read-only directory, umount; all in one container.
   */
  @Test
  @Order(1)
  void mountsAsPyxisTakesThem() {
    String mounts =
        String.join(
            ",",
            "/home:/test-mnt",
            "./pyx/script.txt:/script.txt",
            "/dev/null:/null",
            "./pyx:/cwd-mnt",
            "/var/lib",
            "tmpfs:/mytmpfs",
            "./pyx/ro-src:/mnt/ro:ro",
            "./pyx/gone-src:/gone",
            "umount:/gone");
    String script =
        MOUNT_FUNCTIONS
            + "m /test-mnt && echo P1=home-mounted\n"
            + "echo P2=$(cat /script.txt)\n"
            + "[ -c /null ] && echo P3=chardev\n"
            + "m /cwd-mnt && echo P4=$(cat /cwd-mnt/script.txt)\n"
            + "m /var/lib && echo P5=bare-source-mounted\n"
            + "echo P6=$(t /mytmpfs)\n"
            + "echo P7=$(cat /mnt/ro/marker)\n"
            + "echo P8=$(touch /mnt/ro/new 2>&1)\n"
            + "if m /gone; then echo P9=still-mounted; else echo P9=detached; fi\n";
    List<String> args =
        List.of(
            "--nodes",
            hosts1,
            "--container-image=" + image,
            "--no-canary",
            "--container-mounts=" + mounts,
            "sh",
            "-c",
            script);
    // plan shows the relative sources absolute, and the words enroot gets.
    Result plan = ok(clusterrun(List.of(), "plan", args));
    assertThat(plan.stdout())
        .contains("--mount " + pyx + "/script.txt:/script.txt ")
        .contains("--mount " + pyx + ":/cwd-mnt ")
        .contains("--mount /var/lib:/var/lib ")
        .contains("--mount tmpfs:/mytmpfs:tmpfs:x-create=dir ")
        .contains("--mount " + pyx + "/ro-src:/mnt/ro:none:x-create=auto,rbind,ro ")
        .contains("--mount umount:/gone:none:x-detach ");

    Result r = ok(clusterrun(List.of(), "run", args));
    assertThat(lines(r.stdout(), "P"))
        .containsExactly(
            "P1=home-mounted",
            "P2=script-marker",
            "P3=chardev",
            "P4=script-marker",
            "P5=bare-source-mounted",
            "P6=tmpfs",
            "P7=ro-marker",
            "P8=touch: cannot touch '/mnt/ro/new': Read-only file system",
            "P9=detached");
  }

  /**
   * mounts.bats "read-only directory", on every node: the head's container and every remote
   * daemon's (through the launch agent) get the same words, and writing says so.
   */
  @Test
  @Order(2)
  void aReadOnlyMountIsReadOnlyOnEveryNode() {
    Result r =
        ok(
            clusterrun(
                List.of(),
                "run",
                List.of(
                    "--nodes",
                    HEAD.hosts(),
                    "--container-image=" + image,
                    "--container-mounts=./pyx/ro-src:/data:ro",
                    "sh",
                    "-c",
                    "echo \"R $(hostname) $(cat /data/marker) $(touch /data/x 2>&1)\"")));
    assertThat(lines(r.stdout(), "R"))
        .containsExactlyInAnyOrder(
            "R node1 ro-marker touch: cannot touch '/data/x': Read-only file system",
            "R node2 ro-marker touch: cannot touch '/data/x': Read-only file system",
            "R node3 ro-marker touch: cannot touch '/data/x': Read-only file system");
    assertThat(Paths.get(pyx, "ro-src", "x")).doesNotExist();
  }

  @Test
  @Order(3)
  void aMissingMountSourceIsNamedBeforeAnyNode() {
    Result r =
        headRun(
            "--container-image=" + image,
            "--container-mounts=/tmp:/mnt,/nonexistent/path:/mnt2",
            "true");
    assertThat(r.exitCode()).as("%s", r).isEqualTo(2);
    assertThat(r.stderr())
        .contains(
            "clusterrun: --container-mounts: mount source path does not exist: /nonexistent/path");
  }

  // ------------------------------------------------------------------ env_vars.bats, remap_root

  /**
   * env_vars.bats: PYXIS_CONTAINER_IMAGE, _MOUNTS (the flag wins), _WORKDIR, _REMAP_ROOT, _ENV;
   * workdir.bats "absolute target"; remap_root.bats "uid map"; env.bats "passthrough", with
   * clusterrun's meaning: only the variables named by --container-env cross.
   */
  @Test
  @Order(4)
  void pyxisVariablesWorkdirRemapRootAndContainerEnv() {
    String script =
        MOUNT_FUNCTIONS
            + "echo V pwd=$(pwd) uid=$(id -u) map=$(awk '{print $1 \"-\" $2}' /proc/self/uid_map)"
            + " foo=${FOO:-} bar=${BAR:-}\n"
            + "m /mnt-cli && echo V cli-mounted\n"
            + "m /mnt-env && echo V env-mounted\n"
            + "true\n";
    Result r =
        ok(
            clusterrun(
                List.of(
                    "PYXIS_CONTAINER_IMAGE=" + image,
                    "PYXIS_CONTAINER_MOUNTS=/home:/mnt-env",
                    "PYXIS_CONTAINER_WORKDIR=/usr/local/bin",
                    "PYXIS_CONTAINER_REMAP_ROOT=1",
                    "PYXIS_CONTAINER_ENV=FOO",
                    "FOO=bar",
                    "BAR=baz"),
                "run",
                List.of(
                    "--nodes",
                    hosts1,
                    "--no-canary",
                    "--container-mounts=/tmp:/mnt-cli",
                    "sh",
                    "-c",
                    script)));
    assertThat(lines(r.stdout(), "V"))
        .containsExactly(
            "V pwd=/usr/local/bin uid=0 map=0-" + HEAD.cluster().jobUid() + " foo=bar bar=",
            "V cli-mounted");
  }

  /** workdir.bats "target doesn't exist". */
  @Test
  @Order(5)
  void aWorkdirThatDoesNotExistFails() {
    Result r = onHead("--container-image=" + image, "--container-workdir=/pyxis", "true");
    assertThat(r.exitCode()).as("%s", r).isNotZero();
    assertThat(r.stdout() + r.stderr()).contains("/pyxis");
  }

  /**
   * writable.bats, env_vars.bats PYXIS_CONTAINER_WRITABLE/READONLY and their precedence,
   * mount_home.bats with and without the home.
   */
  @Test
  @Order(6)
  void readOnlyOrWritableWithOrWithoutTheHome() {
    String script =
        MOUNT_FUNCTIONS
            + "echo W=$(touch /newfile 2>&1 && echo written)\n"
            + "if m \"$HOME\"; then echo H=home-mounted; else echo H=no-home; fi\n";
    Result ro =
        ok(
            onHeadWith(
                List.of("PYXIS_CONTAINER_WRITABLE=1"),
                "--container-image=" + image,
                "--container-readonly",
                "--no-container-mount-home",
                "sh",
                "-c",
                script));
    assertThat(lines(ro.stdout(), "W"))
        .containsExactly("W=touch: cannot touch '/newfile': Read-only file system");
    assertThat(lines(ro.stdout(), "H")).containsExactly("H=no-home");

    Result rw =
        ok(
            onHeadWith(
                List.of("PYXIS_CONTAINER_READONLY=0"),
                "--container-image=" + image,
                "--container-mount-home",
                "sh",
                "-c",
                script));
    assertThat(lines(rw.stdout(), "W")).containsExactly("W=written");
    assertThat(lines(rw.stdout(), "H")).containsExactly("H=home-mounted");
  }

  // ------------------------------------------------------------------ name.bats

  /**
   * name.bats "named container persistence" and "named container manual remove": a named container
   * keeps what a job wrote, a name alone uses it, and a name alone fails once it is gone.
   */
  @Test
  @Order(7)
  void namedContainersPersistAndANameAloneUsesThem() {
    ok(
        onHead(
            "--container-image=" + image,
            "--container-name=pyx-named",
            "--container-writable",
            "sh",
            "-c",
            "echo pyxis > /marker-file"));
    Result again = ok(onHead("--container-name=pyx-named", "cat", "/marker-file"));
    assertThat(again.stdout()).contains("pyxis");
    assertThat(again.stderr())
        .contains("container pyx-named: using the existing container")
        .doesNotContain("null");

    ok(HEAD.cluster().exec("node1", "enroot", "remove", "-f", "pyx-named"));
    Result gone = onHead("--container-name=pyx-named", "true");
    assertThat(gone.exitCode()).as("%s", gone).isEqualTo(4);
    assertThat(gone.stderr()).contains("pyx-named does not exist");
  }

  // ------------------------------------------------------------------ squashfs_image.bats

  /**
   * squashfs_image.bats "--container-save relative path" and "import - export - import": a job
   * writes into a container started from a relative squashfs path and saves it; a read-only one
   * started from the saved file sees the change and is saved too.
   */
  @Test
  @Order(8)
  void squashfsImagesByRelativePathAndSaveReadOnlyOrWritable() throws IOException {
    Files.deleteIfExists(Paths.get(pyx, "saved.sqsh"));
    Files.deleteIfExists(Paths.get(pyx, "saved-ro.sqsh"));
    ok(
        onHead(
            "--container-image=./pyx/base.sqsh",
            "--container-writable",
            "--container-save=./pyx/saved.sqsh",
            "sh",
            "-c",
            "echo pyxis > /test"));
    assertThat(Paths.get(pyx, "saved.sqsh")).isRegularFile();
    Result ro =
        ok(
            onHead(
                "--container-image=./pyx/saved.sqsh",
                "--container-save=./pyx/saved-ro.sqsh",
                "cat",
                "/test"));
    assertThat(lines(ro.stdout(), "pyxis")).containsExactly("pyxis");
    assertThat(Paths.get(pyx, "saved-ro.sqsh")).isRegularFile();
  }

  /**
   * {@code --container-save} never writes over what clusterrun did not save (Pyxis's {@code
   * --container-save=./} once deleted a user's files, NVIDIA/pyxis#151): a user's file and a
   * directory are refused before any node is touched, a file the job itself writes there meanwhile
   * survives the save step after the job, and an image clusterrun saved is replaced by the next
   * save.
   */
  @Test
  @Order(8)
  void containerSaveNeverWritesOverAUsersFileOrADirectory() throws IOException {
    HEAD.cluster().writeAsJobUser(pyx + "/mine.sqsh", "the user's own\n");
    Result file =
        onHead("--container-image=./pyx/base.sqsh", "--container-save=./pyx/mine.sqsh", "true");
    assertThat(file.exitCode()).as("%s", file).isEqualTo(2);
    assertThat(file.stderr())
        .contains(
            "clusterrun: --container-save: '"
                + pyx
                + "/mine.sqsh' exists and clusterrun did not save it");
    assertThat(Files.readString(Paths.get(pyx, "mine.sqsh"))).isEqualTo("the user's own\n");

    Result dir = onHead("--container-image=./pyx/base.sqsh", "--container-save=./pyx", "true");
    assertThat(dir.exitCode()).as("%s", dir).isEqualTo(2);
    assertThat(dir.stderr()).contains("is a directory");
    assertThat(Paths.get(pyx, "script.txt")).isRegularFile();
    assertThat(Paths.get(pyx, "mine.sqsh")).isRegularFile();

    // The target is free when the run starts; the job itself puts a file of its own there.
    Files.deleteIfExists(Paths.get(pyx, "during.sqsh"));
    Result during =
        onHead(
            "--container-image=./pyx/base.sqsh",
            "--container-mounts=./pyx:/pyx",
            "--container-save=./pyx/during.sqsh",
            "sh",
            "-c",
            "echo written-by-the-job > /pyx/during.sqsh");
    assertThat(Files.readString(Paths.get(pyx, "during.sqsh"))).isEqualTo("written-by-the-job\n");
    assertThat(during.stderr()).contains("but not renamed").contains("clusterrun did not save it");
    try (var left = Files.list(Paths.get(pyx))) {
      List<Path> tmp =
          left.filter(f -> f.getFileName().toString().startsWith(".during.sqsh.clusterrun-"))
              .toList();
      assertThat(tmp).as("the saved image, kept under its temporary name").hasSize(1);
      for (Path t : tmp) {
        Files.delete(t);
      }
    }

    // What clusterrun saved, it may save again.
    Files.deleteIfExists(Paths.get(pyx, "twice.sqsh"));
    for (int i = 0; i < 2; i++) {
      ok(onHead("--container-image=./pyx/base.sqsh", "--container-save=./pyx/twice.sqsh", "true"));
      assertThat(Paths.get(pyx, "twice.sqsh")).isRegularFile();
      assertThat(Paths.get(pyx, "twice.sqsh.clusterrun-save")).isRegularFile();
    }
  }

  /** squashfs_image.bats "squashfs nonexistent file". */
  @Test
  @Order(9)
  void aSquashfsFileThatDoesNotExistFails() {
    Result r = headRun("--skip-checks", "--container-image=./nonexistent.sqsh", "true");
    assertThat(r.exitCode()).as("%s", r).isEqualTo(4);
    assertThat(r.stderr()).contains("nonexistent.sqsh");
  }

  // ------------------------------------------------------------------ entrypoint.bats

  /**
   * entrypoint.bats "--container-entrypoint": an image whose entrypoint (run by enroot's /etc/rc,
   * as {@code enroot import} writes it) sets a variable; it runs by default, as with enroot, and
   * not with --no-container-entrypoint (Pyxis's rc.local that execs the command at once).
   */
  @Test
  @Order(10)
  void theImagesEntrypointRunsUnlessNoContainerEntrypoint() throws IOException {
    String tree = pyx + "/entry-tree";
    String rc =
        String.join(
            "\n",
            "mkdir -p \"/\" 2> /dev/null",
            "cd \"/\" && unset OLDPWD || exit 1",
            "",
            "if [ -s /etc/rc.local ]; then",
            "    . /etc/rc.local",
            "fi",
            "",
            "if [ $# -gt 0 ]; then",
            "    exec '/pyxis-entrypoint.sh' \"$@\"",
            "else",
            "    exec '/pyxis-entrypoint.sh' '/bin/sh'",
            "fi",
            "");
    String build =
        String.join(
            "\n",
            "set -e",
            "rm -rf \"$1\" \"$3\"",
            "unsquashfs -q -n -d \"$1\" \"$2\" >/dev/null",
            "printf '%s' \"$4\" > \"$1/etc/rc\"",
            "printf '# sourced by /etc/rc\\n' > \"$1/etc/rc.local\"",
            "printf '#!/bin/sh\\nexport PYXIS_ENTRY=ran\\nexec \"$@\"\\n' > \"$1/pyxis-entrypoint.sh\"",
            "chmod 0755 \"$1/pyxis-entrypoint.sh\"",
            "mksquashfs \"$1\" \"$3\" -all-root -noappend -quiet -no-progress >/dev/null",
            "chmod 0644 \"$3\"",
            "rm -rf \"$1\"");
    ok(
        HEAD.cluster()
            .exec("node1", true, "sh", "-c", build, "build", tree, image, pyx + "/entry.sqsh", rc));
    String show = "echo E=${PYXIS_ENTRY:-none}";
    Result with = ok(onHead("--container-image=./pyx/entry.sqsh", "sh", "-c", show));
    assertThat(lines(with.stdout(), "E")).containsExactly("E=ran");
    Result without =
        ok(
            onHead(
                "--container-image=./pyx/entry.sqsh",
                "--no-container-entrypoint",
                "sh",
                "-c",
                show));
    assertThat(lines(without.stdout(), "E")).containsExactly("E=none");
  }

  // ------------------------------------------------------------------ concurrency.bats

  /** concurrency.bats "concurrent container creation": three named containers made at once. */
  @Test
  @Order(11)
  void concurrentContainerCreation() throws Exception {
    List<CompletableFuture<Result>> jobs = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      String name = "pyx-conc-" + i;
      jobs.add(
          CompletableFuture.supplyAsync(
              () ->
                  onHead(
                      "--container-image=" + image,
                      "--container-name=" + name,
                      "sh",
                      "-c",
                      "echo C " + name)));
    }
    for (int i = 0; i < 3; i++) {
      Result r = jobs.get(i).get(RUN_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
      ok(r);
      assertThat(lines(r.stdout(), "C")).containsExactly("C pyx-conc-" + i);
    }
    String list = ok(HEAD.cluster().exec("node1", "enroot", "list")).out();
    for (int i = 0; i < 3; i++) {
      assertThat(list).contains("pyx-conc-" + i);
      ok(HEAD.cluster().exec("node1", "enroot", "remove", "-f", "pyx-conc-" + i));
    }
  }

  // ----------------------------------------------------------------------------------------------

  /** The launcher as the job user on node1, from the shared directory, with {@code env} added. */
  static Result clusterrun(List<String> env, String command, List<String> args) {
    List<String> vars = new ArrayList<>(List.of("CLUSTERRUN_WORKSPACE=" + HEAD.ws()));
    vars.addAll(env);
    List<String> cmd = new ArrayList<>(List.of(command));
    cmd.addAll(args);
    return HEAD.run(RUN_TIMEOUT, vars, cmd);
  }

  /** {@code run --nodes HOSTS1 --no-canary ARGS}: a job in one container on the head. */
  static Result onHead(String... args) {
    return onHeadWith(List.of(), args);
  }

  /** As {@link #onHead}, with {@code env} added. */
  static Result onHeadWith(List<String> env, String... args) {
    List<String> a = new ArrayList<>(List.of("--nodes", hosts1, "--no-canary"));
    a.addAll(List.of(args));
    return clusterrun(env, "run", a);
  }

  /** {@code run --nodes HOSTS1 ARGS}. */
  static Result headRun(String... args) {
    List<String> a = new ArrayList<>(List.of("--nodes", hosts1));
    a.addAll(List.of(args));
    return clusterrun(List.of(), "run", a);
  }

  /**
   * The output lines of one tag: {@code TAG}, {@code TAG=…}, {@code TAG …} or, numbered, {@code
   * TAG7=…}.
   */
  static List<String> lines(String stdout, String tag) {
    Pattern p = Pattern.compile("^" + Pattern.quote(tag) + "[0-9]*([= ].*)?$");
    List<String> out = new ArrayList<>();
    for (String l : stdout.split("\n")) {
      Matcher m = p.matcher(l);
      if (m.matches()) {
        out.add(l);
      }
    }
    return out;
  }

  static Path path(String first, String... more) {
    return Paths.get(first, more);
  }
}
