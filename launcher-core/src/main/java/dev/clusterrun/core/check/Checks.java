package dev.clusterrun.core.check;

import static dev.clusterrun.core.check.CheckResult.fail;
import static dev.clusterrun.core.check.CheckResult.pass;
import static dev.clusterrun.core.check.CheckResult.skip;
import static dev.clusterrun.core.check.CheckResult.warn;

import dev.clusterrun.core.cluster.Host;
import dev.clusterrun.core.enroot.EnrootConfigValue;
import dev.clusterrun.core.spec.Mount;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * The checks of {@code clusterrun check}: pure functions over {@link Facts}, the shared-path proof
 * and the head's SSH probe. Every FAIL and WARN carries a one-line fix.
 */
public final class Checks {
  private Checks() {}

  /** All selected checks for all nodes, node by node in {@code in.nodes()} order. */
  public static List<CheckResult> evaluate(CheckInput in, CheckSelection selection) {
    Map<CheckId, Map<String, CheckResult>> byCheck = new LinkedHashMap<>();
    for (CheckId id : CheckId.values()) {
      if (selection.includes(id)) {
        byCheck.put(id, evaluate(in, id));
      }
    }
    List<CheckResult> out = new ArrayList<>();
    for (String n : in.nodes()) {
      for (Map<String, CheckResult> m : byCheck.values()) {
        CheckResult r = m.get(n);
        if (r != null) {
          out.add(r);
        }
      }
    }
    return out;
  }

  /** One check for every node. */
  public static Map<String, CheckResult> evaluate(CheckInput in, CheckId id) {
    Map<String, CheckResult> out = new LinkedHashMap<>();
    Map<String, CheckResult> cluster =
        switch (id) {
          case ENROOT_VERSION -> enrootVersion(in);
          case CONFIG_IDENTICAL -> configIdentical(in);
          case HOSTNAME_UNIQUE -> hostnameUnique(in);
          case CONTAINER -> container(in);
          default -> Map.of();
        };
    for (String n : in.nodes()) {
      Facts f = in.facts().get(n);
      if (f == null) {
        f = Facts.unanswered(n, "not asked", java.time.Duration.ZERO);
      }
      if (id == CheckId.REACHABLE) {
        out.put(n, reachable(f));
      } else if (!f.answered()) {
        out.put(n, skip(n, id, "the node did not answer"));
      } else if (cluster.containsKey(n)) {
        out.put(n, cluster.get(n));
      } else {
        out.put(n, perNode(in, id, f));
      }
    }
    return out;
  }

  private static CheckResult perNode(CheckInput in, CheckId id, Facts f) {
    return switch (id) {
      case ENROOT -> enroot(f);
      case RUNTIME_PATH -> runtimePath(f);
      case CACHE_PATH -> cachePath(f);
      case DATA_PATH -> dataPath(in, f);
      case DATA_PATH_SHARED -> dataPathShared(in, f);
      case MOUNT_HOME -> mountHome(in, f);
      case HOOK -> hook(in.expected(), f);
      case LAUNCH_AGENT -> launchAgent(f);
      case DROPIN -> dropIn(in.expected(), f);
      case UID_GID -> uidGid(in, f);
      case SSH_FROM_HEAD -> sshFromHead(in, f);
      case GPU_SLOTS -> gpuSlots(in, f);
      default -> skip(f.node(), id, "not evaluated");
    };
  }

  // --- per node ---------------------------------------------------------------------------------

  static CheckResult reachable(Facts f) {
    String n = f.node();
    if (f.answered()) {
      return pass(
          n,
          CheckId.REACHABLE,
          String.format(Locale.ROOT, "answered in %.2f s as %s", seconds(f), f.user()));
    }
    return fail(
        n,
        CheckId.REACHABLE,
        f.problem(),
        "make `ssh "
            + n
            + " true` work from this machine as the job user (name, key, known_hosts)");
  }

  static CheckResult enroot(Facts f) {
    String n = f.node();
    if (!f.enrootInstalled()) {
      return fail(
          n,
          CheckId.ENROOT,
          "enroot is not in PATH of a non-interactive SSH session (PATH="
              + f.raw().getOrDefault("env.path", "?")
              + ")",
          "install enroot on "
              + n
              + " (in a directory on the PATH sshd gives non-interactive sessions)");
    }
    if (f.enrootVersion() == null) {
      String err = f.enrootVersionError() == null ? "no output" : f.enrootVersionError().strip();
      boolean runtime = err.contains("mkdir") || err.contains("Permission denied");
      return fail(
          n,
          CheckId.ENROOT,
          "`enroot version` failed: " + oneLine(err),
          runtime
              ? "make enroot's paths writable for the job user: run `clusterrun setup` (see runtime-path)"
              : "check the enroot installation on " + n + " (`enroot version` must work)");
    }
    return pass(n, CheckId.ENROOT, "enroot " + f.enrootVersion() + " at " + f.enrootPath());
  }

