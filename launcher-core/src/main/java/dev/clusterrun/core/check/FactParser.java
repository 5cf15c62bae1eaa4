package dev.clusterrun.core.check;

import dev.clusterrun.core.enroot.EnrootConfig;
import dev.clusterrun.core.enroot.EnrootConfigValue;
import dev.clusterrun.core.remote.ExecResult;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Turns the output of {@link FactScript} into {@link Facts}; never throws on bad output. */
public final class FactParser {
  private FactParser() {}

  public static Facts parse(String node, ExecResult result) {
    Duration elapsed = result.elapsed() != null ? result.elapsed() : Duration.ZERO;
    if (result.error() != null) {
      return Facts.unanswered(node, result.error(), elapsed);
    }
    KeyValues.Parsed p = KeyValues.parse(result.stdout(), FactScript.BEGIN, FactScript.END);
    if (!p.begun()) {
      return Facts.unanswered(
          node, "the fact script printed no facts" + exitAndStderr(result), elapsed);
    }
    if (!p.complete()) {
      return Facts.unanswered(
          node, "the fact script's output ended early" + exitAndStderr(result), elapsed);
    }
    return fromValues(node, p.values(), elapsed);
  }

  private static String exitAndStderr(ExecResult r) {
    String err = r.stderr() == null ? "" : r.stderr().strip();
    int nl = err.lastIndexOf('\n');
    String last = nl >= 0 ? err.substring(nl + 1) : err;
    return " (exit " + r.exitCode() + (last.isEmpty() ? ")" : ": " + last + ")");
  }

