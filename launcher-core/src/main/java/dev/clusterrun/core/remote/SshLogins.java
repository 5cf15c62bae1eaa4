package dev.clusterrun.core.remote;

import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The head's own {@code ssh} to every node, as the job user and with the names mpirun will use: one
 * script on the head ({@code logins.sh}) runs {@code ssh -o BatchMode=yes -o ConnectTimeout=5 NODE
 * COMMAND} for all nodes in parallel (at most {@link #PARALLEL} at a time: each login takes a free
 * slot as it starts, so a slow node holds back no other). Host key checking is left as the user
 * configured it, as mpirun will meet it. The logins may be kept as OpenSSH master connections
 * ({@link SshMasters}) and may carry a first command, whose output comes back per node.
 */
public final class SshLogins {
  /** Logins at a time. */
  public static final int PARALLEL = 64;

  /** Seconds a login may take, its command aside. */
  static final int LOGIN_SECONDS = 20;

  /** The line a node prints first when the login carries a command: the login worked. */
  static final String LOGIN = "@clusterrun-login";

  private static final String BEGIN = "@clusterrun-begin";
  private static final String END = "@clusterrun-end";
  private static final String BODY = ShellScript.text(SshLogins.class, "logins.sh");

  private SshLogins() {}

  /**
   * @param exitCode ssh's exit code ({@code 255} for an SSH error, {@code 124} when it hung), or -1
   *     when the head gave no answer
   * @param error what ssh printed on stderr, or why there is no answer
   */
  public record Login(String node, boolean ok, int exitCode, String error) {}

  /**
   * The logins' outcomes, the directory of the master connections they left open (null when none
   * were asked for or /dev/shm could not hold them), the nodes with a master, and what the first
   * command printed on each node a login got into (when one was given).
   */
  public record Result(
      Map<String, Login> logins,
      String masters,
      Set<String> mastered,
      Map<String, ExecResult> first) {
    public Result {
      logins = Collections.unmodifiableMap(new LinkedHashMap<>(logins));
      mastered = Set.copyOf(mastered);
      first = Collections.unmodifiableMap(new LinkedHashMap<>(first));
    }
  }

  /** What to ask of the logins. */
  public record Ask(boolean keep, String first, String masters) {
    /** Plain logins running {@code true}. */
    public static final Ask PLAIN = new Ask(false, null, null);

    /** Logins kept as masters (in {@code masters} when that can be made, else mktemp's). */
    public static Ask kept(String masters) {
      return new Ask(true, null, masters);
    }

    /** These logins, each running {@code script} (null: {@code true}). */
    public Ask running(String script) {
      return new Ask(keep, script, masters);
    }
  }

  /**
   * The script the head runs: {@code logins.sh} with its arguments set (each quoted with {@link
   * ShellQuote}).
   *
   * @param mark a word that no output line starts with by chance (random)
   * @param seconds what each {@code ssh} may take in all: the login and its command
   */
  static String script(List<String> nodes, Ask ask, String mark, long seconds) {
    String command =
        ask.first() == null
            ? "true"
            : "printf '%s\\n' " + LOGIN + "; sh -c " + ShellQuote.quote(ask.first());
    List<String> set =
        new ArrayList<>(
            List.of(
                "set",
                "--",
                command,
                mark,
                Long.toString(seconds),
                Integer.toString(PARALLEL),
                ask.keep() ? "1" : "0",
                ask.masters() == null ? "" : ask.masters(),
                SshMasters.TEMPLATE,
                Integer.toString(SshMasters.MAX_NAME),
                Integer.toString(SshMasters.PERSIST_SECONDS)));
    set.addAll(nodes);
    return ShellQuote.join(set) + "\n" + BODY;
  }

  /**
   * Runs the logins on the head for {@code nodes} (which should not include the head itself).
   *
   * @param timeout what the first command may take on a node, after the login's own {@link
   *     #LOGIN_SECONDS}; the whole may take that for every window of {@link #PARALLEL} nodes
   */
  public static Result run(NodeShell head, List<String> nodes, Duration timeout, Ask ask) {
    return run(head, nodes, timeout, ask, LOGIN_SECONDS);
  }

  static Result run(
      NodeShell head, List<String> nodes, Duration timeout, Ask ask, long loginSeconds) {
    if (nodes.isEmpty()) {
      return new Result(Map.of(), null, Set.of(), Map.of());
    }
    String mark = randomMark();
    boolean carries = ask.first() != null;
    long each = loginSeconds + (carries ? Math.max(1, timeout.toSeconds()) : 0);
    long windows = (nodes.size() + PARALLEL - 1) / PARALLEL;
    ExecResult r =
        head.run(script(nodes, ask, mark, each), Duration.ofSeconds(each * windows + 10));
    Map<String, String> kv = head(r.stdout());
    Outputs outs = Outputs.parse(r.stdout(), mark, nodes.size());
    Map<String, Login> logins = new LinkedHashMap<>();
    Map<String, ExecResult> firsts = new LinkedHashMap<>();
    for (int i = 0; i < nodes.size(); i++) {
      String n = nodes.get(i);
      Login a = login(n, r, outs.rc[i], outs.err[i], carries ? outs.out[i] : null, each);
      logins.put(n, a);
      if (carries && a.ok()) {
        firsts.put(n, firstOf(n, r, outs, i, each));
      }
    }
    String dir = ask.keep() ? kv.get("ssh.masters") : null;
    if (!SshMasters.isMastersDir(dir)) {
      return new Result(logins, null, Set.of(), firsts);
    }
    Set<String> mastered = new LinkedHashSet<>();
    for (int i = 0; i < nodes.size(); i++) {
      if ("1".equals(kv.get("ssh." + i + ".master"))) {
        mastered.add(nodes.get(i));
      }
    }
    return new Result(logins, dir, mastered, firsts);
  }

  /** What the first command printed on node {@code i}, whose login worked. */
  private static ExecResult firstOf(String n, ExecResult r, Outputs outs, int i, long each) {
    if (killed(outs.rc[i])) {
      // In, but the command did not end in time: its answer is that, not a second wait.
      return ExecResult.failed(
          n + ": timed out after " + each + " s (command killed)", r.elapsed());
    }
    return new ExecResult(
        outs.rc[i] == null ? -1 : outs.rc[i],
        outs.out[i].substring(afterLogin(outs.out[i])),
        outs.err[i] == null ? "" : outs.err[i],
        r.elapsed(),
        null);
  }

  /** The {@code key=value} lines between the begin and end lines (the script's own values). */
  private static Map<String, String> head(String stdout) {
    Map<String, String> m = new LinkedHashMap<>();
    String text = stdout == null ? "" : stdout;
    int b = text.startsWith(BEGIN + "\n") ? 0 : text.indexOf("\n" + BEGIN + "\n");
    int e = text.indexOf("\n" + END + "\n");
    if (b < 0 || e < b) {
      return m;
    }
    for (String line : text.substring(b, e + 1).split("\n")) {
      int eq = line.indexOf('=');
      if (line.startsWith("ssh.") && eq > 0) {
        m.put(line.substring(0, eq), line.substring(eq + 1));
      }
    }
    return m;
  }

  private static String randomMark() {
    byte[] b = new byte[8];
    new SecureRandom().nextBytes(b);
    return "clusterrun-" + HexFormat.of().formatHex(b);
  }

  /** Each node's output, error output and exit code, from the files the head printed. */
  private record Outputs(String[] out, String[] err, Integer[] rc) {
    static Outputs parse(String stdout, String mark, int n) {
      StringBuilder[] out = new StringBuilder[n];
      StringBuilder[] err = new StringBuilder[n];
      Integer[] rc = new Integer[n];
      String o = "@o-" + mark + " ";
      String e = "@e-" + mark + " ";
      String c = "@rc-" + mark + " ";
      StringBuilder cur = null;
      String text = stdout == null ? "" : stdout;
      int end = text.indexOf("\n" + END + "\n");
      for (String line : (end < 0 ? "" : text.substring(end + END.length() + 2)).split("\n", -1)) {
        Integer i;
        if ((i = index(line, o, n)) != null) {
          cur = out[i] = new StringBuilder();
        } else if ((i = index(line, e, n)) != null) {
          cur = err[i] = new StringBuilder();
        } else if (line.startsWith(c)) {
          String[] w = line.substring(c.length()).split(" ");
          Integer k = w.length == 2 ? index(c + w[0], c, n) : null;
          if (k != null && w[1].matches("[0-9]{1,3}")) {
            rc[k] = Integer.valueOf(w[1]);
          }
          cur = null;
        } else if (cur != null) {
          cur.append(line).append('\n');
        }
      }
      String[] os = new String[n];
      String[] es = new String[n];
      for (int i = 0; i < n; i++) {
        // each file ends with the newline the head added after the login: removed again
        os[i] = out[i] == null ? null : trimAdded(out[i]);
        es[i] = err[i] == null ? null : trimAdded(err[i]);
      }
      return new Outputs(os, es, rc);
    }

    private static String trimAdded(StringBuilder b) {
      // the lines of a file's text plus the newline the head added: the text and one newline
      int len = b.length();
      return len >= 1 && b.charAt(len - 1) == '\n' ? b.substring(0, len - 1) : b.toString();
    }

    private static Integer index(String line, String prefix, int n) {
      if (!line.startsWith(prefix)) {
        return null;
      }
      String s = line.substring(prefix.length());
      if (!s.matches("[0-9]{1,7}")) {
        return null;
      }
      int i = Integer.parseInt(s);
      return i < n ? i : null;
    }
  }

  /**
   * Where the command's own output starts: after the {@link #LOGIN} line, which a login's shell
   * start-up files may have printed lines before (a {@code .bashrc} that echoes); -1 without it.
   */
  static int afterLogin(String out) {
    int at = out.startsWith(LOGIN + "\n") || out.equals(LOGIN) ? 0 : out.indexOf("\n" + LOGIN);
    while (at > 0) {
      int end = at + 1 + LOGIN.length();
      if (end == out.length() || out.charAt(end) == '\n') {
        break;
      }
      at = out.indexOf("\n" + LOGIN, at + 1);
    }
    if (at < 0) {
      return -1;
    }
    int end = (at == 0 ? 0 : at + 1) + LOGIN.length();
    return end == out.length() ? end : end + 1;
  }

  /** {@code timeout}'s exit codes: it ended the command (124), or killed it after -k (137). */
  private static boolean killed(Integer rc) {
    return rc != null && (rc == 124 || rc == 137);
  }

  /**
   * One node's outcome: without a command, the login worked when ssh exited 0; with one, when the
   * node printed {@link #LOGIN} first (the command's own exit code is then not ssh's).
   */
  private static Login login(
      String n, ExecResult r, Integer rc, String err, String out, long seconds) {
    if (r.error() != null || rc == null) {
      String why =
          r.error() != null
              ? "the head gave no answer: " + r.error()
              : "the head gave no answer (exit " + r.exitCode() + ")";
      return new Login(n, false, -1, why);
    }
    String e = err == null ? "" : err.strip();
    if (killed(rc)) {
      e = "ssh did not finish within " + seconds + " s" + (e.isEmpty() ? "" : ": " + e);
    }
    if (out != null && afterLogin(out) >= 0) {
      return new Login(n, true, 0, "");
    }
    if (out != null && rc == 0) {
      // ssh got in but what ran was not the command: mpirun's orted would not run either
      String said = out.strip().lines().findFirst().orElse("");
      return new Login(
          n,
          false,
          0,
          "the login did not run the command it was given (a forced command in"
              + " authorized_keys, or a login shell that is not POSIX sh compatible?)"
              + (said.isEmpty() ? "" : "; it printed: " + said));
    }
    return new Login(n, rc == 0 && out == null, rc, e);
  }
}