  static CheckResult runtimePath(Facts f) {
    EnrootConfigValue v = f.enroot().runtimePath();
    String n = f.node();
    String fix = "run `clusterrun setup` (sets ENROOT_RUNTIME_PATH to a per-user path)";
    if (unexpanded(v) != null) {
      return fail(n, CheckId.RUNTIME_PATH, unexpanded(v), "fix that line");
    }
    if (!v.isSet()) {
      return fail(n, CheckId.RUNTIME_PATH, unsetReason(v), fix);
    }
    if (EnrootConfigValue.ENVIRONMENT.equals(v.source())) {
      // Setup cannot help: the environment overrides every configuration file.
      fix =
          "unset ENROOT_RUNTIME_PATH in the environment of "
              + f.user()
              + " on "
              + n
              + " (it overrides enroot's configuration), or point it to a directory "
              + f.user()
              + " can create";
    } else if (!EnrootConfigValue.DEFAULT.equals(v.source())) {
      // Set by a file (clusterrun's drop-in or another): setup again would change nothing.
      fix =
          "make "
              + v.value()
              + " creatable by "
              + f.user()
              + " on "
              + n
              + ", or set another ENROOT_RUNTIME_PATH in "
              + v.describeSource();
    }
    boolean fallback =
        EnrootConfigValue.DEFAULT.equals(v.source())
            && (f.xdgRuntimeDir() == null || f.xdgRuntimeDir().isEmpty());
    if (!f.runtime().writable()) {
      return fail(
          n,
          CheckId.RUNTIME_PATH,
          v.value()
              + " "
              + from(v)
              + " is not writable: "
              + oneLine(f.runtime().error())
              + (fallback
                  ? " (no XDG_RUNTIME_DIR in a non-interactive SSH session, so enroot uses /run/enroot)"
                  : ""),
          fix);
    }
    if (fallback && f.uid() != null && f.uid() != 0) {
      return warn(
          n,
          CheckId.RUNTIME_PATH,
          v.value()
              + " "
              + from(v)
              + " works here only because it exists already (no XDG_RUNTIME_DIR over SSH); nodes"
              + " without it fail",
          fix);
    }
    return pass(n, CheckId.RUNTIME_PATH, v.value() + " " + from(v));
  }

  static CheckResult cachePath(Facts f) {
    EnrootConfigValue v = f.enroot().cachePath();
    String n = f.node();
    String fix =
        "run `clusterrun setup` (sets ENROOT_CACHE_PATH to a per-user path), or make it writable"
            + " for "
            + f.user();
    if (unexpanded(v) != null) {
      return fail(n, CheckId.CACHE_PATH, unexpanded(v), "fix that line");
    }
    if (!v.isSet()) {
      return fail(n, CheckId.CACHE_PATH, unsetReason(v), fix);
    }
    if (!f.cache().writable()) {
      return fail(
          n,
          CheckId.CACHE_PATH,
          v.value() + " " + from(v) + " is not writable: " + oneLine(f.cache().error()),
          fix);
    }
    return pass(n, CheckId.CACHE_PATH, v.value() + " " + from(v));
  }

  static CheckResult dataPath(CheckInput in, Facts f) {
    EnrootConfigValue v = f.enroot().dataPath();
    String n = f.node();
    if (unexpanded(v) != null) {
      return fail(n, CheckId.DATA_PATH, unexpanded(v), "fix that line");
    }
    if (!v.isSet()) {
      return fail(
          n,
          CheckId.DATA_PATH,
          unsetReason(v),
          "set ENROOT_DATA_PATH to a directory on shared storage (clusterrun setup)");
    }
    String fs = fsText(f);
    if (!f.data().writable()) {
      return fail(
          n,
          CheckId.DATA_PATH,
          v.value() + " " + from(v) + fs + " is not writable: " + oneLine(f.data().error()),
          "make "
              + v.value()
              + " writable for "
              + f.user()
              + ", or set ENROOT_DATA_PATH elsewhere");
    }
    if (f.dataInHome() && mountHomeEffective(in, f)) {
      return warn(
          n,
          CheckId.DATA_PATH,
          v.value()
              + " "
              + from(v)
              + fs
              + " lies inside "
              + f.home()
              + ", which enroot mounts into the container: starts can fail with `enroot-mount:"
              + " ... Invalid argument`",
          "move ENROOT_DATA_PATH out of the home directory (e.g. /shared/enroot/data-$(id -u))");
    }
    return pass(n, CheckId.DATA_PATH, v.value() + " " + from(v) + fs);
  }

