package dev.clusterrun.core.setup;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.OptionalInt;
import java.util.Set;

/**
 * What setup has to do on one node, computed from what is there and what should be: a pure
 * function, so every decision is testable without a node. When {@code problems} is not empty
 * nothing may be written on the node.
 *
 * @param changes the files to write, in order
 * @param dirsToCreate directories to create (root:root, 0755) before writing
 * @param problems why the node cannot be set up as asked
 */
public record SetupPlan(
    List<FileChange> changes, List<String> dirsToCreate, List<String> problems) {

  public SetupPlan {
    changes = List.copyOf(changes);
    dirsToCreate = List.copyOf(dirsToCreate);
    problems = List.copyOf(problems);
  }

  public boolean blocked() {
    return !problems.isEmpty();
  }

  /** Plans the writes that make {@code current} hold {@code desired}. */
  public static SetupPlan of(
      NodeState current, String sysconfDir, List<DesiredFile> desired, boolean force) {
    List<String> problems = new ArrayList<>();
    switch (current.dir(sysconfDir)) {
      case MISSING ->
          problems.add(
              sysconfDir
                  + " does not exist: is enroot installed on this node? (enroot built with another"
                  + " prefix has its sysconf dir elsewhere)");
      case OTHER -> problems.add(sysconfDir + " exists but is not a directory");
      case DIR -> {}
    }
    List<FileChange> changes = new ArrayList<>();
    Set<String> dirsToCreate = new LinkedHashSet<>();
    for (DesiredFile want : desired) {
      FileState have = current.file(want.path());
      String problem = null;
      FileChange change = null;
      switch (current.dir(want.dir())) {
        case OTHER -> problem = want.dir() + " exists but is not a directory";
        case MISSING -> {
          dirsToCreate.add(want.dir());
          change = create(want);
        }
        case DIR -> {
          if (have.kind() == FileState.Kind.MISSING) {
            change = create(want);
          } else if (have.kind() == FileState.Kind.OTHER) {
            problem = want.path() + " exists but is not a regular file; remove it first";
          } else if (have.kind() == FileState.Kind.FILE && have.sha256() == null) {
            problem = want.path() + " cannot be read";
          } else {
            Decision d = decide(want, have, force);
            problem = d.problem;
            change = d.change;
          }
        }
      }
      if (problem != null) {
        problems.add(problem);
      } else if (change != null) {
        changes.add(change);
      }
    }
    return new SetupPlan(changes, new ArrayList<>(dirsToCreate), problems);
  }

  private record Decision(FileChange change, String problem) {}

  private static FileChange create(DesiredFile want) {
    return new FileChange(
        want.label(),
        want.path(),
        FileChange.Action.CREATE,
        "new file, mode " + octal(want.mode()),
        UnifiedDiff.of(null, want.content(), want.path()),
        null);
  }

  private static Decision decide(DesiredFile want, FileState have, boolean force) {
    String diff = have.content() == null ? unreadableDiff(have) : diff(have, want);
    if (have.kind() == FileState.Kind.SYMLINK) {
      if (!force) {
        return new Decision(
            null,
            want.path()
                + " is a symbolic link clusterrun did not make; use --force to replace it"
                + " (a backup is kept)");
      }
      return change(
          want, FileChange.Action.REPLACE_FOREIGN, "symbolic link replaced (--force)", diff);
    }
    boolean sameContent = want.sha256().equals(have.sha256());
    if (sameContent) {
      if (have.rootOwned() && have.mode() == want.mode()) {
        return new Decision(null, null);
      }
      return change(
          want,
          FileChange.Action.FIX_PERMISSIONS,
          "owner "
              + have.owner()
              + " mode "
              + octal(have.mode())
              + " -> owner 0:0 mode "
              + octal(want.mode()),
          "");
    }
    OptionalInt version =
        have.content() == null ? OptionalInt.empty() : want.versionOf().apply(have.content());
    if (version.isEmpty()) {
      if (!force) {
        return new Decision(
            null,
            want.path()
                + " was not written by clusterrun; use --force to replace it (a backup is kept)");
      }
      return change(
          want,
          FileChange.Action.REPLACE_FOREIGN,
          "not written by clusterrun; replaced (--force)",
          diff);
    }
    int v = version.getAsInt();
    if (v > want.version()) {
      if (!force) {
        return new Decision(
            null,
            want.path()
                + " was written by a newer clusterrun (version "
                + v
                + " > "
                + want.version()
                + "); upgrade clusterrun, or use --force to go back");
      }
      return change(
          want,
          FileChange.Action.REPLACE_FOREIGN,
          "version " + v + " -> " + want.version() + " (downgrade, --force)",
          diff);
    }
    if (v < want.version()) {
      return change(
          want, FileChange.Action.UPGRADE, "version " + v + " -> " + want.version(), diff);
    }
    return change(want, FileChange.Action.UPDATE, "version " + v + ", new content", diff);
  }

  private static Decision change(
      DesiredFile want, FileChange.Action action, String detail, String diff) {
    return new Decision(
        new FileChange(want.label(), want.path(), action, detail, diff, null), null);
  }

  private static String diff(FileState have, DesiredFile want) {
    return UnifiedDiff.of(have.content(), want.content(), want.path());
  }

  private static String unreadableDiff(FileState have) {
    return "(current content of "
        + have.path()
        + " not shown: "
        + (have.size() < 0 ? "unreadable" : have.size() + " bytes")
        + ")\n";
  }

  static String octal(int mode) {
    return String.format("%04o", mode);
  }
}
