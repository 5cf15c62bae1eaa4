package dev.clusterrun.core.launch.plan;

import dev.clusterrun.core.Json;
import dev.clusterrun.core.enroot.AgentJoin;
import dev.clusterrun.core.launch.job.Secrets;
import dev.clusterrun.core.remote.ShellQuote;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Text for people and JSON for machines. Secrets (by variable name) are masked in both. */
public final class PlanRenderer {
  private PlanRenderer() {}

  /**
   * The launch agent's header: what it starts and how it reaches the nodes, and its first step (the
   * join of a container begun during the checks) when it has one.
   */
  private static void agentHeader(StringBuilder b, Plan p) {
    b.append("## launch agent: how mpirun starts ")
        .append(p.daemon())
        .append(" in the container on every other node")
        .append(
            p.hook()
                ? " (handed over by the clusterrun hook)"
                : " (passed with enroot start --env, --no-hook)");
    if (p.held() != null) {
      b.append("; its first step, the run's ")
          .append(AgentJoin.FILE)
          .append(", joins the container begun on the node during the checks (enroot exec PID)")
          .append(" when it began with these words, else runs this enroot start");
    }
    b.append('\n');
  }

  public static String text(Plan p) {
    StringBuilder b = new StringBuilder();
    b.append("# clusterrun plan for job ")
        .append(p.jobName())
        .append(" (run ")
        .append(p.runId())
        .append(")\n");
    b.append("# ")
        .append(p.nodes().size())
        .append(p.nodes().size() == 1 ? " node, " : " nodes, ")
        .append(
            p.isPerNode()
                ? "one process on each (per-node)"
                : p.np() + (p.np() == 1 ? " rank" : " ranks"))
        .append("; container ")
        .append(p.containerName())
        .append(p.namedContainer() ? " (named, kept)" : " (for this run, removed after)")
        .append('\n');
    if (p.nodesFrom() != null) {
      b.append("# nodes from ").append(p.nodesFrom()).append('\n');
    }
    b.append('\n');

    b.append("## prepare, on the head\n");
    if (p.imageNote() != null) {
      b.append("# image ").append(p.imageNote()).append('\n');
    }
    if (p.containerHolds() != null) {
      b.append("# container ")
          .append(p.containerName())
          .append(" holds: ")
          .append(p.containerHolds())
          .append('\n');
    }
    for (Plan.Step s : p.prepare()) {
      b.append("# ").append(s.what()).append(": ").append(s.when()).append('\n');
      if (!s.argv().isEmpty()) {
        b.append(shell(s.argv())).append('\n');
      }
    }
    b.append('\n');

    if (p.isPerNode()) {
      perNode(p, b);
    } else {
      b.append("## hostfile mpirun reads: ")
          .append(p.hostfilePath())
          .append(" (written to ")
          .append(p.hostfileHostPath())
          .append(")\n");
      b.append(p.hostfileContent()).append('\n');

      b.append("## launch, on the head\n");
      b.append("# environment of enroot start:");
      p.launchEnv()
          .forEach(
              (k, v) ->
                  b.append(' ').append(ShellQuote.quote(Secrets.maskAssignment(k + "=" + v))));
      b.append('\n');
      b.append(shell(p.launch())).append('\n');
      b.append('\n');

      agentHeader(b, p);
      b.append(shell(p.agent())).append('\n');
    }

    if (!p.cleanup().isEmpty()) {
      b.append('\n').append("## after the job, on the head\n");
      for (Plan.Step s : p.cleanup()) {
        b.append("# ").append(s.what()).append('\n').append(shell(s.argv())).append('\n');
      }
    }

    b.append('\n').append("## settings\n");
    int kw = 0;
    int vw = 0;
    for (Plan.SettingView s : p.settings()) {
      kw = Math.max(kw, s.key().length());
      vw = Math.max(vw, Math.min(48, s.value().length()));
    }
    for (Plan.SettingView s : p.settings()) {
      b.append(pad(s.key(), kw))
          .append("  ")
          .append(pad(s.value(), vw))
          .append("  ")
          .append(s.source());
      if (!s.origin().equals("built-in") && !s.origin().equals("unset")) {
        b.append(" (").append(s.origin()).append(')');
      }
      b.append('\n');
    }
    b.append("# run directory: ").append(p.runDir()).append('\n');
    return b.toString();
  }