  static CheckResult dataPathShared(CheckInput in, Facts f) {
    String n = f.node();
    String fix =
        "set ENROOT_DATA_PATH on every node to one directory on storage all nodes share (e.g. NFS),"
            + " with `clusterrun setup`";
    if (in.nodes().size() == 1) {
      return pass(n, CheckId.DATA_PATH_SHARED, "one node: nothing to share");
    }
    if (in.proof() == null) {
      return skip(n, CheckId.DATA_PATH_SHARED, "not proven (the proof did not run)");
    }
    Optional<SharedPathProof.NodeOutcome> o = in.proof().outcome(n);
    if (o.isEmpty()) {
      return skip(n, CheckId.DATA_PATH_SHARED, "not part of the proof");
    }
    String fs = fsText(f);
    SharedPathProof.NodeOutcome oc = o.get();
    switch (oc.status()) {
      case SHARED -> {
        Facts head = in.facts().get(in.head());
        String headPath = head != null ? head.dataPath() : null;
        if (headPath != null && f.dataPath() != null && !headPath.equals(f.dataPath())) {
          return warn(
              n,
              CheckId.DATA_PATH_SHARED,
              "shared, but as "
                  + f.dataPath()
                  + " "
                  + from(f.enroot().dataPath())
                  + fs
                  + " here and "
                  + headPath
                  + " "
                  + from(head.enroot().dataPath())
                  + " on the head "
                  + in.head(),
              "use the same ENROOT_DATA_PATH on every node (clusterrun setup)");
        }
        return pass(
            n,
            CheckId.DATA_PATH_SHARED,
            (n.equals(in.head()) ? "head: " : "shared with the head: ") + oc.dataPath() + fs);
      }
      case NOT_SHARED -> {
        return fail(
            n,
            CheckId.DATA_PATH_SHARED,
            "not shared: "
                + n
                + " "
                + oc.detail()
                + " (ENROOT_DATA_PATH "
                + from(f.enroot().dataPath()).substring(1)
                + fs,
            fix);
      }
      default -> {
        return fail(
            n,
            CheckId.DATA_PATH_SHARED,
            "could not prove sharing: " + oc.detail(),
            "make ENROOT_DATA_PATH exist and be writable for " + f.user() + " on " + n);
      }
    }
  }

  static CheckResult mountHome(CheckInput in, Facts f) {
    String n = f.node();
    if (in.nodes().size() == 1) {
      return skip(n, CheckId.MOUNT_HOME, "one node: mpirun starts no SSH");
    }
    String via = null;
    EnrootConfigValue mh = f.enroot().mountHome();
    String why;
    String fix;
    if (in.job().mountHome() != null) {
      if (in.job().mountHome()) {
        via = "the job mounts the home directory";
      }
      why = "the job does not mount the home directory";
      fix = "mount the home directory (--container-mount-home, container.mount-home: true)";
    } else {
      if (mh.isSet()) {
        via = "ENROOT_MOUNT_HOME " + mh.value() + " " + from(mh);
      }
      why =
          mh.fromFile() || EnrootConfigValue.ENVIRONMENT.equals(mh.source())
              ? "ENROOT_MOUNT_HOME " + mh.raw() + " " + from(mh)
              : "ENROOT_MOUNT_HOME is unset " + from(mh);
      fix =
          mh.fromFile()
              ? "set ENROOT_MOUNT_HOME yes in " + mh.describeSource()
              : EnrootConfigValue.ENVIRONMENT.equals(mh.source())
                  ? "unset ENROOT_MOUNT_HOME in the environment of "
                      + (f.user() != null ? f.user() : "the job user")
                  : "run `clusterrun setup` (ENROOT_MOUNT_HOME yes)";
      fix += ", or give --container-mount-home (container.mount-home: true)";
    }
    if (via == null && f.home() != null) {
      String ssh = f.home() + "/.ssh";
      for (Mount m : in.job().mounts()) {
        String t = m.target().endsWith("/") ? m.target() : m.target() + "/";
        if ((ssh + "/").startsWith(t)) {
          via = "the job mounts " + m;
          break;
        }
      }
    }
    if (via == null) {
      return fail(
          n,
          CheckId.MOUNT_HOME,
          "no ~/.ssh inside the container: "
              + why
              + ", and no mount of "
              + (f.home() == null ? "~" : f.home())
              + "/.ssh; SSH from mpirun fails with `Host key verification failed.`",
          fix + ", or mount ~/.ssh");
    }
    if (Boolean.FALSE.equals(f.sshDir())) {
      return warn(
          n,
          CheckId.MOUNT_HOME,
          via + ", but " + f.home() + "/.ssh does not exist on " + n,
          "give " + f.user() + " a ~/.ssh with keys and known_hosts on " + n + " (shared home)");
    }
    return pass(n, CheckId.MOUNT_HOME, via);
  }

