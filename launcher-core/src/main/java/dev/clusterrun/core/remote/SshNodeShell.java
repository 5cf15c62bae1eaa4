package dev.clusterrun.core.remote;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import net.schmizz.keepalive.KeepAlive;
import net.schmizz.keepalive.KeepAliveRunner;
import net.schmizz.sshj.SSHClient;
import net.schmizz.sshj.connection.channel.direct.Session;
import net.schmizz.sshj.connection.channel.direct.Signal;
import net.schmizz.sshj.transport.TransportException;
import net.schmizz.sshj.userauth.UserAuthException;

/**
 * A {@link NodeShell} over one sshj connection, opened once and reused for every command. Scripts
 * run as {@code sh -c <script>} in a session without a PTY; stdin is closed.
 *
 * <p>Connect: TCP_NODELAY, a modern algorithm list (curve25519 and ed25519 first, no SHA-1, CBC,
 * DSA or arcfour), ProxyJump hops through direct-tcpip channels, host keys checked by {@link
 * KnownHosts}, authentication with ssh-agent keys and then identity files. The whole connect (TCP,
 * banner, key exchange, authentication) is bounded by the target's connect timeout.
 */
public final class SshNodeShell implements NodeShell {

  private static final Duration CHANNEL_TIMEOUT = Duration.ofSeconds(30);

  private final String node;
  private final SshTarget target;
  private final SSHClient client;
  private final List<SSHClient> hops;

  private SshNodeShell(String node, SshTarget target, SSHClient client, List<SSHClient> hops) {
    this.node = node;
    this.target = target;
    this.client = client;
    this.hops = hops;
  }

  /**
   * Opens the connection (through the target's jump hosts, if any) and authenticates.
   *
   * @param node the node's name as the hostfile gives it, used in every message
   * @param deadlines ends the attempt once the target's connect timeout is up
   * @throws NodeConnectException naming the node and the problem, e.g. {@code connection refused},
   *     {@code host key verification failed: ...}, {@code authentication failed ...}
   */
  public static SshNodeShell connect(String node, SshTarget target, Deadlines deadlines)
      throws NodeConnectException {
    List<SSHClient> chain = new ArrayList<>();
    AtomicBoolean timedOut = new AtomicBoolean();
    long timeoutMs = target.connectTimeout().toMillis();
    Deadlines.Deadline deadline =
        deadlines.after(Duration.ofMillis(timeoutMs), () -> abort(chain, timedOut));
    SshTarget current = target;
    String via = "";
    try {
      SSHClient previous = null;
      List<SshTarget> steps = new ArrayList<>(target.jumps());
      steps.add(target);
      for (SshTarget step : steps) {
        current = step;
        via = step == target ? "" : "via jump host " + step.alias() + ": ";
        SSHClient c = newClient(step);
        KnownHosts kh = new KnownHosts(step);
        c.addHostKeyVerifier(kh);
        synchronized (chain) {
          chain.add(c);
        }
        try {
          if (previous == null) {
            c.connect(step.hostname(), step.port());
          } else {
            c.connectVia(previous.newDirectConnection(step.hostname(), step.port()));
          }
        } catch (IOException e) {
          if (kh.problem() != null) {
            throw new NodeConnectException(node, via + kh.problem(), e);
          }
          throw e;
        }
        SshAuthentication.authenticate(node, via, step, c);
        previous = c;
      }
      deadline.cancel();
      if (timedOut.get()) {
        throw new SocketTimeoutException();
      }
      for (SSHClient c : chain) {
        c.getTransport().setTimeoutMs((int) CHANNEL_TIMEOUT.toMillis());
      }
      SSHClient last = chain.remove(chain.size() - 1);
      return new SshNodeShell(node, target, last, List.copyOf(chain));
    } catch (NodeConnectException e) {
      deadline.cancel();
      closeAll(chain);
      if (timedOut.get()) {
        throw new NodeConnectException(node, via + timeoutMessage(current), e);
      }
      throw e;
    } catch (IOException | RuntimeException e) {
      deadline.cancel();
      closeAll(chain);
      String problem = timedOut.get() ? timeoutMessage(current) : describe(e, current);
      throw new NodeConnectException(node, via + problem, e);
    }
  }

  private static String timeoutMessage(SshTarget t) {
    return "connection timed out after "
        + t.connectTimeout().toSeconds()
        + " s ("
        + t.hostname()
        + " port "
        + t.port()
        + ")";
  }

