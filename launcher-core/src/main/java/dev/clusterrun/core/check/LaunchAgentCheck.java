package dev.clusterrun.core.check;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/** The {@code launch-agent} check: nothing else sets Open MPI's launch or rsh/ssh agent. */
final class LaunchAgentCheck extends NodeCheck {
  /**
   * Nothing but clusterrun's own hook may set Open MPI's launch agent (or its rsh/ssh agent): hooks
   * run in name order and each appends to {@code $ENROOT_ENVIRON}, so a later one replaces the
   * agent clusterrun gives each job, and the remote daemons start in some container without the
   * job's mounts. A hook is a program: a file that names the variables is flagged; a mention in a
   * comment only warns.
   */
  @Override
  CheckResult judge(CheckInput in, Facts f) {
    String n = f.node();
    Findings found = new Findings();
    Map<String, List<AgentMention>> byPlace = new LinkedHashMap<>();
    for (AgentMention m : f.mpi().agents()) {
      byPlace.computeIfAbsent(m.path() == null ? "" : m.path(), k -> new ArrayList<>()).add(m);
    }
    for (List<AgentMention> ms : byPlace.values()) {
      switch (ms.get(0).kind()) {
        case HOOK -> hook(ms, found);
        case ENVIRON -> environ(ms, found);
        case CONFIG -> config(ms, found);
        case ENVIRONMENT -> environment(ms, f, found);
        default -> {}
      }
    }
    String fix = String.join("; ", found.fixes.stream().distinct().toList());
    if (!found.failures.isEmpty()) {
      List<String> all = new ArrayList<>(found.failures);
      all.addAll(found.warnings);
      return fail(n, String.join("; ", all), fix);
    }
    if (!found.warnings.isEmpty()) {
      return warn(n, String.join("; ", found.warnings), fix);
    }
    return pass(n, "no hook, environ.d file or setting but clusterrun's sets Open MPI's agents");
  }

  /** What the places that name an agent variable come to: failures, warnings, fixes. */
  private static final class Findings {
    final List<String> failures = new ArrayList<>();
    final List<String> warnings = new ArrayList<>();
    final List<String> fixes = new ArrayList<>();
  }

  /** A hook that sets an agent (or names one in a comment). */
  private static void hook(List<AgentMention> ms, Findings found) {
    AgentMention first = ms.get(0);
    List<AgentMention> code = inCode(ms);
    String sudo = "user".equals(first.scope()) ? "" : "sudo ";
    if (!code.isEmpty() && first.active()) {
      found.failures.add(
          "the hook " + setsText(code) + ": " + consequence(code) + " (hooks run in name order)");
      found.fixes.add(
          "disable it: "
              + sudo
              + "mv "
              + first.path()
              + " "
              + first.path()
              + ".off (enroot runs only *.sh hooks; clusterrun's hook gives each job its agent)");
    } else if (!code.isEmpty()) {
      found.warnings.add(
          "the hook "
              + setsText(code)
              + " but enroot does not run it now (not an executable *.sh); enabled, it would"
              + " replace the job's launch agent");
      found.fixes.add(sudo + "rm " + first.path());
    } else if (first.active()) {
      found.warnings.add(
          "the hook "
              + first.path()
              + " names "
              + ms.stream()
                  .map(m -> m.variable() + " (line " + m.line() + ")")
                  .distinct()
                  .collect(Collectors.joining(", "))
              + " in a comment; a hook that sets it replaces the job's launch agent");
      found.fixes.add("read " + first.path() + " and make sure it sets no agent of Open MPI");
    }
  }

  /** An environ.d file that sets an agent in every container. */
  private static void environ(List<AgentMention> ms, Findings found) {
    AgentMention first = ms.get(0);
    List<AgentMention> code = inCode(ms);
    if (!code.isEmpty()) {
      found.failures.add(setsText(code) + " in every container: " + consequence(code));
      found.fixes.add(
          "remove "
              + code.stream()
                  .map(AgentMention::variable)
                  .distinct()
                  .collect(Collectors.joining(", "))
              + " from "
              + first.path());
    }
  }

  /** enroot's configuration names an agent: enroot ignores it. */
  private static void config(List<AgentMention> ms, Findings found) {
    AgentMention first = ms.get(0);
    List<AgentMention> code = inCode(ms);
    if (!code.isEmpty()) {
      found.warnings.add(
          setsText(code)
              + ", which enroot ignores (it reads only ENROOT_* and a few other settings"
              + " from its configuration)");
      found.fixes.add("remove the line from " + first.path());
    }
  }

  /** The job user's environment sets an agent: hooks see it. */
  private static void environment(List<AgentMention> ms, Facts f, Findings found) {
    String n = f.node();
    for (AgentMention m : ms) {
      found.warnings.add(
          m.variable()
              + " is set in the environment of "
              + (f.account().user() != null ? f.account().user() : "the job user")
              + " (non-interactive SSH): enroot clears it in containers, but hooks see it");
      found.fixes.add(
          "unset "
              + m.variable()
              + " in the shell startup files of "
              + (f.account().user() != null ? f.account().user() : "the job user")
              + " on "
              + n);
    }
  }

  /** The mentions that are code, not comments: the ones that set an agent. */
  private static List<AgentMention> inCode(List<AgentMention> ms) {
    return ms.stream().filter(m -> !m.comment()).toList();
  }

  /** {@code /etc/enroot/hooks.d/ompi.sh:2 sets OMPI_MCA_orte_launch_agent} (and more lines). */
  private static String setsText(List<AgentMention> code) {
    AgentMention first = code.get(0);
    StringBuilder b = new StringBuilder(first.place()).append(" sets ").append(first.variable());
    for (AgentMention m : code.subList(1, code.size())) {
      b.append(", line ").append(m.line()).append(' ').append(m.variable());
    }
    return b.toString();
  }

  private static String consequence(List<AgentMention> code) {
    boolean launch = code.stream().anyMatch(m -> m.variable().endsWith("launch_agent"));
    return launch
        ? "it replaces the launch agent clusterrun gives each job, so remote daemons start without"
            + " the job's mounts and run id"
        : "it changes how mpirun reaches the other nodes, around the SSH that clusterrun checked";
  }
}
