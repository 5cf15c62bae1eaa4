package dev.clusterrun.dist;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clusterrun.cli.CommandModel;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Debian package as an operator meets it, on this machine: {@code apt-get install ./…deb}, then
 * {@code clusterrun --version} (for root and for another user, with the class-data-sharing archive
 * that postinst made), {@code man -w}/{@code man} for every command, bash tab completion through
 * bash-completion's loader, then {@code apt-get remove} and {@code purge}, after which none of the
 * package's files, and no new file anywhere the package could have written, is left.
 *
 * <p>It installs into the real system, so it needs root, apt-get, man-db and bash-completion (CI
 * has them: install-deps.sh), and it leaves an existing clusterrun installation alone: without
 * {@code CI=true} it is skipped, saying why, when any of that is missing; with {@code CI=true} it
 * fails instead. It always removes what it installed, also when a check fails. One machine-wide
 * lock keeps two builds from installing at the same time.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class DebPackageIT {
  static final String PACKAGE = "clusterrun";
  static final Path DEB_DIR = Path.of(System.getProperty("clusterrun.deb.dir", "target"));
  static final String VERSION = System.getProperty("clusterrun.version", "");
  static final Path LOCK = Path.of("/run/clusterrun-deb-it.lock");
  static final Path SHARE = Path.of("/usr/share/clusterrun");
  static final Path ARCHIVE = SHARE.resolve("clusterrun.jsa");

  /** Where a package or its maintainer scripts could leave something. */
  static final List<Path> ROOTS =
      List.of(Path.of("/usr"), Path.of("/etc"), Path.of("/opt"), Path.of("/var"), Path.of("/srv"));

  /** Homes are searched two levels deep (~/.java, ~/clusterrun, …), not into build caches. */
  static final List<Path> HOMES = List.of(Path.of("/root"), Path.of("/home"));

  /**
   * Changed by dpkg/apt/man-db bookkeeping, and by the other integration tests that bring the local
   * cluster (examples/local-cluster/cluster.sh: its state, shared directory, job user's home and
   * per-node /etc/enroot) up and down meanwhile on a shared machine; never by this package.
   */
  static final List<Path> VOLATILE =
      Stream.of(
              env("CLUSTERRUN_LC_STATE", "/var/lib/clusterrun-lc"),
              env("CLUSTERRUN_LC_SHARED_ROOT", "/srv/clusterrun-lc"),
              "/home/crjob",
              "/var/lib/dpkg",
              "/var/lib/apt",
              "/var/cache/apt",
              "/var/cache/debconf",
              "/var/cache/man",
              "/var/cache/ldconfig",
              "/var/log",
              "/var/tmp",
              "/var/backups",
              "/var/lib/systemd",
              "/etc/enroot",
              "/root/.m2",
              "/root/.cache")
          .map(Path::of)
          .toList();

  /**
   * Rewritten by the local cluster meanwhile: /etc/hosts (its node names, through a temporary file
   * beside it) and the account databases with their backups and locks (useradd/userdel of its job
   * user).
   */
  static final Pattern VOLATILE_FILES =
      Pattern.compile(
          "/etc/(hosts|\\.hosts\\..*|(passwd|shadow|group|gshadow|subuid|subgid)[-+]?(\\.lock)?"
              + "|\\.pwd\\.lock)");

  @TempDir Path tmp;

  private FileChannel lockChannel;
  private FileLock lock;
  private Path deb;
  private Set<String> before;
  private List<String> owned = List.of();
  private boolean installed;

  record Result(int code, String out, String err) {
    String all() {
      return out + err;
    }
  }

  @BeforeAll
  void prerequisitesLockAndSnapshot() throws Exception {
    String missing = missingPrerequisite();
    if (missing != null) {
      String why = "the package test cannot run here: " + missing;
      if (ci()) {
        throw new IllegalStateException(why + " (CI=true: failing instead of skipping)");
      }
      System.err.println("DebPackageIT: skipped: " + why);
      Assumptions.abort(why);
    }
    lockChannel = FileChannel.open(LOCK, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
    lock = lockChannel.lock();
    // Checked again under the lock: another build's test may have installed it meanwhile.
    String mine = dpkgStatus();
    if (mine != null) {
      String why =
          "a clusterrun package is on this machine (dpkg status "
              + mine
              + "); the package test does not replace an existing installation (apt-get purge"
              + " clusterrun first)";
      if (ci()) {
        throw new IllegalStateException(why);
      }
      System.err.println("DebPackageIT: skipped: " + why);
      Assumptions.abort(why);
    }
    deb = theDeb();
    installMissingDependencies();
    before = snapshot();
  }

  @AfterAll
  void removeWhatWasInstalledAndUnlock() throws Exception {
    try {
      if (installed && dpkgStatus() != null) {
        Result r = apt("purge", PACKAGE);
        System.err.println("DebPackageIT: clean-up: apt-get purge clusterrun exited " + r.code());
      }
      if (installed && Files.exists(SHARE)) {
        // A failed check may have left the package's own directory behind (nothing else writes
        // there): put the machine back as it was.
        try (Stream<Path> s = Files.walk(SHARE)) {
          for (Path p : s.sorted(java.util.Comparator.reverseOrder()).toList()) {
            System.err.println("DebPackageIT: clean-up: removing leftover " + p);
            Files.delete(p);
          }
        }
      }
    } finally {
      if (lock != null) {
        lock.release();
        lockChannel.close();
      }
    }
  }

  @Test
  @Order(1)
  void aptGetInstallsThePackageWithItsFiles() throws Exception {
    Result r = apt("install", deb.toString());
    installed = dpkgStatus() != null; // in whatever state: the clean-up removes it
    assertThat(r.code()).as("apt-get install %s:%n%s", deb, r.all()).isZero();
    assertThat(dpkgStatus()).as("dpkg status after apt-get install").isEqualTo("ii");

    owned = run("dpkg", "-L", PACKAGE).out().lines().filter(l -> l.startsWith("/")).toList();
    List<String> expected = new ArrayList<>();
    expected.add("/usr/bin/clusterrun");
    expected.add("/usr/share/clusterrun/clusterrun");
    expected.add("/usr/share/clusterrun/clusterrun.jar");
    expected.add("/usr/share/bash-completion/completions/clusterrun");
    for (String page : pageNames()) {
      expected.add("/usr/share/man/man1/" + page + ".1.gz");
    }
    assertThat(owned).as("dpkg -L clusterrun").containsAll(expected);
    for (String path : expected) {
      assertThat(Path.of(path)).as(manExcludedHint(path)).exists();
    }
    assertThat(Files.readSymbolicLink(Path.of("/usr/bin/clusterrun")))
        .isEqualTo(Path.of("../share/clusterrun/clusterrun"));
  }

  @Test
  @Order(2)
  void versionRunsForRootAndForOtherUsers() throws Exception {
    requireInstalled();
    Result root = run("clusterrun", "--version");
    assertThat(root.code()).as(root.all()).isZero();
    assertThat(root.out().strip()).isEqualTo("clusterrun " + VERSION);
    assertThat(root.err()).isEmpty();

    Result nobody = run("runuser", "-u", "nobody", "--", "clusterrun", "--version");
    assertThat(nobody.code()).as(nobody.all()).isZero();
    assertThat(nobody.out().strip()).isEqualTo("clusterrun " + VERSION);
    assertThat(nobody.err()).isEmpty();

    Result help = run("runuser", "-u", "nobody", "--", "clusterrun", "run", "--help");
    assertThat(help.code()).as(help.all()).isZero();
    assertThat(help.out()).contains("--container-image");
  }

  @Test
  @Order(3)
  void postinstMadeAClassDataArchiveThatTheLauncherUses() throws Exception {
    requireInstalled();
    assertThat(ARCHIVE).as("postinst's archive").isRegularFile();
    PosixFileAttributes a =
        Files.readAttributes(ARCHIVE, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    assertThat(a.owner().getName()).isEqualTo("root");
    assertThat(PosixFilePermissions.toString(a.permissions())).isEqualTo("rw-r--r--");
    assertThat(owned).as("dpkg -L (postinst made it)").doesNotContain(ARCHIVE.toString());

    Path log = tmp.resolve("class-load.log");
    Files.createFile(log);
    Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rwxrwxrwx"));
    Files.setPosixFilePermissions(log, PosixFilePermissions.fromString("rw-rw-rw-"));
    Result r =
        runEnv(
            Map.of("CLUSTERRUN_JAVA_OPTS", "-Xlog:class+load=info:file=" + log),
            "runuser",
            "-u",
            "nobody",
            "--",
            "clusterrun",
            "--version");
    assertThat(r.code()).as(r.all()).isZero();
    assertThat(Files.readString(log))
        .as("class loading of the installed clusterrun --version")
        // The archive is a static one (make-cds.sh): clusterrun's classes come from it as the JDK's
        // do; without it, Main would come from the jar (source: file:...).
        .containsPattern("\\] dev\\.clusterrun\\.cli\\.Main source: shared objects file\\R");
  }

  @Test
  @Order(4)
  void manFindsAndRendersAPageForEveryCommand() throws Exception {
    requireInstalled();
    for (String page : pageNames()) {
      Result where = run("man", "-w", page);
      assertThat(where.code()).as("man -w %s: %s", page, where.all()).isZero();
      assertThat(where.out().strip()).isEqualTo("/usr/share/man/man1/" + page + ".1.gz");

      Result shown = runEnv(Map.of("MANWIDTH", "100", "LC_ALL", "C.UTF-8"), "man", page);
      assertThat(shown.code()).as("man %s: %s", page, shown.all()).isZero();
      assertThat(shown.out()).contains("NAME", "SYNOPSIS", page.replace('-', ' '));

      Result lint =
          runEnv(Map.of("LC_ALL", "C.UTF-8"), "man", "--warnings=w", "-l", where.out().strip());
      assertThat(lint.err()).as("groff warnings for %s", page).isEmpty();

      Result whatis = run("lexgrog", where.out().strip());
      assertThat(whatis.code()).as("lexgrog %s: %s", page, whatis.all()).isZero();
      assertThat(whatis.out()).contains("\"" + page + " - ");
    }
    Result run = runEnv(Map.of("MANWIDTH", "100", "LC_ALL", "C.UTF-8"), "man", "clusterrun-run");
    assertThat(run.out()).contains("--container-image", "--nodes=HOSTFILE", "EXIT STATUS");
  }

  @Test
  @Order(5)
  void bashCompletesSubcommandsAndOptionsThroughBashCompletion() throws Exception {
    requireInstalled();
    assertThat(complete("clusterrun ru")).containsExactly("run");
    assertThat(complete("clusterrun run --no-ho")).contains("--no-hook");
    assertThat(complete("clusterrun se")).containsExactly("setup");
  }

  @Test
  @Order(6)
  void removeAndPurgeLeaveNothingBehind() throws Exception {
    requireInstalled();
    List<String> files = owned.stream().filter(p -> !Files.isDirectory(Path.of(p))).toList();
    assertThat(files).isNotEmpty();

    Result remove = apt("remove", PACKAGE);
    assertThat(remove.code()).as("apt-get remove:%n%s", remove.all()).isZero();
    assertThat(files.stream().filter(p -> Files.exists(Path.of(p), LinkOption.NOFOLLOW_LINKS)))
        .as("package files left after apt-get remove")
        .isEmpty();
    assertThat(SHARE).as("after apt-get remove").doesNotExist();
    assertThat(leftovers()).as("new files after apt-get remove").isEmpty();

    Result purge = apt("purge", PACKAGE);
    assertThat(purge.code()).as("apt-get purge:%n%s", purge.all()).isZero();
    assertThat(dpkgStatus()).as("dpkg status of clusterrun after purge").isNull();
    assertThat(leftovers()).as("new files after apt-get purge").isEmpty();
    installed = false;
  }

  // ---- helpers ----

  private static boolean ci() {
    return "true".equalsIgnoreCase(System.getenv("CI"));
  }

  private static String env(String name, String fallback) {
    String v = System.getenv(name);
    return v == null || v.isEmpty() ? fallback : v;
  }

  private void requireInstalled() throws Exception {
    Assumptions.assumeTrue(
        "ii".equals(dpkgStatus()), "the package is not installed (see the first test)");
  }

  private static List<String> pageNames() {
    return ManPage.pages(CommandModel.commandLine().getCommandSpec()).stream()
        .map(ManPage::name)
        .toList();
  }

  /** COMPREPLY for a command line, through bash-completion's on-demand loader as bash uses it. */
  private List<String> complete(String line) throws Exception {
    String script =
        """
        . /usr/share/bash-completion/bash_completion
        _completion_loader clusterrun
        spec=$(complete -p clusterrun) || { echo "no completion for clusterrun" >&2; exit 3; }
        fn=${spec##*-F }; fn=${fn%% *}
        read -r -a COMP_WORDS <<<"$LINE"
        [[ $LINE == *' ' ]] && COMP_WORDS+=('')
        COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); COMP_LINE=$LINE; COMP_POINT=${#LINE}
        "$fn" clusterrun "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
        printf '%s\\n' "${COMPREPLY[@]}"
        """;
    Result r = runEnv(Map.of("LINE", line), "bash", "--norc", "--noprofile", "-c", script);
    assertThat(r.code()).as("completion of '%s': %s", line, r.all()).isZero();
    return r.out().lines().map(String::strip).filter(s -> !s.isEmpty()).toList();
  }

  private static String missingPrerequisite() throws Exception {
    if (!System.getProperty("os.name").equals("Linux")) {
      return "not Linux";
    }
    if (!"root".equals(System.getProperty("user.name"))) {
      return "not root (it installs a package)";
    }
    for (String tool : List.of("apt-get", "dpkg", "dpkg-query", "man", "lexgrog", "runuser")) {
      if (run("sh", "-c", "command -v " + tool).code() != 0) {
        return tool + " is missing (install-deps.sh installs man-db)";
      }
    }
    if (!Files.isRegularFile(Path.of("/usr/share/bash-completion/bash_completion"))) {
      return "bash-completion is not installed (install-deps.sh installs it)";
    }
    return null;
  }

  private static Path theDeb() throws IOException {
    List<Path> debs;
    try (Stream<Path> s = Files.list(DEB_DIR)) {
      debs = s.filter(p -> p.getFileName().toString().matches("clusterrun_.*_all\\.deb")).toList();
    }
    assertThat(debs).as("clusterrun_*_all.deb in %s (mvn package makes it)", DEB_DIR).hasSize(1);
    return debs.get(0).toAbsolutePath();
  }

  /**
   * The package's dependencies (a Java runtime) are installed before the snapshot, so that the
   * files they bring are not taken for the package's. Only in CI: elsewhere the test says what to
   * install rather than install a JDK unasked.
   */
  private void installMissingDependencies() throws Exception {
    Result sim = apt("install", "--simulate", deb.toString());
    if (sim.code() != 0 && ci()) {
      // A fresh machine may have no package lists yet to find the dependencies in.
      Result update = apt("update");
      assertThat(update.code()).as("apt-get update:%n%s", update.all()).isZero();
      sim = apt("install", "--simulate", deb.toString());
    }
    assertThat(sim.code()).as("apt-get install --simulate:%n%s", sim.all()).isZero();
    List<String> others =
        sim.out()
            .lines()
            .filter(l -> l.startsWith("Inst "))
            .map(l -> l.split(" ")[1])
            .filter(p -> !p.equals(PACKAGE))
            .toList();
    if (others.isEmpty()) {
      return;
    }
    if (!ci()) {
      String why =
          "the package needs " + others + " first: apt-get install " + String.join(" ", others);
      System.err.println("DebPackageIT: skipped: " + why);
      Assumptions.abort(why);
    }
    List<String> argv = new ArrayList<>(List.of("install"));
    argv.addAll(others);
    Result r = apt(argv.toArray(String[]::new));
    assertThat(r.code()).as("apt-get install %s:%n%s", others, r.all()).isZero();
  }

  /**
   * dpkg's status of the package (e.g. {@code ii}, {@code rc}), null when dpkg does not know it.
   */
  private static String dpkgStatus() throws Exception {
    Result r = run("dpkg-query", "-W", "-f", "${db:Status-Abbrev}", PACKAGE);
    String status = r.out().strip();
    return r.code() != 0 || status.isEmpty() || status.startsWith("un") ? null : status;
  }

  private String manExcludedHint(String path) {
    try (Stream<Path> cfg = Files.list(Path.of("/etc/dpkg/dpkg.cfg.d"))) {
      String excludes =
          cfg.flatMap(
                  f -> {
                    try {
                      return Files.readAllLines(f).stream();
                    } catch (IOException e) {
                      return Stream.of();
                    }
                  })
              .filter(l -> l.startsWith("path-exclude"))
              .collect(Collectors.joining("; "));
      return excludes.isEmpty()
          ? path
          : path + " (dpkg on this machine drops some files: " + excludes + ")";
    } catch (IOException e) {
      return path;
    }
  }

  /** New paths since the snapshot that no installed package owns. */
  private List<String> leftovers() throws Exception {
    Set<String> now = snapshot();
    now.removeAll(before);
    List<String> out = new ArrayList<>();
    for (String p : now) {
      if (run("dpkg", "-S", p).code() != 0) {
        out.add(p);
      }
    }
    return out;
  }

  private static Set<String> snapshot() throws IOException {
    Set<String> paths = new TreeSet<>();
    for (Path root : ROOTS) {
      walk(root, Integer.MAX_VALUE, paths);
    }
    for (Path home : HOMES) {
      walk(home, 2, paths);
    }
    return paths;
  }

  private static void walk(Path root, int depth, Set<String> into) throws IOException {
    if (!Files.isDirectory(root, LinkOption.NOFOLLOW_LINKS)) {
      return;
    }
    Files.walkFileTree(
        root,
        Set.of(),
        depth,
        new SimpleFileVisitor<>() {
          @Override
          public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
            if (VOLATILE.contains(dir)) {
              return FileVisitResult.SKIP_SUBTREE;
            }
            into.add(dir.toString());
            return FileVisitResult.CONTINUE;
          }

          @Override
          public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
            if (!VOLATILE_FILES.matcher(file.toString()).matches()) {
              into.add(file.toString());
            }
            return FileVisitResult.CONTINUE;
          }

          @Override
          public FileVisitResult visitFileFailed(Path file, IOException e) {
            return FileVisitResult.CONTINUE; // vanished or unreadable meanwhile: not ours
          }
        });
  }

  private static Result apt(String... args) throws Exception {
    List<String> argv =
        new ArrayList<>(
            List.of(
                "apt-get", "-y", "-q", "--no-install-recommends", "-o", "DPkg::Lock::Timeout=600"));
    argv.addAll(List.of(args));
    return runEnv(Map.of("DEBIAN_FRONTEND", "noninteractive"), argv.toArray(String[]::new));
  }

  private static Result run(String... argv) throws Exception {
    return runEnv(Map.of(), argv);
  }

  private static Result runEnv(Map<String, String> env, String... argv) throws Exception {
    ProcessBuilder pb = new ProcessBuilder(argv);
    Map<String, String> e = pb.environment();
    e.remove("CLUSTERRUN_JAVA_OPTS");
    e.putAll(env);
    Path out = Files.createTempFile("deb-it", ".out");
    Path err = Files.createTempFile("deb-it", ".err");
    try {
      pb.redirectOutput(out.toFile()).redirectError(err.toFile());
      pb.redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()));
      Process p = pb.start();
      if (!p.waitFor(15, TimeUnit.MINUTES)) {
        p.destroyForcibly();
        throw new IllegalStateException("timed out: " + String.join(" ", argv));
      }
      return new Result(
          p.exitValue(),
          Files.readString(out, StandardCharsets.UTF_8),
          Files.readString(err, StandardCharsets.UTF_8));
    } finally {
      Files.deleteIfExists(out);
      Files.deleteIfExists(err);
    }
  }
}