  static CheckResult hook(ExpectedSetup exp, Facts f) {
    String n = f.node();
    String path = exp.hookPath();
    Optional<Facts.HookFile> h = f.systemHook(exp.hookFileName());
    if (h.isEmpty()) {
      return fail(
          n,
          CheckId.HOOK,
          "no " + path + ": remote ranks get no launch agent",
          "run `clusterrun setup` (or run the job with --no-hook)");
    }
    Facts.HookFile hf = h.get();
    List<String> problems = new ArrayList<>();
    List<String> fixes = new ArrayList<>();
    if (hf.type() != null && !hf.type().startsWith("regular")) {
      problems.add("is a " + hf.type() + ", not a regular file");
      fixes.add("`clusterrun setup`");
    }
    if (!hf.executable()) {
      problems.add(
          "is not executable (mode "
              + hf.mode()
              + "): enroot skips a non-executable hook SILENTLY, so remote ranks start without"
              + " the launch agent (`orted: command not found`, or outside the container)");
      fixes.add("sudo chmod 0755 " + path);
    }
    if (hf.uid() == null || hf.uid() != 0) {
      problems.add(
          "is owned by " + (hf.owner() != null ? hf.owner() : "uid " + hf.uid()) + ", not root");
      fixes.add("sudo chown root:root " + path);
    }
    int bits = hf.modeBits();
    if (bits >= 0 && (bits & 0022) != 0) {
      problems.add("is group/world writable (mode " + hf.mode() + ")");
      fixes.add("sudo chmod go-w " + path);
    }
    if (hf.version() == null) {
      problems.add("has no `" + FactScript.HOOK_VERSION_HEADER.strip() + "` header");
      fixes.add("`clusterrun setup`");
    } else if (hf.version() != exp.hookVersion()) {
      problems.add("is version " + hf.version() + ", this clusterrun expects " + exp.hookVersion());
      fixes.add("`clusterrun setup`");
    } else if (exp.hookSha256() != null && !exp.hookSha256().equalsIgnoreCase(hf.sha256())) {
      problems.add("was modified (its sha256 differs from what setup installs)");
      fixes.add("`clusterrun setup`");
    }
    if (problems.isEmpty()) {
      return pass(
          n, CheckId.HOOK, path + " version " + hf.version() + ", root-owned, mode " + hf.mode());
    }
    List<String> distinctFixes = fixes.stream().distinct().toList();
    String fix =
        distinctFixes.contains("`clusterrun setup`")
            ? "run `clusterrun setup` (or: "
                + String.join(
                    "; ",
                    distinctFixes.stream().filter(x -> !x.equals("`clusterrun setup`")).toList())
                + ")"
            : String.join("; ", distinctFixes);
    if (fix.endsWith("(or: )")) {
      fix = "run `clusterrun setup`";
    }
    return fail(n, CheckId.HOOK, path + " " + String.join("; ", problems), fix);
  }

  /**
   * Nothing but clusterrun's own hook may set Open MPI's launch agent (or its rsh/ssh agent): hooks
   * run in name order and each appends to {@code $ENROOT_ENVIRON}, so a later one replaces the
   * agent clusterrun gives each job, and the remote daemons start in some container without the
   * job's mounts. A hook is a program: a file that names the variables is flagged; a mention in a
   * comment only warns.
   */
  static CheckResult launchAgent(Facts f) {
    String n = f.node();
    List<String> failures = new ArrayList<>();
    List<String> warnings = new ArrayList<>();
    List<String> fixes = new ArrayList<>();
    Map<String, List<Facts.AgentMention>> byPlace = new LinkedHashMap<>();
    for (Facts.AgentMention m : f.agents()) {
      byPlace.computeIfAbsent(m.path() == null ? "" : m.path(), k -> new ArrayList<>()).add(m);
    }
    for (List<Facts.AgentMention> ms : byPlace.values()) {
      Facts.AgentMention first = ms.get(0);
      List<Facts.AgentMention> code = ms.stream().filter(m -> !m.comment()).toList();
      String sudo = "user".equals(first.scope()) ? "" : "sudo ";
      switch (first.kind()) {
        case HOOK -> {
          if (!code.isEmpty() && first.active()) {
            failures.add(
                "the hook "
                    + setsText(code)
                    + ": "
                    + consequence(code)
                    + " (hooks run in name order)");
            fixes.add(
                "disable it: "
                    + sudo
                    + "mv "
                    + first.path()
                    + " "
                    + first.path()
                    + ".off (enroot runs only *.sh hooks; clusterrun's hook gives each job its agent)");
          } else if (!code.isEmpty()) {
            warnings.add(
                "the hook "
                    + setsText(code)
                    + " but enroot does not run it now (not an executable *.sh); enabled, it would"
                    + " replace the job's launch agent");
            fixes.add(sudo + "rm " + first.path());
          } else if (first.active()) {
            warnings.add(
                "the hook "
                    + first.path()
                    + " names "
                    + ms.stream()
                        .map(m -> m.variable() + " (line " + m.line() + ")")
                        .distinct()
                        .collect(java.util.stream.Collectors.joining(", "))
                    + " in a comment; a hook that sets it replaces the job's launch agent");
            fixes.add("read " + first.path() + " and make sure it sets no agent of Open MPI");
          }
        }
        case ENVIRON -> {
          if (!code.isEmpty()) {
            failures.add(setsText(code) + " in every container: " + consequence(code));
            fixes.add(
                "remove "
                    + code.stream()
                        .map(Facts.AgentMention::variable)
                        .distinct()
                        .collect(java.util.stream.Collectors.joining(", "))
                    + " from "
                    + first.path());
          }
        }
        case CONFIG -> {
          if (!code.isEmpty()) {
            warnings.add(
                setsText(code)
                    + ", which enroot ignores (it reads only ENROOT_* and a few other settings"
                    + " from its configuration)");
            fixes.add("remove the line from " + first.path());
          }
        }
        case ENVIRONMENT -> {
          for (Facts.AgentMention m : ms) {
            warnings.add(
                m.variable()
                    + " is set in the environment of "
                    + (f.user() != null ? f.user() : "the job user")
                    + " (non-interactive SSH): enroot clears it in containers, but hooks see it");
            fixes.add(
                "unset "
                    + m.variable()
                    + " in the shell startup files of "
                    + (f.user() != null ? f.user() : "the job user")
                    + " on "
                    + n);
          }
        }
        default -> {}
      }
    }
    String fix = String.join("; ", fixes.stream().distinct().toList());
    if (!failures.isEmpty()) {
      List<String> all = new ArrayList<>(failures);
      all.addAll(warnings);
      return fail(n, CheckId.LAUNCH_AGENT, String.join("; ", all), fix);
    }
    if (!warnings.isEmpty()) {
      return warn(n, CheckId.LAUNCH_AGENT, String.join("; ", warnings), fix);
    }
    return pass(
        n,
        CheckId.LAUNCH_AGENT,
        "no hook, environ.d file or setting but clusterrun's sets Open MPI's agents");
  }

