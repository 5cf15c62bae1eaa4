package dev.clusterrun.core.remote;

import java.io.OutputStream;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;

/**
 * A node reached through the head's OpenSSH master connection to it: each command is {@code ssh -o
 * ControlMaster=no -o ControlPath=DIR/%n NODE sh -c SCRIPT}, a new session on the master's login
 * (no key exchange, no authentication), run from the head. The master belongs to whoever made it
 * (it is closed with the session, not here). Should the master be gone, OpenSSH logs in afresh
 * ({@code BatchMode}, {@link #CONNECT_TIMEOUT_SECONDS} to connect).
 *
 * <p>OpenSSH's own errors are exit code 255 with its message on stderr: a 255 is reported as the
 * connection's trouble (what the scripts clusterrun runs never exit with).
 */
public final class MasterNodeShell implements NodeShell {
  static final int CONNECT_TIMEOUT_SECONDS = 10;

  private final String node;
  private final LocalNodeShell ssh;

  /**
   * @param node the node's name as the hostfile gives it (and as the master's socket is named)
   * @param socketDir the directory of the masters' sockets ({@code DIR/NODE})
   */
  public MasterNodeShell(String node, String socketDir) {
    this(node, socketDir, "ssh");
  }

  /** With {@code ssh} the OpenSSH client to run (tests give a stand-in). */
  MasterNodeShell(String node, String socketDir, String ssh) {
    this.node = node;
    this.ssh =
        new LocalNodeShell(
            node,
            List.of(
                ssh,
                "-T",
                "-o",
                "ControlMaster=no",
                "-o",
                "ControlPath=" + socketDir + "/%n",
                "-o",
                "BatchMode=yes",
                "-o",
                "ConnectTimeout=" + CONNECT_TIMEOUT_SECONDS,
                "--",
                node));
  }

  @Override
  public String node() {
    return node;
  }

  @Override
  public OutputStream hold(String script) {
    return ssh.hold(script);
  }

  @Override
  public ExecResult run(String script, Duration timeout) {
    return sshTrouble(ssh.run(script, timeout));
  }

  @Override
  public ExecResult stream(String script, OutputStream out, OutputStream err) {
    return ssh.stream(script, out, err);
  }

  @Override
  public ExecResult stream(
      String script, OutputStream out, OutputStream err, Consumer<OutputStream> input) {
    return ssh.stream(script, out, err, input);
  }

  private ExecResult sshTrouble(ExecResult r) {
    if (r.error() != null || r.exitCode() != 255) {
      return r;
    }
    String last =
        r.stderr()
            .lines()
            .map(String::strip)
            .filter(l -> !l.isEmpty())
            .reduce((a, b) -> b)
            .orElse("");
    return new ExecResult(
        r.exitCode(),
        r.stdout(),
        r.stderr(),
        r.elapsed(),
        node + ": ssh failed (exit 255)" + (last.isEmpty() ? "" : ": " + last));
  }

  @Override
  public void close() {
    // the master is closed by whoever made it
  }
}