  private static void abort(List<SSHClient> chain, AtomicBoolean timedOut) {
    timedOut.set(true);
    List<SSHClient> copy;
    synchronized (chain) {
      copy = new ArrayList<>(chain);
    }
    for (SSHClient c : copy) {
      try {
        Socket s = c.getSocket();
        if (s != null) {
          s.close();
        }
      } catch (IOException | RuntimeException e) {
        // best effort
      }
      try {
        c.getTransport().die(new TransportException("connect timed out"));
      } catch (RuntimeException e) {
        // best effort
      }
    }
  }

  private static void closeAll(List<SSHClient> chain) {
    List<SSHClient> copy;
    synchronized (chain) {
      copy = new ArrayList<>(chain);
    }
    for (int i = copy.size() - 1; i >= 0; i--) {
      try {
        copy.get(i).close();
      } catch (IOException | RuntimeException e) {
        // closing after a failure
      }
    }
  }

  static String describe(Throwable e, SshTarget t) {
    for (Throwable c = e; c != null; c = c.getCause()) {
      if (c instanceof ConnectException) {
        return "connection refused (" + t.hostname() + " port " + t.port() + ")";
      }
      if (c instanceof UnknownHostException) {
        return "cannot resolve host name " + t.hostname();
      }
      if (c instanceof NoRouteToHostException) {
        return "no route to host " + t.hostname();
      }
      if (c instanceof SocketTimeoutException) {
        return timeoutMessage(t);
      }
      if (c instanceof UserAuthException) {
        return c.getMessage();
      }
    }
    String m = e.getMessage();
    return m == null || m.isBlank() ? e.getClass().getSimpleName() : m;
  }

  private static SSHClient newClient(SshTarget t) {
    SSHClient c = new SSHClient(SshClientConfig.config());
    c.setSocketFactory(SshClientConfig.NoDelaySocketFactory.INSTANCE);
    int ms = (int) Math.min(Integer.MAX_VALUE, t.connectTimeout().toMillis());
    c.setConnectTimeout(ms);
    c.getTransport().setTimeoutMs(ms);
    KeepAlive ka = c.getConnection().getKeepAlive();
    ka.setKeepAliveInterval((int) t.serverAliveInterval().toSeconds());
    if (ka instanceof KeepAliveRunner r) {
      r.setMaxAliveCount(Math.max(1, t.serverAliveCountMax()));
    }
    return c;
  }

  // ---------------------------------------------------------------- commands

  @Override
  public String node() {
    return node;
  }

  public SshTarget target() {
    return target;
  }

  @Override
  public ExecResult run(String script, Duration timeout) {
    return exec(
        script,
        timeout,
        new ByteArrayOutputStream(),
        new ByteArrayOutputStream(),
        null,
        "command killed by signal ");
  }

  @Override
  public ExecResult stream(
      String script, OutputStream out, OutputStream err, Consumer<OutputStream> input) {
    return exec(script, Duration.ofDays(3650), out, err, input, "killed by signal ");
  }

  /**
   * Runs the script in a session of its own, its output into {@code out} and {@code err} (kept in
   * the result when they are buffers), its input given to {@code input} or closed at once.
   */
  private ExecResult exec(
      String script,
      Duration timeout,
      OutputStream out,
      OutputStream err,
      Consumer<OutputStream> input,
      String killedBy) {
    long start = System.nanoTime();
    Session session;
    try {
      session = client.startSession();
    } catch (IOException | RuntimeException e) {
      return ExecResult.failed(node + ": connection lost: " + describe(e, target), elapsed(start));
    }
    try (session) {
      Session.Command cmd = session.exec("sh -c " + ShellQuote.quote(script));
      Output o = new Output(cmd.getInputStream(), out);
      Output e = new Output(cmd.getErrorStream(), err);
      if (input == null) {
        cmd.getOutputStream().close(); // no stdin: EOF right away
      } else {
        input.accept(cmd.getOutputStream());
      }
      boolean finished = waitClosed(cmd, timeout, o, e);
      o.drain();
      e.drain();
      if (!finished) {
        kill(cmd);
        return new ExecResult(
            -1,
            o.text(),
            e.text(),
            elapsed(start),
            node + ": timed out after " + human(timeout) + " (command killed)");
      }
      Integer status = cmd.getExitStatus();
      if (status != null) {
        return new ExecResult(status, o.text(), e.text(), elapsed(start), null);
      }
      Signal sig = cmd.getExitSignal();
      if (sig != null) {
        return new ExecResult(
            128 + signalNumber(sig),
            o.text(),
            e.text(),
            elapsed(start),
            node + ": " + killedBy + sig);
      }
      return new ExecResult(
          -1,
          o.text(),
          e.text(),
          elapsed(start),
          node + ": connection lost before the command finished");
    } catch (InterruptedException ex) {
      Thread.currentThread().interrupt();
      return ExecResult.failed(node + ": interrupted", elapsed(start));
    } catch (IOException | RuntimeException ex) {
      return ExecResult.failed(node + ": " + describe(ex, target), elapsed(start));
    }
  }