  /** {@code /etc/enroot/hooks.d/ompi.sh:2 sets OMPI_MCA_orte_launch_agent} (and more lines). */
  private static String setsText(List<Facts.AgentMention> code) {
    Facts.AgentMention first = code.get(0);
    StringBuilder b = new StringBuilder(first.place()).append(" sets ").append(first.variable());
    for (Facts.AgentMention m : code.subList(1, code.size())) {
      b.append(", line ").append(m.line()).append(' ').append(m.variable());
    }
    return b.toString();
  }

  private static String consequence(List<Facts.AgentMention> code) {
    boolean launch = code.stream().anyMatch(m -> m.variable().endsWith("launch_agent"));
    return launch
        ? "it replaces the launch agent clusterrun gives each job, so remote daemons start without"
            + " the job's mounts and run id"
        : "it changes how mpirun reaches the other nodes, around the SSH that clusterrun checked";
  }

  static CheckResult dropIn(ExpectedSetup exp, Facts f) {
    String n = f.node();
    String path = exp.dropInPath();
    Optional<Facts.ConfFile> c =
        f.confFiles().stream()
            .filter(
                x ->
                    x.fileName().equals(exp.dropInFileName())
                        && x.path().contains("enroot.conf.d/"))
            .findFirst();
    if (c.isEmpty()) {
      return warn(
          n,
          CheckId.DROPIN,
          "no " + path + ": `clusterrun setup` has not run here",
          "run `clusterrun setup`");
    }
    if (exp.dropInSha256() != null && !exp.dropInSha256().equalsIgnoreCase(c.get().sha256())) {
      return warn(
          n,
          CheckId.DROPIN,
          path + " differs from what `clusterrun setup` writes",
          "run `clusterrun setup` again (it rewrites the drop-in)");
    }
    // enroot keeps the first value it reads (enroot.conf, then the drop-ins in name order), and the
    // environment over all: a setting of the drop-in can be silently overridden.
    List<String> shadowed = new ArrayList<>();
    List<String> fixes = new ArrayList<>();
    for (var e : c.get().sets().entrySet()) {
      EnrootConfigValue v =
          f.enroot().all().stream()
              .filter(x -> x.name().equals(e.getKey()))
              .findFirst()
              .orElse(null);
      if (v == null || v.source() == null || v.source().equals(c.get().path())) {
        continue;
      }
      if (v.fromFile()) {
        shadowed.add(
            e.getKey()
                + " (line "
                + e.getValue()
                + ") is overridden by "
                + v.describeSource()
                + ", which enroot reads first (the first value wins)");
        fixes.add("remove " + e.getKey() + " from " + v.describeSource());
      } else if (EnrootConfigValue.ENVIRONMENT.equals(v.source())) {
        shadowed.add(e.getKey() + " (line " + e.getValue() + ") is overridden by the environment");
        fixes.add(
            "unset "
                + e.getKey()
                + " in the environment of "
                + (f.user() != null ? f.user() : "the job user"));
      }
    }
    if (!shadowed.isEmpty()) {
      return warn(
          n,
          CheckId.DROPIN,
          path + ": " + String.join("; ", shadowed),
          String.join("; ", fixes) + " (or keep it, on purpose)");
    }
    return pass(n, CheckId.DROPIN, path);
  }