  /** The per-node launch: the rendezvous, then each node's variables and words. */
  private static void perNode(Plan p, StringBuilder b) {
    PerNodePlan.NodeStart first = p.perNode().get(0);
    b.append("## launch: the command once on every node, inside the container there (per-node)\n");
    b.append("# rendezvous: ")
        .append(first.variables().get("MASTER_ADDR"))
        .append(':')
        .append(first.variables().get("MASTER_PORT"))
        .append(" (the first host of the hostfile")
        .append(
            PerNodePlan.PORT_AT_LAUNCH.equals(first.variables().get("MASTER_PORT"))
                ? "; a port free there is picked on it at launch)"
                : ")")
        .append('\n');
    for (PerNodePlan.NodeStart n : p.perNode()) {
      b.append("# ")
          .append(n.node())
          .append(": rank ")
          .append(n.rank())
          .append(", ")
          .append(n.slots())
          .append(n.slots() == 1 ? " slot" : " slots")
          .append("; output kept in ")
          .append(n.stdoutLog())
          .append(" and ")
          .append(n.stderrLog())
          .append('\n');
      b.append("#   variables:");
      n.variables().forEach((k, v) -> b.append(' ').append(ShellQuote.quote(k + "=" + v)));
      b.append('\n');
      b.append(shell(n.argv())).append('\n');
    }
  }

  public static String json(Plan p) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("job", p.jobName());
    m.put("runId", p.runId());
    m.put("runDir", p.runDir());
    m.put("nodes", p.nodes());
    m.put("nodesFrom", p.nodesFrom());
    m.put("np", p.np());
    Map<String, Object> container = new LinkedHashMap<>();
    container.put("name", p.containerName());
    container.put("named", p.namedContainer());
    container.put("imageOnlyIfMissing", p.imageOnlyIfMissing());
    container.put("holds", p.containerHolds());
    m.put("container", container);
    m.put("image", p.image());
    if (p.imageNote() != null) {
      m.put("imageNote", p.imageNote());
    }
    m.put("prepare", p.prepare().stream().map(PlanRenderer::step).toList());
    Map<String, Object> hf = new LinkedHashMap<>();
    hf.put("path", p.hostfilePath());
    hf.put("hostPath", p.hostfileHostPath());
    hf.put("content", p.hostfileContent());
    m.put("hostfile", hf);
    Map<String, Object> launch = new LinkedHashMap<>();
    launch.put("argv", Secrets.maskArgv(p.launch()));
    launch.put("command", shell(p.launch()));
    Map<String, String> env = new LinkedHashMap<>();
    p.launchEnv()
        .forEach(
            (k, v) -> {
              String masked = Secrets.maskAssignment(k + "=" + v);
              env.put(k, masked.substring(k.length() + 1));
            });
    launch.put("env", env);
    m.put("launch", launch);
    Map<String, Object> agent = new LinkedHashMap<>();
    agent.put("argv", Secrets.maskArgv(p.agent()));
    agent.put("command", shell(p.agent()));
    agent.put("daemon", p.daemon());
    agent.put("via", p.hook() ? "hook" : "enroot-env");
    m.put("launchAgent", agent);
    m.put("launcher", p.launcher());
    List<Map<String, Object>> nodes = new ArrayList<>();
    for (PerNodePlan.NodeStart n : p.perNode()) {
      Map<String, Object> e = new LinkedHashMap<>();
      e.put("node", n.node());
      e.put("rank", n.rank());
      e.put("slots", n.slots());
      e.put("variables", n.variables());
      e.put("argv", Secrets.maskArgv(n.argv()));
      e.put("command", shell(n.argv()));
      e.put("stdoutLog", n.stdoutLog());
      e.put("stderrLog", n.stderrLog());
      nodes.add(e);
    }
    m.put("perNode", nodes);
    m.put("cleanup", p.cleanup().stream().map(PlanRenderer::step).toList());
    m.put("settings", p.settings());
    return Json.pretty(m);
  }

  private static Map<String, Object> step(Plan.Step s) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("what", s.what());
    m.put("when", s.when());
    m.put("argv", Secrets.maskArgv(s.argv()));
    m.put("command", s.argv().isEmpty() ? null : shell(s.argv()));
    return m;
  }

  /** An argv as a shell line, secrets masked. */
  public static String shell(List<String> argv) {
    return ShellQuote.join(Secrets.maskArgv(argv));
  }

  private static String pad(String s, int w) {
    return s.length() >= w ? s : s + " ".repeat(w - s.length());
  }
}