  static Facts fromValues(String node, Map<String, String> v, Duration elapsed) {
    Map<String, EnrootConfigValue> cfg = new LinkedHashMap<>();
    for (String name : EnrootConfig.NAMES) {
      String k = "enroot." + name;
      String value = v.get(k);
      cfg.put(
          name,
          new EnrootConfigValue(
              name,
              value == null || value.isEmpty() ? null : value,
              v.getOrDefault(k + ".source", ""),
              v.getOrDefault(k + ".raw", ""),
              v.get(k + ".error"),
              toInt(v.get(k + ".line"))));
    }
    EnrootConfig enroot = EnrootConfig.of(cfg);

    List<Facts.AgentMention> agents = new ArrayList<>();
    List<Facts.ConfFile> confs = new ArrayList<>();
    for (int i = 0; v.containsKey("conf." + i + ".path"); i++) {
      String pre = "conf." + i + ".";
      Map<String, Integer> sets = new LinkedHashMap<>();
      for (String w : v.getOrDefault(pre + "sets", "").split(" ")) {
        int colon = w.lastIndexOf(':');
        Integer line = colon > 0 ? toInt(w.substring(colon + 1)) : null;
        if (line != null) {
          sets.putIfAbsent(w.substring(0, colon), line);
        }
      }
      String path = v.get(pre + "path");
      confs.add(
          new Facts.ConfFile(path, emptyToNull(v.get(pre + "sha256")), v.get(pre + "error"), sets));
      mentions(agents, Facts.AgentMention.Kind.CONFIG, "system", path, v.get(pre + "agent"), true);
    }

    List<Facts.HookFile> hooks = new ArrayList<>();
    for (int i = 0; v.containsKey("hook." + i + ".path"); i++) {
      String pre = "hook." + i + ".";
      String[] st = v.getOrDefault(pre + "stat", "").split(" ", 4);
      hooks.add(
          new Facts.HookFile(
              v.getOrDefault(pre + "scope", "system"),
              v.get(pre + "path"),
              st.length > 0 && !st[0].isEmpty() ? st[0] : null,
              st.length > 1 ? toInt(st[1]) : null,
              st.length > 2 ? st[2] : null,
              st.length > 3 ? st[3] : null,
              "yes".equals(v.get(pre + "executable")),
              emptyToNull(v.get(pre + "sha256")),
              toInt(v.get(pre + "version"))));
      Facts.HookFile h = hooks.get(hooks.size() - 1);
      // clusterrun's own hook (its header says so) passes the job's agent: not a foreign one.
      if (h.version() == null) {
        boolean runs =
            h.executable()
                && h.fileName().endsWith(".sh")
                && (h.type() == null || h.type().startsWith("regular"));
        mentions(
            agents, Facts.AgentMention.Kind.HOOK, h.scope(), h.path(), v.get(pre + "agent"), runs);
      }
    }
    for (int i = 0; v.containsKey("environ." + i + ".path"); i++) {
      String pre = "environ." + i + ".";
      mentions(
          agents,
          Facts.AgentMention.Kind.ENVIRON,
          v.getOrDefault(pre + "scope", "system"),
          v.get(pre + "path"),
          v.get(pre + "agent"),
          true);
    }
    for (String name : v.getOrDefault("env.agent", "").split("\n")) {
      if (!name.isBlank()) {
        agents.add(
            new Facts.AgentMention(
                Facts.AgentMention.Kind.ENVIRONMENT, null, null, null, false, name.strip(), true));
      }
    }

    Map<String, Boolean> containers = new LinkedHashMap<>();
    for (int i = 0; v.containsKey("container." + i + ".name"); i++) {
      containers.put(
          v.get("container." + i + ".name"), "yes".equals(v.get("container." + i + ".present")));
    }

    Integer gpuCount = null;
    String gpuModel = null;
    String gpuError = null;
    if (v.containsKey("gpu.list")) {
      String list = v.get("gpu.list");
      if (!"0".equals(v.get("gpu.rc"))) {
        gpuError = list.strip();
        gpuCount = 0;
      } else {
        int n = 0;
        for (String line : list.split("\n")) {
          if (line.startsWith("GPU ")) {
            n++;
            if (gpuModel == null) {
              int colon = line.indexOf(": ");
              int uuid = line.indexOf(" (UUID");
              if (colon > 0) {
                gpuModel = line.substring(colon + 2, uuid > colon ? uuid : line.length()).strip();
              }
            }
          }
        }
        gpuCount = n;
      }
    }

    String home = v.get("home");
    return new Facts(
        node,
        null,
        elapsed,
        v.get("hostname"),
        toInt(v.get("uid")),
        toInt(v.get("gid")),
        v.get("user"),
        home,
        emptyToNull(v.get("home.real")),
        v.containsKey("home.ssh_dir") ? "yes".equals(v.get("home.ssh_dir")) : null,
        v.getOrDefault("env.xdg_runtime_dir", ""),
        v.getOrDefault("enroot.path", ""),
        emptyToNull(v.get("enroot.version")),
        v.get("enroot.version.error"),
        v.get("enroot.sysconf"),
        enroot,
        probe(v, "runtime", enroot.runtimePath()),
        probe(v, "cache", enroot.cachePath()),
        probe(v, "data", enroot.dataPath()),
        emptyToNull(v.get("data.real")),
        emptyToNull(v.get("data.fstype")),
        emptyToNull(v.get("data.mountpoint")),
        confs,
        hooks,
        containers,
        gpuCount,
        gpuModel,
        gpuError,
        emptyToNull(v.get("mntns")),
        emptyToNull(v.get("mpi.version")),
        v.get("fuse"),
        agents,
        v);
  }

  /** Adds the fact script's {@code LINE KIND NAME} lines about one file. */
  private static void mentions(
      List<Facts.AgentMention> out,
      Facts.AgentMention.Kind kind,
      String scope,
      String path,
      String lines,
      boolean active) {
    if (lines == null || lines.isBlank()) {
      return;
    }
    for (String l : lines.split("\n")) {
      String[] f = l.strip().split(" ", 3);
      if (f.length == 3 && toInt(f[0]) != null) {
        out.add(
            new Facts.AgentMention(
                kind, scope, path, toInt(f[0]), f[1].equals("comment"), f[2], active));
      }
    }
  }

  private static Facts.PathProbe probe(
      Map<String, String> v, String name, EnrootConfigValue setting) {
    String pre = "probe." + name + ".";
    return new Facts.PathProbe(
        setting.value(), "yes".equals(v.get(pre + "writable")), v.get(pre + "error"));
  }

  private static Integer toInt(String s) {
    if (s == null) {
      return null;
    }
    try {
      return Integer.valueOf(s.strip());
    } catch (NumberFormatException e) {
      return null;
    }
  }

  private static String emptyToNull(String s) {
    return s == null || s.isEmpty() ? null : s;
  }
}
