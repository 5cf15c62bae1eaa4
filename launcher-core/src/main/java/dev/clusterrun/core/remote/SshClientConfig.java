package dev.clusterrun.core.remote;

import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import javax.net.SocketFactory;
import net.schmizz.keepalive.KeepAliveProvider;
import net.schmizz.sshj.Config;
import net.schmizz.sshj.DefaultConfig;
import net.schmizz.sshj.common.Factory;

/**
 * The sshj configuration clusterrun connects with: modern algorithm lists, TCP_NODELAY, keepalive.
 */
final class SshClientConfig {
  private static volatile Config config;

  private SshClientConfig() {}

  static final List<String> KEX =
      List.of(
          "curve25519-sha256",
          "curve25519-sha256@libssh.org",
          "ecdh-sha2-nistp256",
          "ecdh-sha2-nistp384",
          "ecdh-sha2-nistp521",
          "diffie-hellman-group-exchange-sha256",
          "diffie-hellman-group16-sha512",
          "diffie-hellman-group18-sha512",
          "diffie-hellman-group14-sha256",
          "ext-info-c");
  static final List<String> HOST_KEYS =
      List.of(
          "ssh-ed25519-cert-v01@openssh.com",
          "ssh-ed25519",
          "ecdsa-sha2-nistp256-cert-v01@openssh.com",
          "ecdsa-sha2-nistp384-cert-v01@openssh.com",
          "ecdsa-sha2-nistp521-cert-v01@openssh.com",
          "ecdsa-sha2-nistp256",
          "ecdsa-sha2-nistp384",
          "ecdsa-sha2-nistp521",
          "rsa-sha2-512",
          "rsa-sha2-256");
  static final List<String> CIPHERS =
      List.of(
          "aes128-gcm@openssh.com",
          "aes256-gcm@openssh.com",
          "aes128-ctr",
          "aes192-ctr",
          "aes256-ctr");
  static final List<String> MACS =
      List.of(
          "hmac-sha2-256-etm@openssh.com",
          "hmac-sha2-512-etm@openssh.com",
          "hmac-sha2-256",
          "hmac-sha2-512");

  /** One shared, read-only sshj configuration with the modern algorithm lists above. */
  static Config config() {
    Config c = config;
    if (c == null) {
      synchronized (SshClientConfig.class) {
        c = config;
        if (c == null) {
          EcdsaKeyFactoryAlias.install();
          DefaultConfig d = new DefaultConfig();
          d.setKeyExchangeFactories(pick(d.getKeyExchangeFactories(), KEX));
          d.setKeyAlgorithms(pick(d.getKeyAlgorithms(), HOST_KEYS));
          d.setCipherFactories(pick(d.getCipherFactories(), CIPHERS));
          d.setMACFactories(pick(d.getMACFactories(), MACS));
          d.setKeepAliveProvider(KeepAliveProvider.KEEP_ALIVE);
          config = c = d;
        }
      }
    }
    return c;
  }

  private static <T extends Factory.Named<?>> List<T> pick(List<T> available, List<String> names) {
    Map<String, T> byName =
        available.stream()
            .collect(Collectors.toMap(Factory.Named::getName, Function.identity(), (a, b) -> a));
    List<T> out = new ArrayList<>();
    for (String n : names) {
      T f = byName.get(n);
      if (f != null) {
        out.add(f);
      }
    }
    return out;
  }

  /** sshj does not set TCP_NODELAY; without it every handshake round trip waits on Nagle. */
  static final class NoDelaySocketFactory extends SocketFactory {
    static final NoDelaySocketFactory INSTANCE = new NoDelaySocketFactory();

    private static Socket tune(Socket s) throws IOException {
      s.setTcpNoDelay(true);
      s.setKeepAlive(true);
      return s;
    }

    @Override
    public Socket createSocket() throws IOException {
      return tune(new Socket());
    }

    @Override
    public Socket createSocket(String host, int port) throws IOException {
      return tune(new Socket(host, port));
    }

    @Override
    public Socket createSocket(String host, int port, InetAddress localHost, int localPort)
        throws IOException {
      return tune(new Socket(host, port, localHost, localPort));
    }

    @Override
    public Socket createSocket(InetAddress host, int port) throws IOException {
      return tune(new Socket(host, port));
    }

    @Override
    public Socket createSocket(
        InetAddress address, int port, InetAddress localAddress, int localPort) throws IOException {
      return tune(new Socket(address, port, localAddress, localPort));
    }
  }
}
