package dev.clusterrun.core.jobs;

import dev.clusterrun.core.Json;
import dev.clusterrun.core.spec.TimeLimit;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * The runs alive on the nodes, put together from every node's {@link RunScan.Node}, and the nodes
 * that could not be asked. Renders itself as a table for people or JSON for machines.
 */
public record RunList(List<Run> runs, Map<String, String> unreachable) {
  /** The words a head's mpirun is known by (Open MPI 5's mpirun execs prterun). */
  static final Set<String> MPIRUN = Set.of("mpirun", "prterun", "orterun", "mpiexec");

  /**
   * One run.
   *
   * @param head the node whose processes carry the run's {@link
   *     dev.clusterrun.core.launch.head.HeadMark}, or null when no node answering has it
   * @param headless true when the clusterrun that started the run is gone, false when it lives,
   *     null when no node answering can tell (the head not reached, or a per-node run)
   * @param started when the run's oldest process started
   * @param nodes the nodes it has processes on, in hostfile order
   * @param timeLimitEnds when its time limit ({@code --time}) passes, or null: none, or not known
   */
  public record Run(
      String runId,
      String user,
      String head,
      Boolean headless,
      Instant started,
      List<String> nodes,
      List<Long> headPids,
      String command,
      Instant timeLimitEnds) {
    public Run {
      nodes = List.copyOf(nodes);
      headPids = List.copyOf(headPids);
    }

    /** {@code running}, {@code headless} or {@code unknown} (see {@link #headless}). */
    public String state() {
      return headless == null ? "unknown" : headless ? "headless" : "running";
    }
  }

  public RunList {
    runs = List.copyOf(runs);
    unreachable = Collections.unmodifiableMap(new LinkedHashMap<>(unreachable));
  }

  /** The runs the nodes' answers show, oldest first; nodes in the order of {@code answers}. */
  public static RunList of(List<RunScan.Node> answers, Map<String, String> unreachable) {
    Map<String, String> down = new LinkedHashMap<>(unreachable);
    Map<String, List<RunScan.Node>> byRun = new LinkedHashMap<>();
    for (RunScan.Node n : answers) {
      if (n.error() != null) {
        down.put(n.node(), n.error());
        continue;
      }
      for (RunScan.Proc p : n.procs()) {
        List<RunScan.Node> on = byRun.computeIfAbsent(p.runId(), k -> new ArrayList<>());
        if (!on.contains(n)) {
          on.add(n);
        }
      }
    }
    List<Run> runs = new ArrayList<>();
    byRun.forEach((id, nodes) -> runs.add(run(id, nodes)));
    runs.sort(
        Comparator.comparing(Run::started, Comparator.nullsLast(Instant::compareTo))
            .thenComparing(Run::runId));
    return new RunList(runs, down);
  }

  private static Run run(String id, List<RunScan.Node> nodes) {
    String head = null;
    Boolean headless = null;
    double first = Double.MAX_VALUE;
    String command = null;
    String user = null;
    List<String> names = new ArrayList<>();
    List<Long> headPids = new ArrayList<>();
    for (RunScan.Node n : nodes) {
      names.add(n.node());
      user = user == null ? n.user() : user;
      for (RunScan.Head h : n.heads()) {
        if (h.runId().equals(id)) {
          head = n.node();
          headless = headless == null ? !h.alive() : headless && !h.alive();
        }
      }
      for (RunScan.Proc p : mine(n, id)) {
        first = Math.min(first, n.startSeconds(p));
      }
    }
    String headName = head == null ? "" : head;
    RunScan.Node headNode =
        nodes.stream().filter(n -> n.node().equals(headName)).findFirst().orElse(nodes.get(0));
    for (RunScan.Proc p : mine(headNode, id)) {
      if (MPIRUN.contains(p.comm())) {
        headPids.add(p.pid());
        command = command == null ? p.cmd() : command;
      }
    }
    if (command == null) {
      command = top(headNode, id);
    }
    Instant started =
        first == Double.MAX_VALUE ? null : Instant.ofEpochMilli(Math.round(first * 1000));
    return new Run(id, user, head, headless, started, names, headPids, command, null);
  }