  static CheckResult uidGid(CheckInput in, Facts f) {
    String n = f.node();
    Facts ref = in.facts().get(in.head());
    if (ref == null || !ref.answered() || ref.uid() == null) {
      ref = null;
    }
    if (f.uid() == null || f.gid() == null) {
      return skip(n, CheckId.UID_GID, "uid/gid unknown");
    }
    String mine = "uid " + f.uid() + " gid " + f.gid() + " (" + f.user() + ")";
    if (ref == null || n.equals(in.head())) {
      return pass(n, CheckId.UID_GID, mine);
    }
    if (ref.uid().equals(f.uid()) && java.util.Objects.equals(ref.gid(), f.gid())) {
      return pass(n, CheckId.UID_GID, mine);
    }
    return fail(
        n,
        CheckId.UID_GID,
        mine
            + " here, but uid "
            + ref.uid()
            + " gid "
            + ref.gid()
            + " ("
            + ref.user()
            + ") on the head "
            + in.head(),
        "give the job user the same uid and gid on every node (files in the shared data path belong to a uid)");
  }

  static CheckResult sshFromHead(CheckInput in, Facts f) {
    String n = f.node();
    if (n.equals(in.head())) {
      return skip(n, CheckId.SSH_FROM_HEAD, "the head: mpirun starts its ranks without SSH");
    }
    if (in.ssh() == null) {
      return skip(n, CheckId.SSH_FROM_HEAD, "not probed");
    }
    NodeToNodeSsh.Outcome o = in.ssh().get(n);
    if (o == null) {
      return skip(n, CheckId.SSH_FROM_HEAD, "not probed");
    }
    if (o.ok()) {
      return pass(n, CheckId.SSH_FROM_HEAD, "`ssh " + n + " true` works from " + in.head());
    }
    String err = o.error() == null ? "" : o.error();
    String last = lastMeaningfulLine(err);
    String user = f.user() != null ? f.user() : "the job user";
    String fix;
    if (err.contains("Host key verification failed")
        || err.contains("REMOTE HOST IDENTIFICATION")) {
      fix =
          "on "
              + in.head()
              + " as "
              + user
              + ", accept "
              + n
              + "'s host key: `ssh "
              + n
              + " true` once (or ssh-keyscan "
              + n
              + " >> ~/.ssh/known_hosts)";
    } else if (err.contains("Permission denied")) {
      fix =
          "install " + user + "'s public key on " + n + ": `ssh-copy-id " + n + "` on " + in.head();
    } else if (err.contains("Could not resolve hostname")) {
      fix =
          "make "
              + n
              + " resolvable on "
              + in.head()
              + " (/etc/hosts or DNS), or put its address in the hostfile";
    } else {
      fix = "make `ssh -o BatchMode=yes " + n + " true` work on " + in.head() + " as " + user;
    }
    return fail(
        n,
        CheckId.SSH_FROM_HEAD,
        "`ssh "
            + n
            + " true` from "
            + in.head()
            + " failed (exit "
            + o.exitCode()
            + ")"
            + (last.isEmpty() ? "" : ": " + last),
        fix);
  }

  static CheckResult gpuSlots(CheckInput in, Facts f) {
    String n = f.node();
    if (f.gpuCount() == null) {
      return skip(n, CheckId.GPU_SLOTS, "no nvidia-smi");
    }
    if (f.gpuError() != null) {
      return warn(
          n,
          CheckId.GPU_SLOTS,
          "nvidia-smi -L failed: " + oneLine(f.gpuError()),
          "check the NVIDIA driver on " + n);
    }
    Host h = in.hosts().get(n);
    if (h == null) {
      return skip(n, CheckId.GPU_SLOTS, "not in the hostfile");
    }
    String gpus =
        f.gpuCount()
            + " GPU"
            + (f.gpuCount() == 1 ? "" : "s")
            + (f.gpuModel() != null ? " (" + f.gpuModel() + ")" : "");
    if (h.slots() == f.gpuCount()) {
      return pass(n, CheckId.GPU_SLOTS, h.slots() + " slots, " + gpus);
    }
    return warn(
        n,
        CheckId.GPU_SLOTS,
        h.slots()
            + " slot"
            + (h.slots() == 1 ? "" : "s")
            + (h.slotsGiven() ? "" : " (none given)")
            + " but "
            + gpus,
        "write `"
            + n
            + " slots="
            + f.gpuCount()
            + "` in the hostfile for one rank per GPU (ignore if intended)");
  }

  // --- across nodes
  // -------------------------------------------------------------------------------

  /**
   * The reference value among nodes: the most common one; on a tie, the head's (if in the tie),
   * else the first node's in order.
   */
  static <T> T reference(CheckInput in, Map<String, T> byNode) {
    Map<T, Integer> counts = new LinkedHashMap<>();
    for (T v : byNode.values()) {
      counts.merge(v, 1, Integer::sum);
    }
    int max = counts.values().stream().mapToInt(Integer::intValue).max().orElse(0);
    T headValue = byNode.get(in.head());
    if (headValue != null && counts.get(headValue) == max) {
      return headValue;
    }
    for (T v : byNode.values()) {
      if (counts.get(v) == max) {
        return v;
      }
    }
    return null;
  }

