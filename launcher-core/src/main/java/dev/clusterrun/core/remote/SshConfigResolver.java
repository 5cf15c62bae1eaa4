package dev.clusterrun.core.remote;

import dev.clusterrun.core.BadInputException;
import dev.clusterrun.core.spec.SshSpec;
import dev.clusterrun.core.spec.SshSpec.KnownHostsPolicy;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Resolves a hostfile name to an {@link SshTarget} the way OpenSSH would: it asks {@code ssh -G}
 * (which reads ~/.ssh/config with Include, Match, Host patterns exactly as ssh does, in ~4 ms),
 * then applies explicit settings from the job spec or flags on top. When the OpenSSH client is not
 * installed it falls back to defaults and says so in {@link SshTarget#notes()}.
 *
 * <p>Thread-safe: {@link #resolve} may be called from many threads at once.
 */
public final class SshConfigResolver {

  /** Runs {@code ssh -G ...}; returns its stdout, or empty when there is no ssh to run. */
  @FunctionalInterface
  public interface SshRunner {
    Optional<String> run(List<String> argv) throws IOException;
  }

  private static final int MAX_JUMP_DEPTH = 8;
  private static final List<String> DEFAULT_KEYS = List.of("id_ed25519", "id_ecdsa", "id_rsa");

  private final SshSpec explicit;
  private final Path configFile;
  private final SshRunner ssh;
  private final Path home;
  private final String localUser;

  /**
   * @param explicit settings that win over ~/.ssh/config (user, port, identity, known-hosts policy,
   *     connect timeout); {@link SshSpec#EMPTY} for none
   * @param configFile an ssh config file to read instead of ~/.ssh/config ({@code ssh -F}), or
   *     {@code null}
   * @param ssh how to run {@code ssh -G}
   * @param home the local home directory ({@code ~}, {@code %d})
   * @param localUser the local user name ({@code %u}, default remote user)
   */
  public SshConfigResolver(
      SshSpec explicit, Path configFile, SshRunner ssh, Path home, String localUser) {
    this.explicit = explicit == null ? SshSpec.EMPTY : explicit;
    this.configFile = configFile;
    this.ssh = ssh;
    this.home = home;
    this.localUser = localUser;
  }

  /** Reads the user's own OpenSSH configuration through the {@code ssh} on the PATH. */
  public static SshConfigResolver system(SshSpec explicit) {
    return new SshConfigResolver(
        explicit,
        null,
        SshConfigResolver::runProcess,
        Path.of(System.getProperty("user.home")),
        System.getProperty("user.name"));
  }

  /**
   * Resolves one host name.
   *
   * @throws BadInputException naming the host when the name cannot be a host or OpenSSH rejects its
   *     configuration
   */
  public SshTarget resolve(String host) {
    return resolve(host, explicit.user(), explicit.port(), 0);
  }

  private SshTarget resolve(String host, String user, Integer port, int depth) {
    if (host.isEmpty() || host.startsWith("-") || host.chars().anyMatch(c -> c <= ' ')) {
      throw new BadInputException(host, "not a valid host name");
    }
    List<String> argv = new ArrayList<>(List.of("ssh"));
    if (configFile != null) {
      argv.add("-F");
      argv.add(configFile.toString());
    }
    argv.add("-T");
    argv.add("-G");
    if (user != null) {
      argv.add("-l");
      argv.add(user);
    }
    if (port != null) {
      argv.add("-p");
      argv.add(Integer.toString(port));
    }
    argv.add("--");
    argv.add(host);
    Optional<String> out;
    try {
      out = ssh.run(argv);
    } catch (IOException e) {
      throw new BadInputException(host, "ssh -G failed: " + e.getMessage(), e);
    }
    if (out.isEmpty()) {
      return fallback(host, user, port);
    }
    return fromSshG(host, parse(out.get()), depth);
  }

  /** {@code ssh -G} output as key → values (keys lower case, repeated keys collected). */
  static Map<String, List<String>> parse(String output) {
    Map<String, List<String>> m = new LinkedHashMap<>();
    for (String line : output.split("\n")) {
      String l = line.strip();
      if (l.isEmpty()) {
        continue;
      }
      int sp = l.indexOf(' ');
      String key = (sp < 0 ? l : l.substring(0, sp)).toLowerCase(Locale.ROOT);
      String value = sp < 0 ? "" : l.substring(sp + 1).strip();
      m.computeIfAbsent(key, k -> new ArrayList<>()).add(value);
    }
    return m;
  }

  private static String first(Map<String, List<String>> m, String key) {
    List<String> v = m.get(key);
    return v == null || v.isEmpty() ? null : v.get(0);
  }

  private SshTarget fromSshG(String alias, Map<String, List<String>> g, int depth) {
    String hostname = orElse(first(g, "hostname"), alias);
    String user = orElse(first(g, "user"), localUser);
    int port = parsePort(alias, orElse(first(g, "port"), "22"));
    List<String> notes = new ArrayList<>();

    List<Path> ids = new ArrayList<>();
    if (explicit.identity() != null) {
      ids.add(explicitIdentity(alias, hostname, user, port));
    } else {
      for (String f : g.getOrDefault("identityfile", List.of())) {
        Path p = expand(f, alias, hostname, user, port);
        if (Files.isReadable(p) && !ids.contains(p)) {
          ids.add(p);
        }
      }
    }
    boolean identitiesOnly = "yes".equalsIgnoreCase(first(g, "identitiesonly"));
    String agent = first(g, "identityagent");
    if (agent != null && !agent.equalsIgnoreCase("none") && !agent.equals("SSH_AUTH_SOCK")) {
      agent =
          agent.startsWith("$")
              ? System.getenv(agent.substring(1).replace("{", "").replace("}", ""))
              : expand(agent, alias, hostname, user, port).toString();
    } else if ("SSH_AUTH_SOCK".equals(agent)) {
      agent = null;
    }

    List<Path> userKh = paths(g.get("userknownhostsfile"), alias, hostname, user, port);
    List<Path> globalKh = paths(g.get("globalknownhostsfile"), alias, hostname, user, port);
    KnownHostsPolicy policy = explicit.knownHosts();
    if (policy == null) {
      String s = orElse(first(g, "stricthostkeychecking"), "ask").toLowerCase(Locale.ROOT);
      // "ask" cannot ask (clusterrun never prompts); "no" would also accept changed keys, which
      // clusterrun never does, so it means accept-new here.
      policy =
          switch (s) {
            case "accept-new", "no", "off", "false" -> KnownHostsPolicy.ACCEPT_NEW;
            default -> KnownHostsPolicy.STRICT;
          };
    }
    boolean hash = "yes".equalsIgnoreCase(first(g, "hashknownhosts"));
    String alias2 = first(g, "hostkeyalias");

    Duration connectTimeout = explicit.connectTimeout();
    if (connectTimeout == null) {
      connectTimeout = seconds(first(g, "connecttimeout"), SshTarget.DEFAULT_CONNECT_TIMEOUT);
    }
    Duration alive = seconds(first(g, "serveraliveinterval"), Duration.ZERO);
    if (alive.isZero()) {
      alive = SshTarget.DEFAULT_SERVER_ALIVE_INTERVAL;
    }
    int aliveMax = parseInt(first(g, "serveralivecountmax"), 3);

    List<SshTarget> jumps = new ArrayList<>();
    String pj = first(g, "proxyjump");
    if (pj != null && !pj.equalsIgnoreCase("none") && !pj.isEmpty()) {
      if (depth >= MAX_JUMP_DEPTH) {
        throw new BadInputException(alias, "ProxyJump nests deeper than " + MAX_JUMP_DEPTH);
      }
      String[] hops = pj.split(",");
      for (int i = 0; i < hops.length; i++) {
        Hop hop = Hop.parse(alias, hops[i].strip());
        SshTarget t = resolveHop(hop, depth + 1);
        if (i == 0) {
          jumps.addAll(t.jumps()); // the first hop's own ProxyJump applies before it
        }
        jumps.add(t.withJumps(List.of()));
      }
    }
    if (first(g, "proxycommand") != null && !"none".equalsIgnoreCase(first(g, "proxycommand"))) {
      notes.add("ProxyCommand is not supported and was ignored (use ProxyJump)");
    }
    return new SshTarget(
        alias,
        hostname,
        port,
        user,
        ids,
        identitiesOnly,
        agent,
        jumps,
        userKh,
        globalKh,
        policy,
        hash,
        alias2,
        connectTimeout,
        alive,
        aliveMax,
        notes);
  }

  private SshTarget resolveHop(Hop hop, int depth) {
    try {
      // A hop is resolved with its own configuration, but the job's user/port apply only to nodes.
      SshConfigResolver plain =
          new SshConfigResolver(
              new SshSpec(
                  null,
                  null,
                  null,
                  explicit.knownHosts(),
                  explicit.connectTimeout(),
                  explicit.fanout()),
              configFile,
              ssh,
              home,
              localUser);
      SshTarget t = plain.resolve(hop.host(), hop.user(), hop.port(), depth);
      // A jump host whose own config points back at itself would loop: drop that self-reference.
      List<SshTarget> own = new ArrayList<>(t.jumps());
      own.removeIf(j -> j.alias().equals(hop.host()));
      return t.withJumps(own);
    } catch (BadInputException e) {
      throw new BadInputException(
          hop.host(), "in ProxyJump: " + e.problem(), e.getCause() != null ? e.getCause() : e);
    }
  }

  /** One ProxyJump element: {@code [user@]host[:port]} or {@code ssh://[user@]host[:port]}. */
  record Hop(String user, String host, Integer port) {
    static Hop parse(String subject, String s) {
      String rest = s.startsWith("ssh://") ? s.substring(6) : s;
      String user = null;
      int at = rest.lastIndexOf('@');
      if (at >= 0) {
        user = rest.substring(0, at);
        rest = rest.substring(at + 1);
      }
      Integer port = null;
      String host = rest;
      if (rest.startsWith("[")) {
        int close = rest.indexOf(']');
        if (close < 0) {
          throw new BadInputException(subject, "bad ProxyJump host '" + s + "'");
        }
        host = rest.substring(1, close);
        if (rest.length() > close + 1 && rest.charAt(close + 1) == ':') {
          port = parsePort(subject, rest.substring(close + 2));
        }
      } else {
        int colon = rest.lastIndexOf(':');
        if (colon >= 0 && rest.indexOf(':') == colon) {
          host = rest.substring(0, colon);
          port = parsePort(subject, rest.substring(colon + 1));
        }
      }
      if (host.isEmpty()) {
        throw new BadInputException(subject, "bad ProxyJump host '" + s + "'");
      }
      return new Hop(user, host, port);
    }
  }

  /** The identity file the job or a flag names, expanded; it must be readable. */
  private Path explicitIdentity(String alias, String hostname, String user, int port) {
    Path p = expand(explicit.identity(), alias, hostname, user, port);
    if (!Files.isReadable(p)) {
      throw new BadInputException(explicit.identity(), "identity file not found or not readable");
    }
    return p;
  }

  private SshTarget fallback(String host, String user, Integer port) {
    String u = user != null ? user : localUser;
    int p = port != null ? port : 22;
    List<Path> ids = new ArrayList<>();
    if (explicit.identity() != null) {
      ids.add(explicitIdentity(host, host, u, p));
    } else {
      for (String k : DEFAULT_KEYS) {
        Path id = home.resolve(".ssh").resolve(k);
        if (Files.isReadable(id)) {
          ids.add(id);
        }
      }
    }
    return new SshTarget(
        host,
        host,
        p,
        u,
        ids,
        false,
        null,
        List.of(),
        List.of(home.resolve(".ssh/known_hosts")),
        List.of(Path.of("/etc/ssh/ssh_known_hosts")),
        explicit.knownHosts() != null ? explicit.knownHosts() : KnownHostsPolicy.STRICT,
        false,
        null,
        explicit.connectTimeout() != null
            ? explicit.connectTimeout()
            : SshTarget.DEFAULT_CONNECT_TIMEOUT,
        SshTarget.DEFAULT_SERVER_ALIVE_INTERVAL,
        3,
        List.of(
            "the OpenSSH client (ssh) is not installed: ~/.ssh/config was not read; using user "
                + u
                + ", port "
                + p
                + ", ~/.ssh/id_ed25519, id_ecdsa, id_rsa and ~/.ssh/known_hosts"));
  }

  private List<Path> paths(List<String> values, String alias, String host, String user, int port) {
    List<Path> out = new ArrayList<>();
    if (values == null) {
      return out;
    }
    for (String v : values) {
      for (String f : v.split("\\s+")) {
        if (!f.isEmpty() && !f.equalsIgnoreCase("none")) {
          out.add(expand(f, alias, host, user, port));
        }
      }
    }
    return out;
  }

  /** Expands {@code ~} and the ssh_config tokens {@code %d %u %r %h %n %p %l %%}. */
  Path expand(String f, String alias, String host, String user, int port) {
    String s = f;
    if (s.equals("~")) {
      s = home.toString();
    } else if (s.startsWith("~/")) {
      s = home + s.substring(1);
    }
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c != '%' || i + 1 == s.length()) {
        b.append(c);
        continue;
      }
      char t = s.charAt(++i);
      switch (t) {
        case '%' -> b.append('%');
        case 'd' -> b.append(home);
        case 'u' -> b.append(localUser);
        case 'r' -> b.append(user);
        case 'h' -> b.append(host);
        case 'n' -> b.append(alias);
        case 'p' -> b.append(port);
        case 'l' -> b.append(localHostname());
        default -> b.append('%').append(t);
      }
    }
    Path p = Path.of(b.toString());
    return p.isAbsolute() ? p : home.resolve(p);
  }

  private static String localHostname() {
    try {
      return Files.readString(Path.of("/proc/sys/kernel/hostname")).strip();
    } catch (IOException e) {
      return "localhost";
    }
  }

  private static String orElse(String v, String d) {
    return v == null || v.isEmpty() ? d : v;
  }

  private static int parsePort(String subject, String s) {
    try {
      int p = Integer.parseInt(s);
      if (p > 0 && p < 65536) {
        return p;
      }
    } catch (NumberFormatException e) {
      // fall through
    }
    throw new BadInputException(subject, "bad port '" + s + "'");
  }

  private static int parseInt(String s, int d) {
    try {
      return s == null ? d : Integer.parseInt(s);
    } catch (NumberFormatException e) {
      return d;
    }
  }

  private static Duration seconds(String s, Duration d) {
    if (s == null || s.equalsIgnoreCase("none")) {
      return d;
    }
    try {
      return Duration.ofSeconds(Long.parseLong(s));
    } catch (NumberFormatException e) {
      return d;
    }
  }

  /**
   * Runs a real process; empty when the program does not exist. Its stderr goes to a temporary file
   * (no thread to drain it), read only when the process fails.
   */
  static Optional<String> runProcess(List<String> argv) throws IOException {
    Path errFile = Files.createTempFile("clusterrun-ssh-G", ".err");
    try {
      return runProcess(argv, errFile);
    } finally {
      Files.deleteIfExists(errFile);
    }
  }

  private static Optional<String> runProcess(List<String> argv, Path errFile) throws IOException {
    Process p;
    try {
      p =
          new ProcessBuilder(argv)
              .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
              .redirectError(errFile.toFile())
              .start();
    } catch (IOException e) {
      if (String.valueOf(e.getMessage()).contains("error=2,")) {
        return Optional.empty(); // No such file or directory: ssh is not installed
      }
      throw e;
    }
    byte[] out = p.getInputStream().readAllBytes();
    try {
      if (!p.waitFor(20, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        throw new IOException("ssh -G did not finish within 20 s");
      }
    } catch (InterruptedException e) {
      p.destroyForcibly();
      Thread.currentThread().interrupt();
      throw new IOException("interrupted", e);
    }
    if (p.exitValue() != 0) {
      String msg = Files.readString(errFile, StandardCharsets.UTF_8).strip();
      int nl = msg.indexOf('\n');
      msg = nl < 0 ? msg : msg.substring(0, nl); // the first line names file and line
      throw new IOException(msg.isEmpty() ? "exit code " + p.exitValue() : msg);
    }
    return Optional.of(new String(out, StandardCharsets.UTF_8));
  }
}