  @Override
  public OutputStream hold(String script) {
    try {
      Session session = client.startSession();
      // Closing the input sends EOF only: the command ends and closes its channel itself, so a
      // node that stopped answering holds no one up. The connection's end closes it as well.
      return session.exec("sh -c " + ShellQuote.quote(script)).getOutputStream();
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  /**
   * Waits for the command to end, reading its output on this thread as it arrives (the channel's
   * window refills only as it is read): no thread per stream. Returns false on timeout.
   */
  private boolean waitClosed(Session.Command cmd, Duration timeout, Output out, Output err)
      throws InterruptedException, IOException {
    long deadline = System.nanoTime() + timeout.toNanos();
    long pause = 1;
    while (cmd.isOpen()) {
      if (Thread.interrupted()) {
        kill(cmd);
        throw new InterruptedException();
      }
      if (out.drain() + err.drain() > 0) {
        pause = 1; // output is flowing: look again at once
        continue;
      }
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        return false;
      }
      pause = Math.min(pause * 2, 200);
      try {
        cmd.join(Math.min(TimeUnit.NANOSECONDS.toMillis(left) + 1, pause), TimeUnit.MILLISECONDS);
      } catch (IOException e) {
        if (!client.isConnected()) {
          return true; // the caller reports the lost connection
        }
        // join timed out: loop to check interrupt and deadline
      }
    }
    return true;
  }

  private static void kill(Session.Command cmd) {
    try {
      cmd.signal(Signal.KILL);
    } catch (IOException | RuntimeException e) {
      // OpenSSH before 7.9 ignores signals; closing the channel is what counts
    }
    try {
      cmd.close();
    } catch (IOException | RuntimeException e) {
      // best effort
    }
  }

  private static int signalNumber(Signal s) {
    return switch (s) {
      case HUP -> 1;
      case INT -> 2;
      case QUIT -> 3;
      case ILL -> 4;
      case ABRT -> 6;
      case FPE -> 8;
      case KILL -> 9;
      case USR1 -> 10;
      case SEGV -> 11;
      case USR2 -> 12;
      case PIPE -> 13;
      case ALRM -> 14;
      case TERM -> 15;
      default -> 0;
    };
  }

  static String human(Duration d) {
    long ms = d.toMillis();
    return ms % 1000 == 0 ? (ms / 1000) + " s" : ms + " ms";
  }

  private static Duration elapsed(long startNanos) {
    return Duration.ofNanos(System.nanoTime() - startNanos);
  }

  /**
   * A command's output stream, read by whoever waits for the command: into memory, or copied on to
   * a sink as it arrives.
   */
  private static final class Output {
    private final InputStream in;
    private final OutputStream buf;
    private final byte[] chunk = new byte[16384];

    Output(InputStream in, OutputStream sink) {
      this.in = in;
      this.buf = sink;
    }

    /** Reads what has arrived, without blocking; returns how many bytes that was. */
    int drain() throws IOException {
      int total = 0;
      int ready;
      while ((ready = in.available()) > 0) {
        int n = in.read(chunk, 0, Math.min(ready, chunk.length));
        if (n <= 0) {
          break;
        }
        buf.write(chunk, 0, n);
        total += n;
      }
      if (total > 0) {
        buf.flush();
      }
      return total;
    }

    String text() {
      return buf instanceof ByteArrayOutputStream b ? b.toString(StandardCharsets.UTF_8) : "";
    }
  }

  @Override
  public void close() {
    try {
      client.close();
    } catch (IOException | RuntimeException e) {
      // closing
    }
    for (int i = hops.size() - 1; i >= 0; i--) {
      try {
        hops.get(i).close();
      } catch (IOException | RuntimeException e) {
        // closing
      }
    }
  }
}