  private static <T> Map<String, T> answeredValues(CheckInput in, Function<Facts, T> get) {
    Map<String, T> m = new LinkedHashMap<>();
    for (String n : in.nodes()) {
      Facts f = in.facts().get(n);
      if (f != null && f.answered()) {
        T v = get.apply(f);
        if (v != null) {
          m.put(n, v);
        }
      }
    }
    return m;
  }

  private static List<String> nodesWith(Map<String, ?> m, Object value) {
    List<String> out = new ArrayList<>();
    m.forEach(
        (k, v) -> {
          if (v.equals(value)) {
            out.add(k);
          }
        });
    return out;
  }

  static Map<String, CheckResult> enrootVersion(CheckInput in) {
    Map<String, String> versions = answeredValues(in, Facts::enrootVersion);
    Map<String, CheckResult> out = new LinkedHashMap<>();
    String ref = reference(in, versions);
    for (String n : in.nodes()) {
      Facts f = in.facts().get(n);
      if (f == null || !f.answered()) {
        continue;
      }
      String v = versions.get(n);
      if (v == null) {
        out.put(n, skip(n, CheckId.ENROOT_VERSION, "enroot not installed or not runnable"));
      } else if (v.equals(ref)) {
        long others = versions.values().stream().filter(x -> !x.equals(ref)).count();
        out.put(n, pass(n, CheckId.ENROOT_VERSION, v + (others == 0 ? " on every node" : "")));
      } else {
        out.put(
            n,
            fail(
                n,
                CheckId.ENROOT_VERSION,
                "enroot " + v + " here, " + ref + " on " + names(nodesWith(versions, ref)),
                "install enroot " + ref + " on " + n + " (one version on every node)"));
      }
    }
    return out;
  }

  static Map<String, CheckResult> configIdentical(CheckInput in) {
    Map<String, String> prints = answeredValues(in, Facts::configFingerprint);
    Map<String, CheckResult> out = new LinkedHashMap<>();
    String ref = reference(in, prints);
    List<String> refNodes = ref == null ? List.of() : nodesWith(prints, ref);
    Facts refFacts =
        refNodes.isEmpty()
            ? null
            : in.facts().get(refNodes.contains(in.head()) ? in.head() : refNodes.get(0));
    for (String n : prints.keySet()) {
      Facts f = in.facts().get(n);
      String files = f.confFiles().size() + " file" + (f.confFiles().size() == 1 ? "" : "s");
      if (prints.get(n).equals(ref)) {
        out.put(
            n,
            pass(
                n,
                CheckId.CONFIG_IDENTICAL,
                prints.size() == refNodes.size()
                    ? files + ", identical on every node"
                    : files + ", as on " + names(refNodes)));
        continue;
      }
      out.put(
          n,
          fail(
              n,
              CheckId.CONFIG_IDENTICAL,
              "enroot configuration differs from "
                  + names(refNodes)
                  + ": "
                  + configDiff(refFacts, f),
              "make "
                  + f.sysconfDir()
                  + "/enroot.conf and enroot.conf.d/ on "
                  + n
                  + " the same as on "
                  + refFacts.node()
                  + " (`clusterrun setup` on every node)"));
    }
    return out;
  }

  private static String configDiff(Facts ref, Facts f) {
    Map<String, String> a = new LinkedHashMap<>();
    for (Facts.ConfFile c : ref.confFiles()) {
      a.put(ref.relativeConfName(c), c.sha256());
    }
    Map<String, String> b = new LinkedHashMap<>();
    for (Facts.ConfFile c : f.confFiles()) {
      b.put(f.relativeConfName(c), c.sha256());
    }
    List<String> parts = new ArrayList<>();
    for (var e : a.entrySet()) {
      if (!b.containsKey(e.getKey())) {
        parts.add(e.getKey() + " missing here");
      } else if (!java.util.Objects.equals(e.getValue(), b.get(e.getKey()))) {
        parts.add(
            e.getKey()
                + " differs (sha256 "
                + shortSha(b.get(e.getKey()))
                + " here, "
                + shortSha(e.getValue())
                + " there)");
      }
    }
    for (String k : b.keySet()) {
      if (!a.containsKey(k)) {
        parts.add(k + " only here");
      }
    }
    if (parts.isEmpty()) {
      parts.add("files read in another order");
    }
    return String.join("; ", parts);
  }

  static Map<String, CheckResult> hostnameUnique(CheckInput in) {
    Map<String, String> shortNames =
        answeredValues(
            in,
            f -> f.hostname() == null || f.hostname().isEmpty() ? null : shortName(f.hostname()));
    Map<String, CheckResult> out = new LinkedHashMap<>();
    for (String n : in.nodes()) {
      Facts f = in.facts().get(n);
      if (f == null || !f.answered()) {
        continue;
      }
      String s = shortNames.get(n);
      if (s == null) {
        out.put(n, skip(n, CheckId.HOSTNAME_UNIQUE, "hostname unknown"));
        continue;
      }
      List<String> same = nodesWith(shortNames, s);
      same.remove(n);
      if (same.isEmpty()) {
        out.put(n, pass(n, CheckId.HOSTNAME_UNIQUE, f.hostname()));
      } else {
        out.put(
            n,
            fail(
                n,
                CheckId.HOSTNAME_UNIQUE,
                "hostname '"
                    + f.hostname()
                    + "' is also the hostname of "
                    + names(same)
                    + ": Open MPI takes them for one host (shared memory between them)",
                "give " + n + " its own hostname (hostnamectl set-hostname NAME)"));
      }
    }
    return out;
  }

