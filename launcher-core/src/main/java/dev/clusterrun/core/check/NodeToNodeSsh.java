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
 * nodes in parallel (at most {@link #PARALLEL} at a time: each login takes a free slot as it
 * starts, so a slow node holds back no other). Host key checking is left as the user configured it,
 * as mpirun will meet it.
 *
 * <p>For a run, the probe's logins are kept as OpenSSH master connections ({@code ControlMaster},
 * one socket per node in a private directory under {@code /dev/shm}, which enroot binds into every
 * container), so that mpirun's own {@code ssh} to start its daemons rides on them ({@link
 * #mpirunSshArgs}) instead of logging in to every node a second time. A master left alone exits by
 * itself after {@link #PERSIST_SECONDS} idle seconds; {@link #closeMasters} ends them at once.
 */
public final class NodeToNodeSsh {
  static final int PARALLEL = 64;

  /** Seconds a login may take, its command aside. */
  static final int LOGIN_SECONDS = 20;

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
   * The probe's answers, the directory of the master connections it left open (null when none were
   * asked for or /dev/shm could not hold them), and what the first command printed on each node it
   * got into (when one was given).
   */
  public record Probe(
      Map<String, Answer> answers,
      String masters,
      java.util.Set<String> mastered,
      Map<String, ExecResult> first) {
    public Probe {
      mastered = java.util.Set.copyOf(mastered);
      first = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(first));
    }
  }

  /**
   * @param exitCode ssh's exit code ({@code 255} for an SSH error, {@code 124} when it hung), or -1
   *     when the head gave no answer
   * @param error what ssh printed on stderr, or why there is no answer
   */
  public record Answer(String node, boolean ok, int exitCode, String error) {}

  private NodeToNodeSsh() {}

  /** The line a node prints first when the login carries a command: the login worked. */
  static final String LOGIN = "@clusterrun-login";

  /**
   * The script the head runs; each node name is quoted with {@link ShellQuote}. Every node's output
   * goes to files of its own, each opened by a line that names the node ({@code @o-MARK I}, {@code
   * @e-MARK I}) and the error file closed by {@code @rc-MARK I EXIT}; one {@code cat} prints them
   * all after the last login (no process per node).
   *
   * @param keep keep each login as a master connection for mpirun (see the class comment)
   * @param first a script each login runs as its command ({@code sh -c SCRIPT}, after printing
   *     {@link #LOGIN}), or null for {@code true}
   * @param mark a word that no output line starts with by chance (random)
   * @param seconds what each {@code ssh} may take in all: the login and its command
   */
  static String script(
      List<String> nodes, boolean keep, String first, String mark, long seconds, String masters) {
    List<String> set = new ArrayList<>(List.of("set", "--"));
    set.addAll(nodes);
    String command =
        first == null ? "true" : "printf '%s\\n' " + LOGIN + "; sh -c " + ShellQuote.quote(first);
    String body =
        ShellQuote.join(set)
            + "\n"
            + "c="
            + ShellQuote.quote(command)
            + "\n"
            + "m="
            + ShellQuote.quote(mark)
            + "\n"
            + "t=$(mktemp -d 2>/dev/null) || { t=/tmp/clusterrun-ssh.$$; mkdir -p \"$t\"; }\n"
            + "if command -v timeout >/dev/null 2>&1; then to='timeout -k 1 "
            + seconds
            + "'; else to=; fi\n"
            + "cm=\n"
            + (keep
                // The directory chosen by the caller when it is free (mkdir makes it 0700 or
                // fails), else one of mktemp's.
                ? (masters == null
                        ? ""
                        : "cm="
                            + ShellQuote.quote(masters)
                            + "\n"
                            + "mkdir -m 0700 -- \"$cm\" 2>/dev/null || cm=\n")
                    + "[ -n \"$cm\" ] || cm=$(mktemp -d "
                    + MASTERS_TEMPLATE
                    + " 2>/dev/null) || cm=\n"
                    + "if [ -n \"$cm\" ]; then kv ssh.masters \"$cm\"; fi\n"
                : "")
            // A window of logins: each takes a slot (a line of a FIFO) as it starts and gives it
            // back as it ends; without a FIFO, batches. `command exec`: a failed redirection of a
            // plain exec would end the script.
            + "s=\"$t/slots\"\n"
            + "if mkfifo -- \"$s\" 2>/dev/null && command exec 3<>\"$s\"; then\n"
            + "  k=0\n"
            + "  while [ $k -lt "
            + PARALLEL
            + " ]; do echo >&3; k=$((k + 1)); done\n"
            + "else\n"
            + "  s=\n"
            + "fi\n"
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
            + "  printf '@o-%s %s\\n' \"$m\" $i >\"$t/$i.o\"\n"
            + "  printf '@e-%s %s\\n' \"$m\" $i >\"$t/$i.e\"\n"
            + "  if [ -n \"$s\" ]; then read -r slot <&3; fi\n"
            // $mux unquoted on purpose: its words, and $cm is mktemp's (no blank, no glob).
            + "  ( $to ssh -n $mux -o BatchMode=yes -o ConnectTimeout=5 -- \"$n\" \"$c\" </dev/null"
            + " >>\"$t/$i.o\" 2>>\"$t/$i.e\" 3>&-\n"
            + "    printf '\\n@rc-%s %s %s\\n' \"$m\" $i $? >>\"$t/$i.e\"; echo >>\"$t/$i.o\"\n"
            + "    if [ -n \"$s\" ]; then echo >&3; fi ) &\n"
            + "  i=$((i + 1))\n"
            + "  if [ -z \"$s\" ] && [ $((i % "
            + PARALLEL
            + ")) -eq 0 ]; then wait; fi\n"
            + "done\n"
            + "wait\n"
            + "if [ -n \"$s\" ]; then exec 3>&-; fi\n"
            + "if [ -n \"$cm\" ]; then\n"
            + "  i=0\n"
            + "  for n in \"$@\"; do\n"
            + "    if [ -S \"$cm/$n\" ]; then kv ssh.$i.master 1; fi\n"
            + "    i=$((i + 1))\n"
            + "  done\n"
            + "fi\n"
            + "printf '%s\\n' '"
            + Scripts.END
            + "'\n"
            + "cat -- \"$t\"/*.o \"$t\"/*.e 2>/dev/null\n"
            + "rm -rf -- \"$t\"\n"
            + "exit 0";
    return Scripts.KV + "printf '%s\\n' '" + Scripts.BEGIN + "'\n" + body + "\n";
  }

  /** {@link #run(NodeShell, List, Duration, boolean, String)} with {@code true} as the command. */
  public static Probe run(NodeShell head, List<String> nodes, Duration timeout, boolean keep) {
    return run(head, nodes, timeout, keep, null);
  }

  /**
   * Runs the probe on the head for {@code nodes} (which should not include the head itself).
   *
   * @param keep keep the logins as master connections for mpirun; the caller ends them with {@link
   *     #closeMasters}
   * @param timeout what {@code first} may take on a node, after the login's own {@link
   *     #LOGIN_SECONDS}; the probe as a whole may take that for every window of {@link #PARALLEL}
   *     nodes
   * @param first a script each login runs (e.g. the fact script), or null; its output on each node
   *     the probe got into is in {@link Probe#first()}
   */
  public static Probe run(
      NodeShell head, List<String> nodes, Duration timeout, boolean keep, String first) {
    return run(head, nodes, timeout, keep, first, LOGIN_SECONDS, null);
  }

  /**
   * {@link #run(NodeShell, List, Duration, boolean, String)}, the masters kept in {@code masters}
   * when that directory can be made ({@link #newMastersDir}), else in one of mktemp's.
   */
  public static Probe run(
      NodeShell head,
      List<String> nodes,
      Duration timeout,
      boolean keep,
      String first,
      String masters) {
    return run(head, nodes, timeout, keep, first, LOGIN_SECONDS, masters);
  }

  /**
   * A name for a masters' directory that does not exist yet (random, as mktemp's), known before the
   * probe runs: the head's {@code enroot start} can be given mpirun's ssh settings while the logins
   * are still being made.
   */
  public static String newMastersDir() {
    String abc = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    java.security.SecureRandom r = new java.security.SecureRandom();
    StringBuilder b = new StringBuilder(MASTERS_TEMPLATE.replace("XXXXXX", ""));
    for (int i = 0; i < 10; i++) {
      b.append(abc.charAt(r.nextInt(abc.length())));
    }
    return b.toString();
  }

  static Probe run(
      NodeShell head,
      List<String> nodes,
      Duration timeout,
      boolean keep,
      String first,
      long loginSeconds,
      String masters) {
    if (nodes.isEmpty()) {
      return new Probe(Map.of(), null, java.util.Set.of(), Map.of());
    }
    String mark = randomMark();
    long each = loginSeconds + (first == null ? 0 : Math.max(1, timeout.toSeconds()));
    long windows = (nodes.size() + PARALLEL - 1) / PARALLEL;
    ExecResult r =
        head.run(
            script(nodes, keep, first, mark, each, masters),
            Duration.ofSeconds(each * windows + 10));
    Map<String, String> kv = Scripts.parse(r.stdout()).values();
    Outputs outs = Outputs.parse(r.stdout(), mark, nodes.size());
    Map<String, Answer> answers = new LinkedHashMap<>();
    Map<String, ExecResult> firsts = new LinkedHashMap<>();
    for (int i = 0; i < nodes.size(); i++) {
      String n = nodes.get(i);
      Answer a = answer(n, r, outs.rc[i], outs.err[i], first != null ? outs.out[i] : null, each);
      answers.put(n, a);
      if (first != null && a.ok() && killed(outs.rc[i])) {
        // In, but the command did not end in time: its answer is that, not a second wait.
        firsts.put(
            n,
            ExecResult.failed(
                n + ": timed out after " + each + " s (command killed)", r.elapsed()));
      } else if (first != null && a.ok()) {
        firsts.put(
            n,
            new ExecResult(
                outs.rc[i] == null ? -1 : outs.rc[i],
                outs.out[i].substring(afterLogin(outs.out[i])),
                outs.err[i] == null ? "" : outs.err[i],
                r.elapsed(),
                null));
      }
    }
    String dir = keep ? kv.get("ssh.masters") : null;
    if (dir == null || !MASTERS_DIR.matcher(dir).matches()) {
      return new Probe(answers, null, java.util.Set.of(), firsts);
    }
    java.util.Set<String> mastered = new java.util.LinkedHashSet<>();
    for (int i = 0; i < nodes.size(); i++) {
      if ("1".equals(kv.get("ssh." + i + ".master"))) {
        mastered.add(nodes.get(i));
      }
    }
    return new Probe(answers, dir, mastered, firsts);
  }

  private static String randomMark() {
    byte[] b = new byte[8];
    new java.security.SecureRandom().nextBytes(b);
    return "clusterrun-" + java.util.HexFormat.of().formatHex(b);
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
      int end = text.indexOf("\n" + Scripts.END + "\n");
      for (String line :
          (end < 0 ? "" : text.substring(end + Scripts.END.length() + 2)).split("\n", -1)) {
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

  /**
   * One node's answer: without a command, the login worked when ssh exited 0; with one, when the
   * node printed {@link #LOGIN} first (the command's own exit code is then not ssh's).
   */
  /** {@code timeout}'s exit codes: it ended the command (124), or killed it after -k (137). */
  private static boolean killed(Integer rc) {
    return rc != null && (rc == 124 || rc == 137);
  }

  private static Answer answer(
      String n, ExecResult r, Integer rc, String err, String out, long seconds) {
    if (r.error() != null || rc == null) {
      String why =
          r.error() != null
              ? "the head gave no answer: " + r.error()
              : "the head gave no answer (exit " + r.exitCode() + ")";
      return new Answer(n, false, -1, why);
    }
    String e = err == null ? "" : err.strip();
    if (killed(rc)) {
      e = "ssh did not finish within " + seconds + " s" + (e.isEmpty() ? "" : ": " + e);
    }
    if (out != null && afterLogin(out) >= 0) {
      return new Answer(n, true, 0, "");
    }
    if (out != null && rc == 0) {
      // ssh got in but what ran was not the command: mpirun's orted would not run either
      String said = out.strip().lines().findFirst().orElse("");
      return new Answer(
          n,
          false,
          0,
          "the login did not run the command it was given (a forced command in"
              + " authorized_keys, or a login shell that is not POSIX sh compatible?)"
              + (said.isEmpty() ? "" : "; it printed: " + said));
    }
    return new Answer(n, rc == 0 && out == null, rc, e);
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
}
