package dev.clusterrun.core.cluster;

import dev.clusterrun.core.BadInputException;
import dev.clusterrun.core.InputFiles;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A scheduler's allocation, read from the environment as {@code mpirun} reads it, when {@code
 * --nodes} is not given. The sources, in this order: Slurm ({@code SLURM_JOB_NODELIST}, else {@code
 * SLURM_NODELIST}, with {@code SLURM_TASKS_PER_NODE}, also in its compressed form {@code 2(x3),1});
 * PBS/Torque/OpenPBS ({@code PBS_NODEFILE}: one line per slot); LSF ({@code LSB_DJOB_HOSTFILE}: one
 * line per slot, else {@code LSB_MCPU_HOSTS}: {@code host n host n …}). Only clusterrun reads them:
 * the nodes reach mpirun as the run's own hostfile.
 */
public final class Allocation {
  /** Every variable looked at, in order, for the message when none is set. */
  public static final List<String> SOURCES =
      List.of(
          "SLURM_JOB_NODELIST",
          "SLURM_NODELIST",
          "PBS_NODEFILE",
          "LSB_DJOB_HOSTFILE",
          "LSB_MCPU_HOSTS");

  private Allocation() {}

  /**
   * The allocation in {@code env}, or empty when no source is set.
   *
   * @param cwd where a relative file name is read from
   * @throws BadInputException naming the variable (or the file and line) when a source is set but
   *     cannot be read
   */
  public static Optional<Hostfile> of(Map<String, String> env, Path cwd) {
    for (String var : List.of("SLURM_JOB_NODELIST", "SLURM_NODELIST")) {
      String v = set(env, var);
      if (v != null) {
        return Optional.of(slurm(var, v, set(env, "SLURM_TASKS_PER_NODE")));
      }
    }
    for (String var : List.of("PBS_NODEFILE", "LSB_DJOB_HOSTFILE")) {
      String v = set(env, var);
      if (v != null) {
        Path file = cwd.resolve(v);
        String text =
            InputFiles.read(file, var + "=" + v, "a file of node names", HostfileParser.MAX_BYTES);
        return Optional.of(perSlotLines(text, v, var + " (" + v + ", one line per slot)"));
      }
    }
    String lsf = set(env, "LSB_MCPU_HOSTS");
    if (lsf != null) {
      return Optional.of(lsfHosts(lsf));
    }
    return Optional.empty();
  }

  private static String set(Map<String, String> env, String var) {
    String v = env.get(var);
    return v == null || v.isBlank() ? null : v.strip();
  }

  /** Slurm's node list with its tasks per node (1 slot each without them). */
  static Hostfile slurm(String var, String nodeList, String tasksPerNode) {
    List<NodeList.Entry> nodes = NodeList.parse(nodeList, var, false);
    List<Integer> slots =
        tasksPerNode == null ? null : tasksPerNode(tasksPerNode, "SLURM_TASKS_PER_NODE");
    if (slots != null && slots.size() != nodes.size()) {
      throw new BadInputException(
          "SLURM_TASKS_PER_NODE",
          "'"
              + tasksPerNode
              + "' gives "
              + slots.size()
              + (slots.size() == 1 ? " count" : " counts")
              + " for the "
              + nodes.size()
              + (nodes.size() == 1 ? " node" : " nodes")
              + " of "
              + var);
    }
    List<Host> hosts = new ArrayList<>();
    for (int i = 0; i < nodes.size(); i++) {
      int s = slots == null ? 1 : slots.get(i);
      hosts.add(new Host(nodes.get(i).name(), s, slots != null, 0, 1));
    }
    return new Hostfile(
        var,
        hosts,
        var
            + (slots == null
                ? " (1 slot each: no SLURM_TASKS_PER_NODE)"
                : " (slots from SLURM_TASKS_PER_NODE)"));
  }