  static Map<String, CheckResult> container(CheckInput in) {
    String name = in.job().containerName();
    Map<String, CheckResult> out = new LinkedHashMap<>();
    Map<String, Boolean> present =
        answeredValues(in, f -> name == null ? null : f.containers().get(name));
    List<String> have = nodesWith(present, Boolean.TRUE);
    for (String n : in.nodes()) {
      Facts f = in.facts().get(n);
      if (f == null || !f.answered()) {
        continue;
      }
      if (name == null) {
        out.put(n, skip(n, CheckId.CONTAINER, "the job names no container"));
      } else if (Boolean.TRUE.equals(present.get(n))) {
        out.put(n, pass(n, CheckId.CONTAINER, name + " in " + f.dataPath()));
      } else if (have.isEmpty()) {
        out.put(
            n,
            skip(
                n,
                CheckId.CONTAINER,
                name + " not created yet; `clusterrun run` creates it from the image"));
      } else {
        out.put(
            n,
            fail(
                n,
                CheckId.CONTAINER,
                name
                    + " is not in "
                    + f.dataPath()
                    + " "
                    + from(f.enroot().dataPath())
                    + " here, but exists on "
                    + names(have)
                    + ": the data path is not shared",
                "share ENROOT_DATA_PATH between all nodes (see data-path-shared), then `clusterrun run` finds "
                    + name
                    + " everywhere"));
      }
    }
    return out;
  }

  // --- helpers
  // --------------------------------------------------------------------------------------

  static boolean mountHomeEffective(CheckInput in, Facts f) {
    return in.job().mountHome() != null ? in.job().mountHome() : f.enroot().mountHomeOn();
  }

  private static String fsText(Facts f) {
    if (f.dataFsType() == null) {
      return "";
    }
    return " ["
        + f.dataFsType()
        + (f.dataMountPoint() != null ? " on " + f.dataMountPoint() : "")
        + "]";
  }

  /**
   * Where an effective value comes from, for every message that judges one: {@code (from
   * /etc/enroot/enroot.conf.d/90-site.conf:1)}, {@code (from ENROOT_DATA_PATH in the environment)}
   * or {@code (enroot's default)}.
   */
  static String from(EnrootConfigValue v) {
    String s = v.source();
    if (EnrootConfigValue.DEFAULT.equals(s)) {
      return "(enroot's default)";
    }
    if (EnrootConfigValue.ENVIRONMENT.equals(s)) {
      return "(from " + v.name() + " in the environment)";
    }
    return "(from " + v.describeSource() + ")";
  }

  private static String unsetReason(EnrootConfigValue v) {
    if ((v.fromFile() || EnrootConfigValue.ENVIRONMENT.equals(v.source()))
        && v.raw() != null
        && !v.raw().isBlank()) {
      return v.name() + " " + v.raw() + " " + from(v) + " unsets it";
    }
    return v.name() + " is unset " + from(v);
  }

  /**
   * A configuration line enroot could not expand: enroot carries on as if it were not there, so the
   * value silently became its default. {@code null} when there is none.
   */
  private static String unexpanded(EnrootConfigValue v) {
    if (v.error() == null) {
      return null;
    }
    return v.name()
        + " cannot be expanded at "
        + oneLine(v.error())
        + "; enroot ignores that line and uses "
        + (v.isSet() ? v.value() + " " + from(v) : "no value");
  }

  private static String names(List<String> nodes) {
    if (nodes.size() <= 4) {
      return String.join(", ", nodes);
    }
    return String.join(", ", nodes.subList(0, 3)) + " and " + (nodes.size() - 3) + " other nodes";
  }

  private static String shortSha(String sha) {
    return sha == null ? "?" : sha.substring(0, Math.min(12, sha.length()));
  }

  static String shortName(String hostname) {
    int dot = hostname.indexOf('.');
    return (dot > 0 ? hostname.substring(0, dot) : hostname).toLowerCase(Locale.ROOT);
  }

  private static String oneLine(String s) {
    if (s == null) {
      return "";
    }
    return s.strip().replace('\n', ' ');
  }

  private static String lastMeaningfulLine(String err) {
    String[] lines = err.strip().split("\n");
    for (int i = lines.length - 1; i >= 0; i--) {
      String l = lines[i].strip();
      if (!l.isEmpty() && !l.startsWith("Warning: Permanently added")) {
        return l;
      }
    }
    return "";
  }

  private static double seconds(Facts f) {
    return f.elapsed() == null ? 0 : f.elapsed().toMillis() / 1000.0;
  }
}
