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
    EnrootConfig enroot = enrootConfig(v);
    List<Facts.AgentMention> agents = new ArrayList<>();
    List<Facts.ConfFile> confs = confFiles(v, agents);
    List<Facts.HookFile> hooks = hooks(v, agents);
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
    Facts.Builder f =
        Facts.builder(node)
            .elapsed(elapsed)
            .hostname(v.get("hostname"))
            .uid(toInt(v.get("uid")))
            .gid(toInt(v.get("gid")))
            .user(v.get("user"))
            .home(v.get("home"))
            .homeReal(emptyToNull(v.get("home.real")))
            .sshDir(v.containsKey("home.ssh_dir") ? "yes".equals(v.get("home.ssh_dir")) : null)
            .xdgRuntimeDir(v.getOrDefault("env.xdg_runtime_dir", ""))
            .enrootPath(v.getOrDefault("enroot.path", ""))
            .enrootVersion(emptyToNull(v.get("enroot.version")))
            .enrootVersionError(v.get("enroot.version.error"))
            .sysconfDir(v.get("enroot.sysconf"))
            .enroot(enroot)
            .runtime(probe(v, "runtime", enroot.runtimePath()))
            .cache(probe(v, "cache", enroot.cachePath()))
            .data(probe(v, "data", enroot.dataPath()))
            .dataReal(emptyToNull(v.get("data.real")))
            .dataFsType(emptyToNull(v.get("data.fstype")))
            .dataMountPoint(emptyToNull(v.get("data.mountpoint")))
            .confFiles(confs)
            .hooks(hooks)
            .containers(containers)
            .mountNamespace(emptyToNull(v.get("mntns")))
            .mpiVersion(emptyToNull(v.get("mpi.version")))
            .fuse(v.get("fuse"))
            .agents(agents)
            .raw(v);
    gpus(v, f);
    return f.build();
  }

  /** Each of enroot's settings: its effective value, where it came from, what the line said. */
  private static EnrootConfig enrootConfig(Map<String, String> v) {
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
    return EnrootConfig.of(cfg);
  }

  /** enroot.conf and the drop-ins, in reading order; their agent lines go to {@code agents}. */
  private static List<Facts.ConfFile> confFiles(
      Map<String, String> v, List<Facts.AgentMention> agents) {
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
    return confs;
  }

  /** The hooks; the agent lines of every hook but clusterrun's own go to {@code agents}. */
  private static List<Facts.HookFile> hooks(
      Map<String, String> v, List<Facts.AgentMention> agents) {
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
    return hooks;
  }

  /** {@code nvidia-smi -L}: the count, the first model, or why it failed. */
  private static void gpus(Map<String, String> v, Facts.Builder f) {
    if (!v.containsKey("gpu.list")) {
      return;
    }
    String list = v.get("gpu.list");
    if (!"0".equals(v.get("gpu.rc"))) {
      f.gpuError(list.strip()).gpuCount(0);
      return;
    }
    int n = 0;
    String model = null;
    for (String line : list.split("\n")) {
      if (line.startsWith("GPU ")) {
        n++;
        if (model == null) {
          int colon = line.indexOf(": ");
          int uuid = line.indexOf(" (UUID");
          if (colon > 0) {
            model = line.substring(colon + 2, uuid > colon ? uuid : line.length()).strip();
          }
        }
      }
    }
    f.gpuCount(n).gpuModel(model);
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
