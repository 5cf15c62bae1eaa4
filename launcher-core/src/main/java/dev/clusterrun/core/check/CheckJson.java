package dev.clusterrun.core.check;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.clusterrun.core.Json;
import dev.clusterrun.core.enroot.EnrootConfigValue;
import java.time.Duration;
import java.util.Locale;

/** The machines' rendering of a {@link CheckReport}. */
final class CheckJson {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private CheckJson() {}

  static String render(CheckReport r) {
    ObjectNode root = MAPPER.createObjectNode();
    root.put("passed", r.passed());
    root.put("head", r.head());
    ObjectNode summary = root.putObject("summary");
    for (CheckStatus s : CheckStatus.values()) {
      summary.put(s.name().toLowerCase(Locale.ROOT), r.count(s));
    }
    ArrayNode checks = root.putArray("checks");
    for (CheckId c : r.checks()) {
      checks.addObject().put("id", c.id()).put("description", c.description());
    }
    ObjectNode t = root.putObject("timings");
    t.put("totalMs", ms(r.timings().total()));
    t.put("factsMs", ms(r.timings().facts()));
    t.put("proofMs", ms(r.timings().proof()));
    t.put("sshMs", ms(r.timings().ssh()));
    if (r.proofCleanupProblem() != null) {
      root.put("proofCleanupProblem", r.proofCleanupProblem());
    }
    ArrayNode nodes = root.putArray("nodes");
    for (String n : r.nodes()) {
      ObjectNode node = nodes.addObject();
      node.put("node", n);
      node.put("head", n.equals(r.head()));
      Facts f = r.facts().get(n);
      node.put("answered", f != null && f.answered());
      if (f != null) {
        node.put("elapsedMs", ms(f.elapsed()));
        if (f.problem() != null) {
          node.put("problem", f.problem());
        }
        if (f.answered()) {
          facts(node.putObject("facts"), f);
        }
      }
      ArrayNode rs = node.putArray("checks");
      for (CheckId c : r.checks()) {
        r.result(n, c)
            .ifPresent(
                x ->
                    rs.addObject()
                        .put("id", x.checkId())
                        .put("status", x.status().name())
                        .put("reason", x.reason())
                        .put("fix", x.fix()));
      }
    }
    return Json.pretty(root);
  }

  private static void facts(ObjectNode o, Facts f) {
    o.put("hostname", f.host().hostname());
    putInt(o, "uid", f.account().uid());
    putInt(o, "gid", f.account().gid());
    o.put("user", f.account().user());
    o.put("home", f.account().home());
    o.put("enrootPath", f.enroot().path());
    o.put("enrootVersion", f.enroot().version());
    if (f.enroot().settings() != null) {
      ObjectNode e = o.putObject("enroot");
      for (EnrootConfigValue v : f.enroot().settings().all()) {
        ObjectNode s = e.putObject(v.name());
        s.put("value", v.value());
        s.put("source", v.source());
        if (v.line() != null) {
          s.put("line", v.line());
        }
        if (v.error() != null) {
          s.put("error", v.error());
        }
      }
    }
    o.put("dataFsType", f.storage().dataFsType());
    o.put("dataMountPoint", f.storage().dataMountPoint());
    o.put("dataInHome", f.dataInHome());
    o.put("configFingerprint", f.enroot().configFingerprint());
    ArrayNode hooks = o.putArray("hooks");
    for (HookFile h : f.enroot().hooks()) {
      ObjectNode ho = hooks.addObject();
      ho.put("path", h.path());
      ho.put("scope", h.scope());
      ho.put("mode", h.mode());
      putInt(ho, "uid", h.uid());
      ho.put("executable", h.executable());
      ho.put("sha256", h.sha256());
      putInt(ho, "version", h.version());
    }
    ArrayNode agents = o.putArray("agentSettings");
    for (AgentMention m : f.mpi().agents()) {
      ObjectNode ao = agents.addObject();
      ao.put("kind", m.kind().name().toLowerCase(Locale.ROOT));
      ao.put("scope", m.scope());
      ao.put("path", m.path());
      putInt(ao, "line", m.line());
      ao.put("variable", m.variable());
      ao.put("comment", m.comment());
      ao.put("active", m.active());
    }
    ObjectNode cs = o.putObject("containers");
    f.enroot().containers().forEach(cs::put);
    putInt(o, "gpuCount", f.gpus().count());
    o.put("gpuModel", f.gpus().model());
    o.put("mountNamespace", f.host().mountNamespace());
    o.put("mpiVersion", f.mpi().version());
    o.put("fuse", f.host().fuse());
  }

  private static void putInt(ObjectNode o, String k, Integer v) {
    if (v == null) {
      o.putNull(k);
    } else {
      o.put(k, v);
    }
  }

  private static long ms(Duration d) {
    return d == null ? 0 : d.toMillis();
  }
}
