package dev.clusterrun.core.setup;

import dev.clusterrun.core.remote.ShellScript;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The POSIX sh scripts setup runs on a node: one that reads the state, one that applies a plan and
 * reads the state again ({@code setup.sh}), and a wrapper that runs either as root (directly when
 * the session is uid 0, else through {@code sudo -n}; {@code as-root.sh}). The scripts are
 * resources beside this class; every path and every content reaches them as a positional parameter,
 * quoted with {@link dev.clusterrun.core.remote.ShellQuote}, and they are plain ASCII whatever the
 * files hold.
 */
final class SetupScripts {
  /** Exit status of the wrapper when it cannot become root. */
  static final int NEEDS_ROOT_EXIT = 97;

  /** Prefix of the wrapper's stderr line when it cannot become root. */
  static final String NEEDS_ROOT = "clusterrun-needs-root: ";

  /** Prefix of the apply script's stderr lines that say why it refused or failed. */
  static final String ERROR = "clusterrun-setup-error: ";

  /**
   * Printed by the apply script, with a change's index, for a file that is already as it should be
   * when written (another node that shares it wrote it): left alone.
   */
  static final String ALREADY = "clusterrun-setup-already: ";

  /** Printed by the apply script once every file is in place, before the state it reads back. */
  static final String APPLIED = "clusterrun-setup-applied";

  private static final ShellScript SETUP = ShellScript.load(SetupScripts.class, "setup.sh");
  private static final ShellScript AS_ROOT = ShellScript.load(SetupScripts.class, "as-root.sh");

  private final String sysconfDir;
  private final List<String> dirs;
  private final List<String> files;

  /**
   * @param sysconfDir enroot's sysconf dir, probed as {@code dir.0}
   * @param dirs the directories setup may create, probed as {@code dir.1}, {@code dir.2}, ...
   * @param files the managed files, probed as {@code file.0}, {@code file.1}, ...
   */
  SetupScripts(String sysconfDir, List<String> dirs, List<String> files) {
    this.sysconfDir = sysconfDir;
    this.dirs = List.copyOf(dirs);
    this.files = List.copyOf(files);
  }

  /** All directories in probe order: the sysconf dir first. */
  List<String> probedDirs() {
    return Stream.concat(Stream.of(sysconfDir), dirs.stream()).toList();
  }

  List<String> probedFiles() {
    return files;
  }

  /**
   * Runs {@code payload} with {@code /bin/sh} as root: directly when already uid 0, else through
   * {@code sudo -n} (never prompting). When neither works it exits {@value #NEEDS_ROOT_EXIT} with
   * one {@value #NEEDS_ROOT} line on stderr. The script is {@code as-root.sh} beside this class.
   */
  static String asRoot(String payload) {
    return AS_ROOT.with(List.of(payload));
  }

  /** Reads the state of the sysconf dir, the dirs and the files; see {@link NodeState#parse}. */
  String read() {
    List<String> args = new ArrayList<>();
    args.add("read");
    probes(args);
    return SETUP.with(args);
  }

  /**
   * Applies {@code plan}: checks that every file is still as {@code current} saw it, creates the
   * missing directories, writes every new file to a temporary file beside its target and checks its
   * SHA-256, makes the backups, and only then renames each temporary file over its target. Any
   * failure undoes what was done (temporary files, backups, new directories, and already renamed
   * files are put back), so a node is never left half configured. Then it prints {@value #APPLIED}
   * and the state read back. The script is {@code setup.sh} beside this class; the plan reaches it
   * as its parameters.
   *
   * @param backupSuffix appended to a replaced file's name for its backup, e.g. {@code
   *     .clusterrun-backup-20260101T000000Z}
   * @param failAfterRename for tests: fail on purpose after that many renames; -1 never
   */
  String apply(
      SetupPlan plan,
      NodeState current,
      List<DesiredFile> desired,
      String backupSuffix,
      int failAfterRename) {
    List<String> args = new ArrayList<>();
    args.add("apply");
    args.add(sysconfDir);
    args.add(Integer.toString(failAfterRename));
    args.add(Integer.toString(plan.dirsToCreate().size()));
    args.addAll(plan.dirsToCreate());
    args.add(Integer.toString(plan.changes().size()));
    for (FileChange c : plan.changes()) {
      change(args, c, current, find(desired, c.path()), backupSuffix);
    }
    probes(args);
    return SETUP.with(args);
  }

  /** The 8 words of one change: see {@code setup.sh}. */
  private static void change(
      List<String> args, FileChange c, NodeState current, DesiredFile want, String backupSuffix) {
    FileState was = current.file(c.path());
    args.add(c.path());
    args.add(was.fingerprint());
    if (c.action().keepsBackup()) {
      // A hard link keeps the old file as it was (owner, mode, times) at no cost.
      args.add(was.kind() == FileState.Kind.SYMLINK ? "copy" : "link");
      args.add(c.path() + backupSuffix);
    } else {
      args.add("none");
      args.add("");
    }
    args.add(want.dir() + "/." + want.fileName() + ".clusterrun-tmp.XXXXXX");
    args.add(SetupPlan.octal(want.mode()));
    args.add(want.sha256());
    args.add(percentB(want.content()));
  }

  private static DesiredFile find(List<DesiredFile> desired, String path) {
    return desired.stream()
        .filter(f -> f.path().equals(path))
        .findFirst()
        .orElseThrow(() -> new IllegalArgumentException("no desired file at " + path));
  }

  /** The words the scripts read their probes from: {@code NPROBEDIRS DIR... FILE...}. */
  private void probes(List<String> args) {
    List<String> all = probedDirs();
    args.add(Integer.toString(all.size()));
    args.addAll(all);
    args.addAll(files);
  }

  /**
   * {@code text} as an argument of {@code printf '%b'} that yields its UTF-8 bytes: backslashes
   * doubled, bytes outside printable ASCII (but newline and tab) as {@code \0nnn} octal escapes.
   */
  static String percentB(String text) {
    StringBuilder b = new StringBuilder(text.length() + 16);
    for (byte x : text.getBytes(StandardCharsets.UTF_8)) {
      int c = x & 0xff;
      if (c == '\\') {
        b.append("\\\\");
      } else if (c == '\n' || c == '\t' || (c >= 0x20 && c < 0x7f)) {
        b.append((char) c);
      } else {
        b.append(String.format("\\0%03o", c));
      }
    }
    return b.toString();
  }
}
