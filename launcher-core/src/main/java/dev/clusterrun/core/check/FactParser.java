package dev.clusterrun.core.check;

import dev.clusterrun.core.enroot.EnrootConfig;
import dev.clusterrun.core.enroot.EnrootConfigValue;
import dev.clusterrun.core.remote.ExecResult;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Turns the output of {@link FactScript} into {@link Facts}, one group of {@link Facts} from its
 * keys at a time; never throws on bad output.
 */
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

  /**
   * The kernel boot id a fact script's complete output names ({@code boot}), or null: nodes with
   * the same one are namespaces of one machine.
   */
  public static String bootId(ExecResult result) {
    if (result == null || result.error() != null || result.stdout() == null) {
      return null;
    }
    KeyValues.Parsed p = KeyValues.parse(result.stdout(), FactScript.BEGIN, FactScript.END);
    return p.complete() ? emptyToNull(p.values().get("boot")) : null;
  }

  private static String exitAndStderr(ExecResult r) {
    String err = r.stderr() == null ? "" : r.stderr().strip();
    int nl = err.lastIndexOf('\n');
    String last = nl >= 0 ? err.substring(nl + 1) : err;
    return " (exit " + r.exitCode() + (last.isEmpty() ? ")" : ": " + last + ")");
  }

  static Facts fromValues(String node, Map<String, String> v, Duration elapsed) {
    Facts.Enroot enroot = enroot(v);
    return new Facts(
        node,
        null,
        elapsed,
        new Facts.Host(v.get("hostname"), emptyToNull(v.get("mntns")), v.get("fuse")),
        account(v),
        enroot,
        storage(v, enroot.settings()),
        gpus(v),
        new Facts.Mpi(emptyToNull(v.get("mpi.version")), agents(v, enroot.hooks())),
        v);
  }

  private static Facts.Account account(Map<String, String> v) {
    return new Facts.Account(
        toInt(v.get("uid")),
        toInt(v.get("gid")),
        v.get("user"),
        v.get("home"),
        emptyToNull(v.get("home.real")),
        v.containsKey("home.ssh_dir") ? "yes".equals(v.get("home.ssh_dir")) : null,
        v.getOrDefault("env.xdg_runtime_dir", ""));
  }

  private static Facts.Enroot enroot(Map<String, String> v) {
    Map<String, Boolean> containers = new LinkedHashMap<>();
    for (int i = 0; v.containsKey("container." + i + ".name"); i++) {
      containers.put(
          v.get("container." + i + ".name"), "yes".equals(v.get("container." + i + ".present")));
    }
    return new Facts.Enroot(
        v.getOrDefault("enroot.path", ""),
        emptyToNull(v.get("enroot.version")),
        v.get("enroot.version.error"),
        v.get("enroot.sysconf"),
        settings(v),
        confFiles(v),
        hooks(v),
        containers);
  }

  /** Each of enroot's settings: its effective value, where it came from, what the line said. */
  private static EnrootConfig settings(Map<String, String> v) {
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

  /** enroot.conf and the drop-ins, in reading order. */
  private static List<ConfFile> confFiles(Map<String, String> v) {
    List<ConfFile> confs = new ArrayList<>();
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
      confs.add(
          new ConfFile(
              v.get(pre + "path"), emptyToNull(v.get(pre + "sha256")), v.get(pre + "error"), sets));
    }
    return confs;
  }

  /** The files of the hooks.d directories, system then user, as the script lists them. */
  private static List<HookFile> hooks(Map<String, String> v) {
    List<HookFile> hooks = new ArrayList<>();
    for (int i = 0; v.containsKey("hook." + i + ".path"); i++) {
      String pre = "hook." + i + ".";
      String[] st = v.getOrDefault(pre + "stat", "").split(" ", 4);
      hooks.add(
          new HookFile(
              v.getOrDefault(pre + "scope", "system"),
              v.get(pre + "path"),
              st.length > 0 && !st[0].isEmpty() ? st[0] : null,
              st.length > 1 ? toInt(st[1]) : null,
              st.length > 2 ? st[2] : null,
              st.length > 3 ? st[3] : null,
              "yes".equals(v.get(pre + "executable")),
              emptyToNull(v.get(pre + "sha256")),
              toInt(v.get(pre + "version"))));
    }
    return hooks;
  }

  private static Facts.Storage storage(Map<String, String> v, EnrootConfig settings) {
    return new Facts.Storage(
        probe(v, "runtime", settings.runtimePath()),
        probe(v, "cache", settings.cachePath()),
        probe(v, "data", settings.dataPath()),
        emptyToNull(v.get("data.real")),
        emptyToNull(v.get("data.fstype")),
        emptyToNull(v.get("data.mountpoint")));
  }

  private static PathProbe probe(Map<String, String> v, String name, EnrootConfigValue setting) {
    String pre = "probe." + name + ".";
    return new PathProbe(
        setting.value(), "yes".equals(v.get(pre + "writable")), v.get(pre + "error"));
  }

  /** {@code nvidia-smi -L}: the count, the first model, or why it failed. */
  private static Facts.Gpus gpus(Map<String, String> v) {
    if (!v.containsKey("gpu.list")) {
      return new Facts.Gpus(null, null, null);
    }
    String list = v.get("gpu.list");
    if (!"0".equals(v.get("gpu.rc"))) {
      return new Facts.Gpus(0, null, list.strip());
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
    return new Facts.Gpus(n, model, null);
  }

  /**
   * The lines naming an agent variable, in this order: enroot's configuration files, the hooks but
   * clusterrun's own (its header says so: it passes the job's agent, not a foreign one), the
   * environ.d files, the environment.
   */
  private static List<AgentMention> agents(Map<String, String> v, List<HookFile> hooks) {
    List<AgentMention> agents = new ArrayList<>();
    for (int i = 0; v.containsKey("conf." + i + ".path"); i++) {
      String pre = "conf." + i + ".";
      mentions(
          agents,
          AgentMention.Kind.CONFIG,
          "system",
          v.get(pre + "path"),
          v.get(pre + "agent"),
          true);
    }
    for (int i = 0; i < hooks.size(); i++) {
      HookFile h = hooks.get(i);
      if (h.version() == null) {
        boolean runs =
            h.executable()
                && h.fileName().endsWith(".sh")
                && (h.type() == null || h.type().startsWith("regular"));
        mentions(
            agents,
            AgentMention.Kind.HOOK,
            h.scope(),
            h.path(),
            v.get("hook." + i + ".agent"),
            runs);
      }
    }
    for (int i = 0; v.containsKey("environ." + i + ".path"); i++) {
      String pre = "environ." + i + ".";
      String scope = v.getOrDefault(pre + "scope", "system");
      mentions(
          agents,
          AgentMention.Kind.ENVIRON,
          scope,
          v.get(pre + "path"),
          v.get(pre + "agent"),
          true);
    }
    for (String name : v.getOrDefault("env.agent", "").split("\n")) {
      if (!name.isBlank()) {
        agents.add(
            new AgentMention(
                AgentMention.Kind.ENVIRONMENT, null, null, null, false, name.strip(), true));
      }
    }
    return agents;
  }

  /** Adds the fact script's {@code LINE KIND NAME} lines about one file. */
  private static void mentions(
      List<AgentMention> out,
      AgentMention.Kind kind,
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
            new AgentMention(kind, scope, path, toInt(f[0]), f[1].equals("comment"), f[2], active));
      }
    }
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
