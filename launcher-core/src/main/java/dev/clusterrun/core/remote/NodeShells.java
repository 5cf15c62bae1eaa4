package dev.clusterrun.core.remote;

import dev.clusterrun.core.BadInputException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * The shells of one run: a {@link LocalNodeShell} for the head node, an {@link SshNodeShell} for
 * every other node, opened in parallel. A node that cannot be reached is data ({@link
 * Unreachable}), so a report can show it next to the nodes that answered.
 */
public final class NodeShells implements AutoCloseable {

  /** A node that could not be connected to, and why ({@code connection refused}, ...). */
  public record Unreachable(String node, String problem) {
    /** {@code node: problem}. */
    public String message() {
      return node + ": " + problem;
    }
  }

  private final Map<String, NodeShell> shells;
  private final List<Unreachable> unreachable;
  private final String head;
  private final List<String> notes;
  private final FanOut fanOut;

  private NodeShells(
      Map<String, NodeShell> shells,
      List<Unreachable> unreachable,
      String head,
      List<String> notes,
      FanOut fanOut) {
    this.shells = Collections.unmodifiableMap(shells);
    this.unreachable = List.copyOf(unreachable);
    this.head = head;
    this.notes = List.copyOf(notes);
    this.fanOut = fanOut;
  }

  /**
   * Opens a shell to every host, in parallel through {@code fanOut}.
   *
   * @param hosts host names in hostfile order (duplicates are opened once)
   * @param head decides which name is this machine; that one runs locally
   * @param targets resolves a name to its SSH settings, e.g. {@link SshConfigResolver#resolve}
   * @param listener progress per node (connect started / finished, nodes pending)
   * @throws InterruptedException when interrupted; connections already open are closed
   */
  public static NodeShells open(
      List<String> hosts,
      HeadDetector head,
      Function<String, SshTarget> targets,
      FanOut fanOut,
      FanOut.Listener listener)
      throws InterruptedException {
    List<String> names = new ArrayList<>(new LinkedHashSet<>(hosts));
    String headName = null;
    for (String n : names) {
      if (head.isHead(n)) {
        headName = n;
        break; // one head: a second local name (e.g. localhost twice) still goes over SSH
      }
    }
    final String h = headName;
    List<NodeShell> opened = java.util.Collections.synchronizedList(new ArrayList<>());
    List<Object> outcomes;
    try {
      outcomes =
          fanOut.map(
              names,
              n -> {
                Object o = openOne(n, n.equals(h), targets);
                if (o instanceof NodeShell s) {
                  opened.add(s);
                }
                return o;
              },
              listener);
    } catch (InterruptedException e) {
      // Nothing is handed back: close what was opened before the interruption.
      synchronized (opened) {
        opened.forEach(NodeShell::close);
      }
      throw e;
    }
    Map<String, NodeShell> shells = new LinkedHashMap<>();
    List<Unreachable> down = new ArrayList<>();
    LinkedHashSet<String> notes = new LinkedHashSet<>();
    for (Object o : outcomes) {
      if (o instanceof SshNodeShell s) {
        shells.put(s.node(), s);
        notes.addAll(s.target().notes());
      } else if (o instanceof NodeShell s) {
        shells.put(s.node(), s);
      } else {
        down.add((Unreachable) o);
      }
    }
    return new NodeShells(shells, down, h, new ArrayList<>(notes), fanOut);
  }

  private static Object openOne(String name, boolean isHead, Function<String, SshTarget> targets) {
    if (isHead) {
      return new LocalNodeShell(name);
    }
    SshTarget t;
    try {
      t = targets.apply(name);
    } catch (BadInputException e) {
      return new Unreachable(name, "ssh configuration: " + e.getMessage());
    }
    try {
      return SshNodeShell.connect(name, t);
    } catch (NodeConnectException e) {
      return new Unreachable(name, e.problem());
    }
  }

  /** The reachable nodes' shells, in hostfile order. */
  public Map<String, NodeShell> shells() {
    return shells;
  }

  /** The nodes that could not be reached, in hostfile order. */
  public List<Unreachable> unreachable() {
    return unreachable;
  }

  /** The hostfile name that is this machine, if any. */
  public Optional<String> head() {
    return Optional.ofNullable(head);
  }

  /** Notes from SSH resolution worth showing once (e.g. "ssh not installed: defaults used"). */
  public List<String> notes() {
    return notes;
  }

  /** Closes every connection (in parallel). */
  @Override
  public void close() {
    List<String> names = new ArrayList<>(shells.keySet());
    try {
      fanOut.map(
          names,
          n -> {
            shells.get(n).close();
            return n;
          });
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      for (NodeShell s : shells.values()) {
        s.close();
      }
    }
  }
}
