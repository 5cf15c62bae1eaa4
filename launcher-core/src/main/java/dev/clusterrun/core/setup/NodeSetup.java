package dev.clusterrun.core.setup;

import dev.clusterrun.core.check.SharedPathProof;
import dev.clusterrun.core.remote.ExecResult;
import dev.clusterrun.core.remote.NodeShell;
import java.time.Clock;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Configures enroot on one node for clusterrun: the launch-agent hook and the drop-in, as root,
 * idempotently and all-or-nothing. Two round trips when something changes (read; apply and read
 * back), one when nothing does. Safe to call for many nodes in parallel, one {@link NodeShell}
 * each.
 *
 * <pre>{@code
 * NodeSetup setup = new NodeSetup(spec, proof);
 * List<NodeOutcome> outcomes = shells.stream().map(setup::apply).toList(); // or dryRun
 * SetupReport report = new SetupReport(false, outcomes);
 * }</pre>
 */
public final class NodeSetup {
  public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(60);

  private static final DateTimeFormatter BACKUP_STAMP =
      DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);

  private final SetupSpec spec;
  private final SharedPathProof.Verdict proof;
  private final Clock clock;
  private final Duration timeout;
  private final List<DesiredFile> desired;
  private final SetupScripts scripts;
  private final int failAfterRename;

  public NodeSetup(SetupSpec spec, SharedPathProof.Verdict proof) {
    this(spec, proof, Clock.systemUTC(), DEFAULT_TIMEOUT);
  }

  /**
   * @param clock gives the UTC timestamp in backup names
   * @param timeout for each round trip
   */
  public NodeSetup(SetupSpec spec, SharedPathProof.Verdict proof, Clock clock, Duration timeout) {
    this(spec, proof, clock, timeout, -1);
  }

  /** For tests: {@code failAfterRename > 0} makes the apply script fail after that many renames. */
  NodeSetup(
      SetupSpec spec,
      SharedPathProof.Verdict proof,
      Clock clock,
      Duration timeout,
      int failAfterRename) {
    this.failAfterRename = failAfterRename;
    this.spec = spec;
    this.proof = proof;
    this.clock = clock;
    this.timeout = timeout;
    this.desired = DesiredFile.forSpec(spec);
    List<String> dirs = new ArrayList<>();
    for (DesiredFile f : desired) {
      if (!dirs.contains(f.dir())) {
        dirs.add(f.dir());
      }
    }
    this.scripts =
        new SetupScripts(spec.sysconfDir(), dirs, desired.stream().map(DesiredFile::path).toList());
  }

  /** Brings the node to the desired state; see {@link NodeOutcome.Status} for the outcomes. */
  public NodeOutcome apply(NodeShell shell) {
    return run(shell, false);
  }

  /** Reads the node (as root) and says what {@link #apply} would change, writing nothing. */
  public NodeOutcome dryRun(NodeShell shell) {
    return run(shell, true);
  }

  /**
   * What one node's first round trip read: its state, or why it failed.
   *
   * @param state the node's state (null when {@code failed})
   * @param failed the node's outcome when reading failed (else null)
   */
  record Read(String node, NodeState state, NodeOutcome failed) {
    /** The sysconf dir's identity ({@code device:inode}), or null when unknown. */
    String sysconfId() {
      return state == null ? null : state.sysconfId();
    }
  }

  /** What {@link #run} would change on a node as {@code r} found it; empty when it failed. */
  List<FileChange> plannedChanges(Read r) {
    return r.state() == null
        ? List.of()
        : SetupPlan.of(r.state(), spec.sysconfDir(), desired, spec.force()).changes();
  }

  /** Reads the node's state (as root), writing nothing. */
  Read read(NodeShell shell) {
    String node = shell.node();
    ExecResult read = shell.run(SetupScripts.asRoot(scripts.read()), timeout);
    Optional<String> readProblem = problem(read, "reading the enroot configuration");
    if (readProblem.isPresent()) {
      return new Read(node, null, NodeOutcome.failed(node, readProblem.get(), List.of()));
    }
    NodeState state;
    try {
      state = parse(read.stdout());
    } catch (IllegalArgumentException e) {
      return new Read(
          node,
          null,
          NodeOutcome.failed(
              node, "cannot understand the node's answer: " + e.getMessage(), List.of()));
    }
    if (state.uid() != 0) {
      return new Read(
          node,
          null,
          NodeOutcome.failed(
              node, "setup needs root: the script ran as uid " + state.uid(), List.of()));
    }
    return new Read(node, state, null);
  }

  private NodeOutcome run(NodeShell shell, boolean dryRun) {
    return run(shell, read(shell), dryRun);
  }

  /** The node brought to the desired state from what {@link #read} found there. */
  NodeOutcome run(NodeShell shell, Read r, boolean dryRun) {
    if (r.failed() != null) {
      return r.failed();
    }
    String node = shell.node();
    NodeState state = r.state();
    SetupPlan plan = SetupPlan.of(state, spec.sysconfDir(), desired, spec.force());
    if (plan.blocked()) {
      return NodeOutcome.failed(node, String.join("; ", plan.problems()), plan.changes());
    }
    if (plan.changes().isEmpty()) {
      return NodeOutcome.unchanged(node);
    }
    String dropIn = DesiredFile.dropIn(spec).path();
    if (plan.changes().stream().anyMatch(c -> c.path().equals(dropIn))) {
      Optional<String> unproven = proof.problem(node);
      if (unproven.isPresent()) {
        return NodeOutcome.failed(
            node,
            "data path " + dataPathHere(node) + " is not proven shared: " + unproven.get(),
            plan.changes());
      }
    }
    if (dryRun) {
      return NodeOutcome.wouldChange(node, plan.changes());
    }

    String suffix = backupSuffix(node);
    String script = scripts.apply(plan, state, desired, suffix, failAfterRename);
    ExecResult applied = shell.run(SetupScripts.asRoot(script), timeout);
    List<FileChange> done = new ArrayList<>();
    for (int i = 0; i < plan.changes().size(); i++) {
      FileChange c = plan.changes().get(i);
      boolean already = applied.stdout().contains(SetupScripts.ALREADY + i + "\n");
      done.add(c.action().keepsBackup() && !already ? c.withBackup(c.path() + suffix) : c);
    }
    int at = applied.stdout().indexOf(SetupScripts.APPLIED + "\n");
    Optional<String> applyProblem = problem(applied, "writing the enroot configuration");
    if (applyProblem.isPresent()) {
      return at < 0
          ? NodeOutcome.failed(node, applyProblem.get(), plan.changes())
          : NodeOutcome.failed(
              node, "written, but reading back failed: " + applyProblem.get(), done);
    }
    if (at < 0) {
      return NodeOutcome.failed(
          node, "the write script ended without confirming its writes; check the node", done);
    }
    NodeState after;
    try {
      after = parse(applied.stdout().substring(at));
    } catch (IllegalArgumentException e) {
      return NodeOutcome.failed(node, "written, but cannot read it back: " + e.getMessage(), done);
    }
    List<String> wrong = verify(after);
    if (!wrong.isEmpty()) {
      return NodeOutcome.failed(
          node, "written, but reading back found: " + String.join("; ", wrong), done);
    }
    return NodeOutcome.changed(node, done);
  }

  /**
   * The backup suffix of a file this node replaces: the second and the node's name, so that nodes
   * sharing one {@code /etc/enroot} never name two backups alike; the script refuses to overwrite
   * one that exists.
   */
  private String backupSuffix(String node) {
    String safe = node.replaceAll("[^A-Za-z0-9.-]", "_");
    return ".clusterrun-backup-" + BACKUP_STAMP.format(clock.instant()) + "-" + safe;
  }

  /** The data path, and for a per-user template what it is for this user on {@code node}. */
  private String dataPathHere(String node) {
    String path = spec.dataPath();
    return proof
        .node(node)
        .map(SharedPathProof.NodeProof::path)
        .filter(p -> !p.equals(path))
        .map(p -> p + " (= " + path + ")")
        .orElse(path);
  }

  private NodeState parse(String stdout) {
    return NodeState.parse(stdout, scripts.probedDirs(), scripts.probedFiles());
  }

  /** Each managed file as it should be: root-owned, the right mode, the right content. */
  private List<String> verify(NodeState after) {
    List<String> wrong = new ArrayList<>();
    for (DesiredFile f : desired) {
      FileState s = after.file(f.path());
      if (s.kind() != FileState.Kind.FILE) {
        wrong.add(f.path() + " is " + s.kind().name().toLowerCase(java.util.Locale.ROOT));
        continue;
      }
      if (!s.rootOwned()) {
        wrong.add(f.path() + " is owned by " + s.owner() + ", not 0:0");
      }
      if (s.mode() != f.mode()) {
        wrong.add(
            f.path()
                + " has mode "
                + SetupPlan.octal(s.mode())
                + ", not "
                + SetupPlan.octal(f.mode()));
      }
      if (!f.sha256().equals(s.sha256())) {
        wrong.add(f.path() + " has other content than written (sha256 " + s.sha256() + ")");
      }
    }
    return wrong;
  }

  /** Why a round trip failed, in words for people; empty when it worked. */
  static Optional<String> problem(ExecResult r, String doing) {
    if (r.error() != null) {
      return Optional.of("cannot run the setup script (" + doing + "): " + r.error());
    }
    if (r.exitCode() == 0) {
      return Optional.empty();
    }
    List<String> ours = new ArrayList<>();
    String needsRoot = null;
    String last = null;
    for (String line : r.stderr().split("\n")) {
      if (line.startsWith(SetupScripts.NEEDS_ROOT)) {
        needsRoot = line.substring(SetupScripts.NEEDS_ROOT.length()).replace("sudo: ", "");
      } else if (line.startsWith(SetupScripts.ERROR)) {
        ours.add(line.substring(SetupScripts.ERROR.length()));
      } else if (!line.isBlank()) {
        last = line.strip();
      }
    }
    if (r.exitCode() == SetupScripts.NEEDS_ROOT_EXIT && needsRoot != null) {
      return Optional.of("setup needs root: " + needsRoot);
    }
    if (!ours.isEmpty()) {
      return Optional.of(String.join("; ", ours));
    }
    return Optional.of(
        doing + " failed (exit " + r.exitCode() + ")" + (last == null ? "" : ": " + last));
  }
}