  /** These runs, each with when its time limit passes as {@code ends} says (null: none). */
  public RunList withTimeLimits(Function<String, Instant> ends) {
    List<Run> with = new ArrayList<>();
    for (Run r : runs) {
      with.add(
          new Run(
              r.runId(),
              r.user(),
              r.head(),
              r.headless(),
              r.started(),
              r.nodes(),
              r.headPids(),
              r.command(),
              ends.apply(r.runId())));
    }
    return new RunList(with, unreachable);
  }

  /** The time left before {@code ends} at {@code now}, as people read it; {@code -} for none. */
  static String left(Instant ends, Instant now) {
    if (ends == null) {
      return "-";
    }
    Duration d = Duration.between(now, ends);
    return d.isNegative() || d.isZero()
        ? "0s (stopping)"
        : TimeLimit.display(d.withNanos(0).plusSeconds(1));
  }

  private static List<RunScan.Proc> mine(RunScan.Node n, String id) {
    return n.procs().stream().filter(p -> p.runId().equals(id)).toList();
  }

  /** The command of the node's oldest process of the run whose parent is not of the run. */
  private static String top(RunScan.Node n, String id) {
    List<RunScan.Proc> procs = mine(n, id);
    Set<Long> pids = new HashSet<>();
    procs.forEach(p -> pids.add(p.pid()));
    return procs.stream()
        .filter(p -> !pids.contains(p.ppid()))
        .min(Comparator.comparingLong(RunScan.Proc::startTicks))
        .map(RunScan.Proc::cmd)
        .orElse("");
  }

  private static final DateTimeFormatter TIME =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss'Z'").withZone(ZoneOffset.UTC);

  /** One line per run under a header; "no runs" when there is none. */
  public String renderTable() {
    return renderTable(Instant.now());
  }

  /**
   * The table at {@code now}; a {@code TIME LEFT} column (after {@code STARTED}) when a run has a
   * time limit.
   */
  String renderTable(Instant now) {
    if (runs.isEmpty()) {
      return "no runs on the nodes that answered\n";
    }
    boolean limits = runs.stream().anyMatch(r -> r.timeLimitEnds() != null);
    List<List<String>> rows = new ArrayList<>();
    List<String> header =
        new ArrayList<>(List.of("RUN ID", "USER", "HEAD", "STATE", "STARTED", "NODES", "COMMAND"));
    if (limits) {
      header.add(5, "TIME LEFT");
    }
    rows.add(header);
    for (Run r : runs) {
      List<String> row =
          new ArrayList<>(
              List.of(
                  r.runId(),
                  String.valueOf(r.user()),
                  r.head() == null ? "?" : r.head(),
                  r.state(),
                  r.started() == null ? "?" : TIME.format(r.started()),
                  String.join(",", r.nodes()),
                  r.command()));
      if (limits) {
        row.add(5, left(r.timeLimitEnds(), now));
      }
      rows.add(row);
    }
    int last = header.size() - 1;
    int[] w = new int[last];
    for (List<String> row : rows) {
      for (int i = 0; i < last; i++) {
        w[i] = Math.max(w[i], row.get(i).length());
      }
    }
    StringBuilder b = new StringBuilder();
    for (List<String> row : rows) {
      for (int i = 0; i < last; i++) {
        b.append(row.get(i)).append(" ".repeat(w[i] - row.get(i).length() + 2));
      }
      b.append(row.get(last)).append('\n');
    }
    return b.toString();
  }

  /** {@code {"runs": [...], "unreachable": {"node": "problem"}}}. */
  public String renderJson() {
    List<Map<String, Object>> list = new ArrayList<>();
    for (Run r : runs) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("runId", r.runId());
      m.put("user", r.user());
      m.put("head", r.head());
      m.put("state", r.state());
      m.put("headless", r.headless());
      m.put("started", r.started() == null ? null : r.started().toString());
      m.put("nodes", r.nodes());
      m.put("command", r.command());
      m.put("timeLimitEnds", r.timeLimitEnds() == null ? null : r.timeLimitEnds().toString());
      list.add(m);
    }
    Map<String, Object> all = new LinkedHashMap<>();
    all.put("runs", list);
    all.put("unreachable", unreachable);
    return Json.pretty(all);
  }
}
