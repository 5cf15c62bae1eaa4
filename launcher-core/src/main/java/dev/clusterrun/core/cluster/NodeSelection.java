package dev.clusterrun.core.cluster;

import dev.clusterrun.core.BadInputException;
import dev.clusterrun.core.InputFiles;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The nodes of a command, as given: {@code --nodes} (a hostfile, or a Slurm/pdsh node list, see
 * {@link NodeList}), else the scheduler's allocation in the environment ({@link Allocation}); then
 * {@code --slots}, {@code --exclude} and {@code --node-count}.
 *
 * <p>A value of {@code --nodes} naming an existing file is a hostfile. A value with a {@code /}, or
 * one single name ending in a hostfile's usual extension ({@code .txt}, {@code .hosts}, {@code
 * .hostfile}), that names no file is a missing hostfile. Anything else is a node list.
 *
 * @param nodes {@code --nodes}, or null for the allocation
 * @param slots {@code --slots}: every node's slots, or null (a node list's {@code host:N}, the
 *     hostfile's or the allocation's slots, else 1)
 * @param exclude {@code --exclude} values: node lists or {@code @FILE}
 * @param nodeCount {@code --node-count}: the first N nodes left, or null for all
 */
public record NodeSelection(String nodes, Integer slots, List<String> exclude, Integer nodeCount) {
  private static final List<String> HOSTFILE_ENDINGS = List.of(".txt", ".hosts", ".hostfile");

  public NodeSelection {
    exclude = List.copyOf(exclude);
  }

  /** The hostfile {@code --nodes} names, or null when the nodes come from elsewhere. */
  public Path file() {
    if (nodes == null) {
      return null;
    }
    try {
      Path p = Path.of(nodes);
      return Files.exists(p) ? p : null;
    } catch (InvalidPathException e) {
      return null;
    }
  }

  /**
   * The nodes, read and selected.
   *
   * @param env the environment an allocation is read from
   * @param cwd where relative file names in the environment are read from
   * @throws BadInputException naming the flag, variable, or file and line
   */
  public Hostfile read(Map<String, String> env, Path cwd) {
    Hostfile hf = given(env, cwd);
    hf = withSlots(hf);
    return select(hf, cwd);
  }

  private Hostfile given(Map<String, String> env, Path cwd) {
    if (nodes == null) {
      return Allocation.of(env, cwd)
          .orElseThrow(
              () ->
                  new BadInputException(
                      "--nodes",
                      "not given, and no scheduler allocation in the environment (tried "
                          + String.join(", ", Allocation.SOURCES)
                          + "); give --nodes HOSTFILE or a node list such as 'node[01-16]'"));
    }
    Path file = file();
    if (file != null) {
      return HostfileParser.read(file);
    }
    if (nodes.isEmpty()) {
      throw new BadInputException("--nodes", "empty; give a hostfile or a node list");
    }
    if (nodes.indexOf('/') >= 0 || looksLikeAFile(nodes)) {
      throw new BadInputException("--nodes " + nodes, "no such file");
    }
    List<NodeList.Entry> entries = NodeList.parse(nodes, "--nodes", true);
    List<Host> hosts = new ArrayList<>();
    for (NodeList.Entry e : entries) {
      hosts.add(new Host(e.name(), e.slots() > 0 ? e.slots() : 1, e.slots() > 0, 0, 1));
    }
    return new Hostfile("--nodes", hosts, "--nodes " + nodes);
  }

  private static boolean looksLikeAFile(String v) {
    if (v.indexOf('[') >= 0 || v.indexOf(',') >= 0 || v.indexOf(':') >= 0) {
      return false;
    }
    return HOSTFILE_ENDINGS.stream().anyMatch(v::endsWith);
  }

  private Hostfile withSlots(Hostfile hf) {
    if (slots == null) {
      return hf;
    }
    if (slots < 1) {
      throw new BadInputException("--slots " + slots, "must be at least 1");
    }
    List<Host> hosts = new ArrayList<>();
    for (Host h : hf.hosts()) {
      boolean own = nodes != null && file() == null && h.slotsGiven();
      hosts.add(
          own
              ? h
              : new Host(
                  h.name(), slots, true, h.maxSlots() >= slots ? h.maxSlots() : 0, h.line()));
    }
    return hf.withHosts(hosts, hf.origin() + " (--slots " + slots + ")");
  }

  private Hostfile select(Hostfile hf, Path cwd) {
    Set<String> out = new HashSet<>();
    for (String x : exclude) {
      out.addAll(excluded(x, cwd));
    }
    List<Host> left = new ArrayList<>();
    for (Host h : hf.hosts()) {
      if (!out.contains(HostName.identity(h.name()))) {
        left.add(h);
      }
    }
    String origin = hf.origin();
    if (left.size() < hf.hosts().size()) {
      int gone = hf.hosts().size() - left.size();
      origin += ", " + gone + " left out by --exclude";
    }
    if (left.isEmpty()) {
      throw new BadInputException(
          "--exclude " + String.join(" ", exclude),
          "leaves out every node of " + hf.origin() + "; no node is left to run on");
    }
    if (nodeCount != null) {
      if (nodeCount < 1) {
        throw new BadInputException("--node-count " + nodeCount, "must be at least 1");
      }
      if (nodeCount > left.size()) {
        throw new BadInputException(
            "--node-count " + nodeCount,
            "only " + left.size() + (left.size() == 1 ? " node" : " nodes") + " in " + origin);
      }
      if (nodeCount < left.size()) {
        left = left.subList(0, nodeCount);
        origin += ", the first " + nodeCount + " (--node-count)";
      }
    }
    return left.size() == hf.hosts().size() ? hf : hf.withHosts(left, origin);
  }

  /** The identities {@code --exclude X} names: a node list, or {@code @FILE}'s first words. */
  private static Set<String> excluded(String x, Path cwd) {
    Set<String> out = new HashSet<>();
    if (!x.startsWith("@")) {
      for (NodeList.Entry e : NodeList.parse(x, "--exclude", false)) {
        out.add(HostName.identity(e.name()));
      }
      return out;
    }
    String name = x.substring(1);
    if (name.isEmpty()) {
      throw new BadInputException("--exclude @", "needs a file name after '@', as in @flagged.txt");
    }
    String text =
        InputFiles.read(
            cwd.resolve(name), "--exclude " + x, "a file of nodes", HostfileParser.MAX_BYTES);
    String[] lines = text.split("\r?\n|\r", -1);
    for (int i = 0; i < lines.length; i++) {
      String line = lines[i];
      int hash = line.indexOf('#');
      line = (hash >= 0 ? line.substring(0, hash) : line).strip();
      if (line.isEmpty()) {
        continue;
      }
      String word = line.split("\\s+", 2)[0];
      String subject = name + ":" + (i + 1);
      if (word.indexOf(':') >= 0 && word.indexOf('[') < 0) {
        try {
          HostName.validate(word);
          out.add(HostName.identity(word));
          continue;
        } catch (IllegalArgumentException e) {
          throw new BadInputException(subject, e.getMessage());
        }
      }
      for (NodeList.Entry e : NodeList.parse(word, subject, false)) {
        out.add(HostName.identity(e.name()));
      }
    }
    return out;
  }
}
