package dev.clusterrun.core.screen;

import dev.clusterrun.core.cluster.Host;
import dev.clusterrun.core.cluster.Hostfile;
import dev.clusterrun.core.screen.ScreenJudge.Metric;
import dev.clusterrun.core.screen.ScreenJudge.NodeFigure;
import dev.clusterrun.core.screen.ScreenJudge.PairFigure;
import dev.clusterrun.core.screen.ScreenJudge.Recheck;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.ToDoubleFunction;

/**
 * The second look at what a screen flagged, before it is reported: the nodes whose own figure was
 * slow are measured again with only the suspects running, and each slow pair again alone, one pair
 * after the other. A figure then counts as the better of its two measurements, judged against the
 * first measurement's medians: a node or a link that is really slow is slow the second time too,
 * while a moment when other work had the CPU or the network (nodes that share a machine, a busy CI
 * host) does not come back. What only shows while every pair runs at once (a shared uplink) clears
 * on the second look.
 *
 * @param nodes the suspect nodes (own figures slow), by name
 * @param pairs the slow pairs, by name
 * @param slow the metrics that were slow, by node or pair ({@code node2-node3})
 */
record SecondLook(Set<String> nodes, List<PairFigure> pairs, Map<String, Set<Metric>> slow) {
  /** What {@code v} flagged, or null when it flagged nothing. */
  static SecondLook of(ScreenJudge.Verdict v) {
    if (v.clean()) {
      return null;
    }
    Set<String> nodes = new LinkedHashSet<>();
    Map<String, Set<Metric>> slow = new LinkedHashMap<>();
    for (ScreenJudge.NodeRow r : v.nodes()) {
      r.cells()
          .forEach(
              (m, c) -> {
                if (!m.ofPair() && !c.ok()) {
                  nodes.add(r.node());
                  slow.computeIfAbsent(r.node(), k -> EnumSet.noneOf(Metric.class)).add(m);
                }
              });
    }
    List<PairFigure> pairs = new ArrayList<>();
    for (ScreenJudge.PairRow p : v.pairs()) {
      p.cells()
          .forEach(
              (m, c) -> {
                if (!c.ok()) {
                  slow.computeIfAbsent(name(p.figure()), k -> EnumSet.noneOf(Metric.class)).add(m);
                }
              });
      if (p.blame() != null) {
        pairs.add(p.figure());
      }
    }
    return new SecondLook(nodes, List.copyOf(pairs), slow);
  }

  /** The hostfile of the second look: every suspect node and both ends of every slow pair. */
  Hostfile hostfile(Hostfile hf) {
    List<Host> hosts = hf.hosts().stream().filter(h -> involves(h.name())).toList();
    return hf.withHosts(hosts, hf.origin());
  }

  private boolean involves(String node) {
    return nodes.contains(node) || pairs.stream().anyMatch(p -> p.has(node));
  }

  /** Each slow pair in a round of its own, by index in {@link #hostfile}. */
  List<List<PairRounds.Pair>> rounds(Hostfile sub) {
    List<String> names = sub.names();
    List<List<PairRounds.Pair>> rounds = new ArrayList<>();
    for (PairFigure p : pairs) {
      rounds.add(List.of(new PairRounds.Pair(names.indexOf(p.a()), names.indexOf(p.b()))));
    }
    return rounds;
  }

  /** What the two looks measured: the figures, each the better of the two, and the rechecks. */
  record Merged(ScreenJudge.Figures figures, List<Recheck> rechecks) {}

  /**
   * The first figures with the second look's taken in where they are better; a figure the second
   * look did not give stays as it was.
   */
  Merged merge(List<String> allNodes, ScreenFigures first, ScreenFigures again) {
    Map<String, NodeFigure> ownAgain = new LinkedHashMap<>();
    again.nodes().stream()
        .filter(f -> nodes.contains(f.node()))
        .forEach(f -> ownAgain.put(f.node(), f));
    Map<String, PairFigure> pairsAgain = new LinkedHashMap<>();
    again.pairs().forEach(p -> pairsAgain.put(name(p), p));
    List<Recheck> rechecks = new ArrayList<>();
    List<NodeFigure> own = new ArrayList<>();
    for (NodeFigure f : first.nodes()) {
      NodeFigure a = ownAgain.get(f.node());
      own.add(
          a == null
              ? f
              : new NodeFigure(
                  f.node(),
                  Math.max(f.dgemmGflops(), a.dgemmGflops()),
                  Math.max(f.triadMBps(), a.triadMBps())));
      recheck(f.node(), a == null ? null : m -> m.of(f), m -> m.of(a), rechecks);
    }
    List<PairFigure> pairFigures = new ArrayList<>();
    for (PairFigure p : first.pairs()) {
      PairFigure a = pairs.contains(p) ? pairsAgain.get(name(p)) : null;
      pairFigures.add(
          a == null
              ? p
              : new PairFigure(
                  p.a(),
                  p.b(),
                  Math.max(p.bandwidthMBps(), a.bandwidthMBps()),
                  Math.min(p.latencyUs(), a.latencyUs())));
      recheck(name(p), a == null ? null : m -> m.of(p), m -> m.of(a), rechecks);
    }
    return new Merged(
        new ScreenJudge.Figures(allNodes, List.copyOf(own), List.copyOf(pairFigures)),
        List.copyOf(rechecks));
  }

  /** The rechecks of {@code subject}'s slow metrics, when the second look measured it. */
  private void recheck(
      String subject,
      ToDoubleFunction<Metric> first,
      ToDoubleFunction<Metric> again,
      List<Recheck> out) {
    if (first != null) {
      for (Metric m : slow.getOrDefault(subject, Set.of())) {
        out.add(new Recheck(subject, m, first.applyAsDouble(m), again.applyAsDouble(m)));
      }
    }
  }

  static String name(PairFigure p) {
    return p.a() + "-" + p.b();
  }

  /** The words of the second look for the progress line. */
  String describe() {
    List<String> parts = new ArrayList<>();
    if (!nodes.isEmpty()) {
      parts.add("the own figures of " + String.join(" ", nodes));
    }
    pairs.forEach(p -> parts.add(name(p) + " alone"));
    return String.join(", then ", parts);
  }
}
