package dev.clusterrun.core.check;

import dev.clusterrun.core.remote.ExecResult;
import dev.clusterrun.core.remote.NodeShell;
import dev.clusterrun.core.remote.ShellQuote;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Passwordless SSH from the head to every node, as the job user and with the names mpirun will use:
 * one script on the head runs {@code ssh -o BatchMode=yes -o ConnectTimeout=5 NODE true} for all
 * nodes in parallel (at most {@link #PARALLEL} at a time). Host key checking is left as the user
 * configured it, as mpirun will meet it.
 *
 * <p>For a run, the probe's logins are kept as OpenSSH master connections ({@code ControlMaster},
 * one socket per node in a private directory under {@code /dev/shm}, which enroot binds into every
 * container), so that mpirun's own {@code ssh} to start its daemons rides on them ({@link
 * #mpirunSshArgs}) instead of logging in to every node a second time. A master left alone exits by
 * itself after {@link #PERSIST_SECONDS} idle seconds; {@link #closeMasters} ends them at once.
 */
public final class NodeToNodeSsh {
  static final int PARALLEL = 32;

  /** Where the masters' directory is made (mktemp): head-local, in every enroot container. */
  static final String MASTERS_TEMPLATE = "/dev/shm/clusterrun-ssh.XXXXXX";

  /** How long a master waits without a session before it exits on its own. */
  static final int PERSIST_SECONDS = 120;

  /**
   * Longest node name that gets a master: a socket path must fit in 108 bytes, and OpenSSH binds a
   * temporary name 17 characters longer first.
   */
  static final int MAX_MASTER_NAME = 60;

  private static final java.util.regex.Pattern MASTERS_DIR =
      java.util.regex.Pattern.compile("/dev/shm/clusterrun-ssh\\.[A-Za-z0-9]{6,}");

  /**
   * The probe's answers, and the directory of the master connections it left open (null when none
   * were asked for or /dev/shm could not hold them).
   */
  public record Probe(Map<String, Answer> answers, String masters, java.util.Set<String> mastered) {
    public Probe {
      mastered = java.util.Set.copyOf(mastered);
    }
  }

  /**
   * @param exitCode ssh's exit code ({@code 255} for an SSH error, {@code 124} when it hung), or -1
   *     when the head gave no answer
   * @param error what ssh printed on stderr, or why there is no answer
   */
  public record Answer(String node, boolean ok, int exitCode, String error) {}

  private NodeToNodeSsh() {}

  /**
   * The script the head runs; each node name is quoted with {@link ShellQuote}.
   *
   * @param keep keep each login as a master connection for mpirun (see the class comment)
   */
  public static String script(List<String> nodes, boolean keep) {
    List<String> set = new ArrayList<>(List.of("set", "--"));
    set.addAll(nodes);
    String body =
        ShellQuote.join(set)
            + "\n"
            + "t=$(mktemp -d 2>/dev/null) || { t=/tmp/clusterrun-ssh.$$; mkdir -p \"$t\"; }\n"
            + "if command -v timeout >/dev/null 2>&1; then to='timeout -k 1 20'; else to=; fi\n"
            + "cm=\n"
            + (keep
                ? "cm=$(mktemp -d "
                    + MASTERS_TEMPLATE
                    + " 2>/dev/null) || cm=\n"
                    + "if [ -n \"$cm\" ]; then kv ssh.masters \"$cm\"; fi\n"
                : "")
            + "i=0\n"
            + "for n in \"$@\"; do\n"
            + "  mux=\n"
            + "  if [ -n \"$cm\" ] && [ ${#n} -le "
            + MAX_MASTER_NAME
            + " ]; then\n"
            + "    mux=\"-o ControlMaster=yes -o ControlPersist="
            + PERSIST_SECONDS
            + " -o ControlPath=$cm/%n\"\n"
            + "  fi\n"
            // $mux unquoted on purpose: its words, and $cm is mktemp's (no blank, no glob).
            + "  ( $to ssh -n $mux -o BatchMode=yes -o ConnectTimeout=5 -- \"$n\" true </dev/null"
            + " >/dev/null 2>\"$t/$i.err\"; echo $? >\"$t/$i.rc\" ) &\n"
            + "  i=$((i + 1))\n"
            + "  if [ $((i % "
            + PARALLEL
            + ")) -eq 0 ]; then wait; fi\n"
            + "done\n"
            + "wait\n"
            + "i=0\n"
            + "for n in \"$@\"; do\n"
            + "  kv ssh.$i.rc \"$(cat \"$t/$i.rc\" 2>/dev/null)\"\n"
            + "  kv ssh.$i.err \"$(cat \"$t/$i.err\" 2>/dev/null)\"\n"
            + "  if [ -n \"$cm\" ] && [ -S \"$cm/$n\" ]; then kv ssh.$i.master 1; fi\n"
            + "  i=$((i + 1))\n"
            + "done\n"
            + "rm -rf -- \"$t\"";
    return Scripts.wrap(body);
  }

  /**
   * Runs the probe on the head for {@code nodes} (which should not include the head itself).
   *
   * @param keep keep the logins as master connections for mpirun; the caller ends them with {@link
   *     #closeMasters}
   */
  public static Probe run(NodeShell head, List<String> nodes, Duration timeout, boolean keep) {
    if (nodes.isEmpty()) {
      return new Probe(Map.of(), null, java.util.Set.of());
    }
    ExecResult r = head.run(script(nodes, keep), timeout);
    Map<String, String> kv = Scripts.parse(r.stdout()).values();
    String dir = keep ? kv.get("ssh.masters") : null;
    if (dir == null || !MASTERS_DIR.matcher(dir).matches()) {
      return new Probe(parse(nodes, r), null, java.util.Set.of());
    }
    java.util.Set<String> mastered = new java.util.LinkedHashSet<>();
    for (int i = 0; i < nodes.size(); i++) {
      if ("1".equals(kv.get("ssh." + i + ".master"))) {
        mastered.add(nodes.get(i));
      }
    }
    return new Probe(parse(nodes, r), dir, mastered);
  }

  /**
   * What mpirun's {@code ssh} gets ({@code plm_rsh_args}, PRRTE's {@code plm_ssh_args}) to use the
   * masters in {@code dir}: a node without one (a name mpirun spells differently, a master that
   * exited) is an ordinary login, as {@code ControlMaster=no} falls back when the socket is absent.
   */
  public static String mpirunSshArgs(String dir) {
    return "-o ControlMaster=no -o ControlPath=" + dir + "/%n";
  }

  /** Ends the master of {@code node} in {@code dir} (made by {@link #run}), the others kept. */
  public static void closeMaster(NodeShell head, String dir, String node, Duration timeout) {
    if (dir == null || !MASTERS_DIR.matcher(dir).matches() || node.contains("/")) {
      return;
    }
    head.exec(
        List.of(
            "ssh",
            "-F",
            "/dev/null",
            "-o",
            "ControlPath=" + dir + "/" + node,
            "-O",
            "exit",
            "clusterrun"),
        timeout);
  }

  /** Ends the masters in {@code dir} (made by {@link #run}) and removes the directory. */
  public static void closeMasters(NodeShell head, String dir, Duration timeout) {
    if (dir == null || !MASTERS_DIR.matcher(dir).matches()) {
      return;
    }
    head.run(
        Scripts.wrap(
            "d="
                + ShellQuote.quote(dir)
                + "\n"
                + "for s in \"$d\"/*; do\n"
                + "  if [ -S \"$s\" ]; then\n"
                + "    ssh -F /dev/null -o ControlPath=\"$s\" -O exit clusterrun </dev/null"
                + " >/dev/null 2>&1 &\n"
                + "  fi\n"
                + "done\n"
                + "wait\n"
                + "rm -rf -- \"$d\""),
        timeout);
  }

  static Map<String, Answer> parse(List<String> nodes, ExecResult r) {
    Map<String, Answer> out = new LinkedHashMap<>();
    KeyValues.Parsed p = Scripts.parse(r.stdout());
    for (int i = 0; i < nodes.size(); i++) {
      String n = nodes.get(i);
      String rc = p.values().get("ssh." + i + ".rc");
      if (r.error() != null || rc == null || rc.isEmpty()) {
        String why =
            r.error() != null
                ? "the head gave no answer: " + r.error()
                : "the head gave no answer (exit " + r.exitCode() + ")";
        out.put(n, new Answer(n, false, -1, why));
        continue;
      }
      int code;
      try {
        code = Integer.parseInt(rc.strip());
      } catch (NumberFormatException e) {
        code = -1;
      }
      String err = p.values().getOrDefault("ssh." + i + ".err", "").strip();
      if (code == 124) {
        err = "ssh did not finish within 20 s" + (err.isEmpty() ? "" : ": " + err);
      }
      out.put(n, new Answer(n, code == 0, code, err));
    }
    return out;
  }
}
