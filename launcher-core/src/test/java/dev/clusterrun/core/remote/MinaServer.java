package dev.clusterrun.core.remote;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PublicKey;
import java.security.spec.ECGenParameterSpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import net.schmizz.sshj.common.Buffer;
import net.schmizz.sshj.common.KeyType;
import org.apache.sshd.common.config.keys.KeyUtils;
import org.apache.sshd.common.keyprovider.KeyPairProvider;
import org.apache.sshd.server.Environment;
import org.apache.sshd.server.ExitCallback;
import org.apache.sshd.server.SshServer;
import org.apache.sshd.server.channel.ChannelSession;
import org.apache.sshd.server.command.Command;
import org.apache.sshd.server.forward.AcceptAllForwardingFilter;

/**
 * An in-process SSH server for tests, on 127.0.0.1 and a random port only. Exec requests run as
 * {@code sh -c <command>} like sshd does with a POSIX login shell.
 */
public final class MinaServer implements AutoCloseable {
  static {
    EcdsaKeyFactoryAlias.install(); // this class parses ECDSA keys with sshj before any connect
  }

  final SshServer sshd;
  final KeyPair hostKey;
  final List<PublicKey> authorized = new CopyOnWriteArrayList<>();
  final List<String> commands = new CopyOnWriteArrayList<>();

  public MinaServer(boolean forwarding) throws Exception {
    this(newHostKey(), forwarding);
  }

  MinaServer(KeyPair hostKey, boolean forwarding) throws Exception {
    this.hostKey = hostKey;
    sshd = SshServer.setUpDefaultServer();
    sshd.setHost("127.0.0.1");
    sshd.setPort(0);
    sshd.setKeyPairProvider(KeyPairProvider.wrap(hostKey));
    sshd.setPublickeyAuthenticator(
        (user, key, session) -> authorized.stream().anyMatch(k -> KeyUtils.compareKeys(k, key)));
    sshd.setCommandFactory(
        (channel, command) -> {
          commands.add(command);
          return new ShCommand(command);
        });
    if (forwarding) {
      sshd.setForwardingFilter(AcceptAllForwardingFilter.INSTANCE);
    }
    sshd.start();
  }

  static KeyPair newHostKey() throws Exception {
    KeyPairGenerator g = KeyPairGenerator.getInstance("EC");
    g.initialize(new ECGenParameterSpec("secp256r1"));
    return g.generateKeyPair();
  }

  public int port() {
    return sshd.getPort();
  }

  /** {@code [127.0.0.1]:port ecdsa-sha2-nistp256 AAAA...} */
  public String knownHostsLine() {
    return "[127.0.0.1]:" + port() + " " + keyLine(hostKey.getPublic());
  }

  static String keyLine(PublicKey k) {
    byte[] blob = new Buffer.PlainBuffer().putPublicKey(k).getCompactData();
    return KeyType.fromKey(k) + " " + Base64.getEncoder().encodeToString(blob);
  }

  /** Authorizes the public key of an OpenSSH {@code .pub} file. */
  public void authorize(Path pubFile) throws IOException {
    String[] parts = Files.readString(pubFile).strip().split("\\s+");
    byte[] blob = Base64.getDecoder().decode(parts[1]);
    try {
      authorized.add(new Buffer.PlainBuffer(blob).readPublicKey());
    } catch (Buffer.BufferException e) {
      throw new IOException(e);
    }
  }

  @Override
  public void close() throws IOException {
    sshd.stop(true);
  }

  /** Runs the exec request with the local sh, like sshd with a POSIX shell. */
  static final class ShCommand implements Command {
    private final String command;
    private InputStream in;
    private OutputStream out;
    private OutputStream err;
    private ExitCallback exit;
    private volatile Process process;

    ShCommand(String command) {
      this.command = command;
    }

    @Override
    public void setInputStream(InputStream in) {
      this.in = in;
    }

    @Override
    public void setOutputStream(OutputStream out) {
      this.out = out;
    }

    @Override
    public void setErrorStream(OutputStream err) {
      this.err = err;
    }

    @Override
    public void setExitCallback(ExitCallback callback) {
      this.exit = callback;
    }

    @Override
    public void start(ChannelSession channel, Environment env) throws IOException {
      process = new ProcessBuilder(List.of("sh", "-c", command)).start();
      List<Thread> pumps = new ArrayList<>();
      pumps.add(pump(process.getInputStream(), out));
      pumps.add(pump(process.getErrorStream(), err));
      Thread stdin =
          new Thread(
              () -> {
                try (OutputStream pin = process.getOutputStream()) {
                  in.transferTo(pin);
                } catch (IOException e) {
                  // client gone
                }
              });
      stdin.setDaemon(true);
      stdin.start();
      Thread waiter =
          new Thread(
              () -> {
                try {
                  int code = process.waitFor();
                  for (Thread t : pumps) {
                    t.join();
                  }
                  exit.onExit(code);
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                }
              });
      waiter.setDaemon(true);
      waiter.start();
    }

    private static Thread pump(InputStream from, OutputStream to) {
      Thread t =
          new Thread(
              () -> {
                byte[] b = new byte[8192];
                try {
                  int n;
                  while ((n = from.read(b)) > 0) {
                    to.write(b, 0, n);
                    to.flush();
                  }
                } catch (IOException e) {
                  // channel closed
                }
              });
      t.setDaemon(true);
      t.start();
      return t;
    }

    @Override
    public void destroy(ChannelSession channel) {
      Process p = process;
      if (p != null) {
        p.descendants().forEach(ProcessHandle::destroyForcibly);
        p.destroyForcibly();
      }
    }
  }
}
