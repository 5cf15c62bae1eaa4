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
 */
public final class NodeToNodeSsh {
  static final int PARALLEL = 32;

  /**
   * @param exitCode ssh's exit code ({@code 255} for an SSH error, {@code 124} when it hung), or -1
   *     when the head gave no answer
   * @param error what ssh printed on stderr, or why there is no answer
   */
  public record Answer(String node, boolean ok, int exitCode, String error) {}

  private NodeToNodeSsh() {}

  /** The script the head runs; each node name is quoted with {@link ShellQuote}. */
  public static String script(List<String> nodes) {
    List<String> set = new ArrayList<>(List.of("set", "--"));
    set.addAll(nodes);
    String body =
        ShellQuote.join(set)
            + "\n"
            + "t=$(mktemp -d 2>/dev/null) || { t=/tmp/clusterrun-ssh.$$; mkdir -p \"$t\"; }\n"
            + "if command -v timeout >/dev/null 2>&1; then to='timeout -k 1 20'; else to=; fi\n"
            + "i=0\n"
            + "for n in \"$@\"; do\n"
            + "  ( $to ssh -n -o BatchMode=yes -o ConnectTimeout=5 -- \"$n\" true </dev/null >/dev/null"
            + " 2>\"$t/$i.err\"; echo $? >\"$t/$i.rc\" ) &\n"
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
            + "  i=$((i + 1))\n"
            + "done\n"
            + "rm -rf -- \"$t\"";
    return Scripts.wrap(body);
  }

  /** Runs the probe on the head for {@code nodes} (which should not include the head itself). */
  public static Map<String, Answer> run(NodeShell head, List<String> nodes, Duration timeout) {
    if (nodes.isEmpty()) {
      return Map.of();
    }
    return parse(nodes, head.run(script(nodes), timeout));
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
