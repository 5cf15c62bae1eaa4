package dev.clusterrun.core.setup;

import dev.clusterrun.core.remote.ShellQuote;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.Stream;

/**
 * The POSIX sh scripts setup runs on a node: one that reads the state, one that applies a plan and
 * reads the state again, and a wrapper that runs either as root (directly when the session is uid
 * 0, else through {@code sudo -n}). Every path and every content goes through {@link ShellQuote};
 * the scripts are plain ASCII whatever the files hold.
 */
final class SetupScripts {
  /** Exit status of the wrapper when it cannot become root. */
  static final int NEEDS_ROOT_EXIT = 97;

  /** Prefix of the wrapper's stderr line when it cannot become root. */
  static final String NEEDS_ROOT = "clusterrun-needs-root: ";

  /** Prefix of the apply script's stderr lines that say why it refused or failed. */
  static final String ERROR = "clusterrun-setup-error: ";

  /** Printed by the apply script once every file is in place, before the state it reads back. */
  static final String APPLIED = "clusterrun-setup-applied";

  /** Files larger than this are not sent back (their checksum still is). */
  static final long MAX_CONTENT_BYTES = 1 << 20;

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
   * one {@value #NEEDS_ROOT} line on stderr.
   */
  static String asRoot(String payload) {
    return "p="
        + ShellQuote.quote(payload)
        + "\n"
        + """
        if [ "$(id -u)" = 0 ]; then
            exec /bin/sh -c "$p"
        fi
        if ! command -v sudo >/dev/null 2>&1; then
            echo '%1$snot root, and sudo is not installed' >&2
            exit %2$d
        fi
        if ! out=$(sudo -n true 2>&1); then
            printf '%1$ssudo -n failed: %%s\\n' "$out" >&2
            exit %2$d
        fi
        exec sudo -n /bin/sh -c "$p"
        """
            .formatted(NEEDS_ROOT, NEEDS_ROOT_EXIT);
  }

  /** Reads the state of the sysconf dir, the dirs and the files; see {@link NodeState#parse}. */
  String read() {
    return PRELUDE + probes();
  }

  /**
   * Applies {@code plan}: checks that every file is still as {@code current} saw it, creates the
   * missing directories, writes every new file to a temporary file beside its target and checks its
   * SHA-256, makes the backups, and only then renames each temporary file over its target. Any
   * failure undoes what was done (temporary files, backups, new directories, and already renamed
   * files are put back), so a node is never left half configured. Then it prints {@value #APPLIED}
   * and the state read back.
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
    List<FileChange> changes = plan.changes();
    StringBuilder s = new StringBuilder(PRELUDE);
    rollback(s, plan);
    checkUnchanged(s, changes, current, backupSuffix);
    directories(s, plan);
    newContents(s, changes, desired);
    backups(s, changes, current, backupSuffix);
    renames(s, changes, failAfterRename);
    s.append("\ntrap - EXIT HUP INT TERM\n");
    s.append("echo ").append(APPLIED).append('\n');
    s.append(probes());
    return s.toString();
  }

  /** The undo, newest first ({@code set +e}: undo as much as possible), armed on any exit. */
  private static void rollback(StringBuilder s, SetupPlan plan) {
    List<FileChange> changes = plan.changes();
    int n = changes.size();
    int d = plan.dirsToCreate().size();
    s.append("rollback() {\n    set +e\n");
    for (int i = n - 1; i >= 0; i--) {
      String p = q(changes.get(i).path());
      s.append("    if [ -n \"$m").append(i).append("\" ]; then\n");
      s.append("        if [ -n \"$b").append(i).append("\" ]; then mv -f -- \"$b").append(i);
      s.append("\" ").append(p).append(" && b").append(i).append("=; else rm -f -- ");
      s.append(p).append("; fi\n    fi\n");
    }
    for (int i = 0; i < n; i++) {
      s.append("    [ -z \"$t").append(i).append("\" ] || rm -f -- \"$t").append(i).append("\"\n");
      s.append("    [ -z \"$b").append(i).append("\" ] || rm -f -- \"$b").append(i).append("\"\n");
    }
    for (int j = d - 1; j >= 0; j--) {
      s.append("    [ -z \"$d").append(j).append("\" ] || rmdir -- ");
      s.append(q(plan.dirsToCreate().get(j))).append('\n');
    }
    s.append("}\n");
    for (int i = 0; i < n; i++) {
      s.append("t").append(i).append("= b").append(i).append("= m").append(i).append("=\n");
    }
    for (int j = 0; j < d; j++) {
      s.append("d").append(j).append("=\n");
    }
    s.append(
        "trap 'rc=$?; trap - EXIT; if [ \"$rc\" -ne 0 ]; then rollback; fi; exit \"$rc\"' EXIT\n");
    s.append("trap 'exit 1' HUP INT TERM\n\n");
  }

  /** 1. Everything is still as it was read, and nothing is in the way. */
  private void checkUnchanged(
      StringBuilder s, List<FileChange> changes, NodeState current, String backupSuffix) {
    s.append("# 1. Everything is still as it was read, and nothing is in the way.\n");
    s.append("[ -d ").append(q(sysconfDir)).append(" ] || fail ");
    s.append(q(sysconfDir + " is not a directory")).append('\n');
    for (FileChange c : changes) {
      String fp = current.file(c.path()).fingerprint();
      s.append("[ \"$(fingerprint ").append(q(c.path())).append(")\" = ").append(q(fp));
      s.append(" ] || fail ").append(q(c.path() + " changed since it was read; run setup again"));
      s.append('\n');
      if (c.action().keepsBackup()) {
        String backup = c.path() + backupSuffix;
        s.append("if [ -e ").append(q(backup)).append(" ] || [ -L ").append(q(backup));
        s.append(" ]; then fail ").append(q(backup + " already exists")).append("; fi\n");
      }
    }
  }

  /** 2. Directories. */
  private static void directories(StringBuilder s, SetupPlan plan) {
    int d = plan.dirsToCreate().size();
    s.append("\n# 2. Directories.\n");
    for (int j = 0; j < d; j++) {
      String dir = q(plan.dirsToCreate().get(j));
      s.append("if [ ! -d ").append(dir).append(" ]; then\n");
      s.append("    if [ -e ")
          .append(dir)
          .append(" ] || [ -L ")
          .append(dir)
          .append(" ]; then fail ");
      s.append(q(plan.dirsToCreate().get(j) + " exists but is not a directory")).append("; fi\n");
      s.append("    mkdir -- ").append(dir).append("\n    d").append(j).append("=1\n");
      s.append("    chown 0:0 ")
          .append(dir)
          .append("\n    chmod 0755 ")
          .append(dir)
          .append("\nfi\n");
    }
  }

  /** 3. New contents beside their targets, checked. */
  private static void newContents(
      StringBuilder s, List<FileChange> changes, List<DesiredFile> desired) {
    int n = changes.size();
    s.append("\n# 3. New contents beside their targets, checked.\n");
    for (int i = 0; i < n; i++) {
      FileChange c = changes.get(i);
      DesiredFile want = find(desired, c.path());
      s.append("t").append(i).append("=$(mktemp ");
      s.append(q(want.dir() + "/." + want.fileName() + ".clusterrun-tmp.XXXXXX")).append(")\n");
      s.append("printf '%b' ").append(q(percentB(want.content()))).append(" > \"$t").append(i);
      s.append("\"\n");
      s.append("chown 0:0 \"$t").append(i).append("\"\n");
      s.append("chmod ")
          .append(SetupPlan.octal(want.mode()))
          .append(" \"$t")
          .append(i)
          .append("\"\n");
      s.append("[ \"$(sha256sum < \"$t").append(i).append("\" | cut -c1-64)\" = ");
      s.append(want.sha256()).append(" ] || fail ");
      s.append(q(c.path() + ": the new content arrived altered; nothing was written")).append('\n');
    }
  }

  /** 4. Backups of the files about to be replaced. */
  private static void backups(
      StringBuilder s, List<FileChange> changes, NodeState current, String backupSuffix) {
    int n = changes.size();
    s.append("\n# 4. Backups of the files about to be replaced.\n");
    for (int i = 0; i < n; i++) {
      FileChange c = changes.get(i);
      if (!c.action().keepsBackup()) {
        continue;
      }
      String backup = q(c.path() + backupSuffix);
      boolean symlink = current.file(c.path()).kind() == FileState.Kind.SYMLINK;
      // A hard link keeps the old file as it was (owner, mode, times) at no cost.
      s.append(symlink ? "cp -P -p -- " : "ln -- ").append(q(c.path())).append(' ');
      s.append(backup).append("\nb").append(i).append('=').append(backup).append('\n');
    }
  }

  /** 5. Renames: each one atomic. */
  private static void renames(StringBuilder s, List<FileChange> changes, int failAfterRename) {
    int n = changes.size();
    s.append("\n# 5. Renames: each one atomic.\n");
    for (int i = 0; i < n; i++) {
      s.append("mv -f -- \"$t").append(i).append("\" ").append(q(changes.get(i).path()));
      s.append("\nt").append(i).append("=\nm").append(i).append("=1\n");
      if (failAfterRename == i + 1) {
        s.append("fail 'failing on purpose (test)'\n");
      }
    }
  }

  private static DesiredFile find(List<DesiredFile> desired, String path) {
    return desired.stream()
        .filter(f -> f.path().equals(path))
        .findFirst()
        .orElseThrow(() -> new IllegalArgumentException("no desired file at " + path));
  }

  private String probes() {
    StringBuilder s = new StringBuilder();
    s.append("echo ").append(NodeState.MARKER).append('\n');
    s.append("echo \"uid=$(id -u)\"\n");
    List<String> all = probedDirs();
    for (int i = 0; i < all.size(); i++) {
      s.append("probe_dir dir.").append(i).append(' ').append(q(all.get(i))).append('\n');
    }
    for (int i = 0; i < files.size(); i++) {
      s.append("probe_file file.").append(i).append(' ').append(q(files.get(i))).append('\n');
    }
    return s.toString();
  }

  private static String q(String word) {
    return ShellQuote.quote(word);
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

  /** Shared by both scripts: strict mode, a C locale, and the probe functions. */
  private static final String PRELUDE =
      """
      set -eu
      umask 077
      LC_ALL=C
      export LC_ALL
      fail() {
          printf '%1$s%%s\\n' "$1" >&2
          exit 1
      }
      for c in sha256sum base64 stat mktemp cut tr wc; do
          command -v "$c" >/dev/null 2>&1 || fail "$c is not installed on this node"
      done
      kind_of() {
          if [ -L "$1" ]; then echo symlink
          elif [ -f "$1" ]; then echo file
          elif [ -e "$1" ]; then echo other
          else echo missing
          fi
      }
      sha_of() {
          if [ -f "$1" ] && [ -r "$1" ]; then sha256sum < "$1" | cut -c1-64; fi
      }
      fingerprint() {
          printf '%%s:%%s' "$(kind_of "$1")" "$(sha_of "$1")"
      }
      probe_dir() {
          if [ -d "$2" ]; then echo "$1=dir"
          elif [ -e "$2" ] || [ -L "$2" ]; then echo "$1=other"
          else echo "$1=missing"
          fi
      }
      probe_file() {
          k=$(kind_of "$2")
          echo "$1.type=$k"
          if [ "$k" = missing ]; then return 0; fi
          echo "$1.owner=$(stat -c '%%u:%%g' -- "$2")"
          echo "$1.mode=$(stat -c '%%a' -- "$2")"
          if [ -f "$2" ] && [ -r "$2" ]; then
              echo "$1.sha256=$(sha_of "$2")"
              size=$(wc -c < "$2" | tr -d ' ')
              echo "$1.size=$size"
              if [ "$size" -le %2$d ]; then
                  echo "$1.b64=$(base64 < "$2" | tr -d '\\n')"
              fi
          fi
      }
      """
          .formatted(ERROR, MAX_CONTENT_BYTES);
}