  /**
   * {@code SLURM_TASKS_PER_NODE}: counts separated by commas, each {@code N} or {@code N(xM)} (N on
   * M nodes in a row), e.g. {@code 2(x3),1} is 2, 2, 2, 1.
   */
  static List<Integer> tasksPerNode(String text, String subject) {
    List<Integer> out = new ArrayList<>();
    for (String item : text.split(",", -1)) {
      String t = item.strip();
      int times = 1;
      int paren = t.indexOf('(');
      if (paren >= 0) {
        if (!t.endsWith(")") || !t.startsWith("x", paren + 1)) {
          throw tasksBad(subject, text, item);
        }
        times = number(t.substring(paren + 2, t.length() - 1), subject, text, item);
        t = t.substring(0, paren);
      }
      int n = number(t, subject, text, item);
      if ((long) out.size() + times > HostRanges.MAX_NAMES) {
        throw new BadInputException(
            subject, "'" + text + "' counts more than " + HostRanges.MAX_NAMES + " nodes");
      }
      for (int i = 0; i < times; i++) {
        out.add(n);
      }
    }
    return out;
  }

  private static int number(String t, String subject, String text, String item) {
    if (t.isEmpty() || t.length() > 7 || !t.chars().allMatch(c -> c >= '0' && c <= '9')) {
      throw tasksBad(subject, text, item);
    }
    int n = Integer.parseInt(t);
    if (n < 1) {
      throw tasksBad(subject, text, item);
    }
    return n;
  }

  private static BadInputException tasksBad(String subject, String text, String item) {
    return new BadInputException(
        subject,
        "'"
            + text
            + "': '"
            + item
            + "' is not a count; expected counts such as 8 or 2(x3), separated by ','");
  }

  /**
   * PBS's node file and LSF's host file: one host name a line, a host once per slot (its lines need
   * not be together); hosts in the order they first appear.
   */
  static Hostfile perSlotLines(String text, String fileName, String origin) {
    Map<String, int[]> seen = new LinkedHashMap<>();
    String[] lines = text.split("\r?\n|\r", -1);
    for (int i = 0; i < lines.length; i++) {
      String name = lines[i].strip();
      if (name.isEmpty() || name.startsWith("#")) {
        continue;
      }
      String subject = fileName + ":" + (i + 1);
      try {
        HostName.validate(name);
      } catch (IllegalArgumentException e) {
        throw new BadInputException(subject, e.getMessage() + "; expected one host name a line");
      }
      int lineNo = i + 1;
      int[] slotsAndLine = seen.computeIfAbsent(name, k -> new int[] {0, lineNo});
      slotsAndLine[0]++;
      if (seen.size() > HostRanges.MAX_NAMES) {
        throw new BadInputException(subject, "more than " + HostRanges.MAX_NAMES + " hosts");
      }
    }
    if (seen.isEmpty()) {
      throw new BadInputException(fileName, "names no host; expected one host name a line");
    }
    List<Host> hosts = new ArrayList<>();
    seen.forEach((n, sl) -> hosts.add(new Host(n, sl[0], true, 0, sl[1])));
    return new Hostfile(fileName, hosts, origin);
  }

  /** {@code LSB_MCPU_HOSTS}: {@code host n host n …}. */
  static Hostfile lsfHosts(String text) {
    String subject = "LSB_MCPU_HOSTS";
    String[] w = text.strip().split("\\s+");
    if (w.length % 2 != 0) {
      throw new BadInputException(
          subject,
          "'" + text + "' has a host without its count; expected 'host1 4 host2 4' (host, slots)");
    }
    List<Host> hosts = new ArrayList<>();
    Map<String, Boolean> seen = new LinkedHashMap<>();
    for (int i = 0; i < w.length; i += 2) {
      try {
        HostName.validate(w[i]);
      } catch (IllegalArgumentException e) {
        throw new BadInputException(subject, e.getMessage() + " (word " + (i + 1) + ")");
      }
      String n = w[i + 1];
      if (n.isEmpty()
          || n.length() > 7
          || !n.chars().allMatch(c -> c >= '0' && c <= '9')
          || Integer.parseInt(n) < 1) {
        throw new BadInputException(
            subject,
            "'"
                + n
                + "' (word "
                + (i + 2)
                + ") is not a slot count for "
                + w[i]
                + "; expected 'host1 4 host2 4'");
      }
      if (seen.put(HostName.identity(w[i]), true) != null) {
        throw new BadInputException(subject, w[i] + " is listed twice");
      }
      if (hosts.size() >= HostRanges.MAX_NAMES) {
        throw new BadInputException(subject, "more than " + HostRanges.MAX_NAMES + " hosts");
      }
      hosts.add(new Host(w[i], Integer.parseInt(n), true, 0, 1));
    }
    return new Hostfile(subject, hosts, subject);
  }
}
