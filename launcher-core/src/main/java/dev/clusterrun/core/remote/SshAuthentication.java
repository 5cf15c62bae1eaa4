package dev.clusterrun.core.remote;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import net.schmizz.sshj.SSHClient;
import net.schmizz.sshj.transport.TransportException;
import net.schmizz.sshj.userauth.UserAuthException;
import net.schmizz.sshj.userauth.keyprovider.KeyProvider;
import net.schmizz.sshj.userauth.method.AuthMethod;
import net.schmizz.sshj.userauth.method.AuthPublickey;
import net.schmizz.sshj.userauth.password.PasswordFinder;
import net.schmizz.sshj.userauth.password.Resource;

/** How an sshj client authenticates: ssh-agent keys, then identity files, as OpenSSH tries them. */
final class SshAuthentication {
  private SshAuthentication() {}

  static void authenticate(String node, String via, SshTarget t, SSHClient c)
      throws NodeConnectException, TransportException {
    List<AuthMethod> methods = new ArrayList<>();
    List<String> tried = new ArrayList<>();
    List<String> notes = new ArrayList<>();
    SshAgent agent = openAgent(t, notes);
    try {
      Map<Path, byte[]> filePublics = new LinkedHashMap<>();
      for (Path f : t.identityFiles()) {
        byte[] pub = readPublicFile(f);
        if (pub != null) {
          filePublics.put(f, pub);
        }
      }
      List<byte[]> agentBlobs = new ArrayList<>();
      if (agent != null) {
        try {
          for (SshAgent.Identity id : agent.identities()) {
            if (t.identitiesOnly()
                && filePublics.values().stream().noneMatch(b -> Arrays.equals(b, id.blob()))) {
              continue;
            }
            methods.add(new AgentAuth(agent, id));
            agentBlobs.add(id.blob());
            tried.add("agent key " + id.comment());
          }
        } catch (IOException e) {
          notes.add("ssh-agent: " + e.getMessage());
        }
      }
      for (Path f : t.identityFiles()) {
        byte[] pub = filePublics.get(f);
        if (pub != null && agentBlobs.stream().anyMatch(b -> Arrays.equals(b, pub))) {
          continue; // the agent holds this key already
        }
        KeyFile kf = loadKey(c, f);
        if (kf.problem() != null) {
          notes.add(kf.problem());
          continue;
        }
        if (agentBlobs.stream().anyMatch(b -> Arrays.equals(b, kf.publicBlob()))) {
          continue;
        }
        methods.add(new AuthPublickey(kf.provider()));
        tried.add(f.toString());
      }
      if (methods.isEmpty()) {
        throw new NodeConnectException(
            node,
            via
                + "authentication failed for "
                + t.user()
                + ": no key to offer (no ssh-agent keys"
                + (t.identityFiles().isEmpty()
                    ? " and no identity file: create one with ssh-keygen -t ed25519"
                    : "")
                + ")"
                + notesSuffix(notes),
            null);
      }
      try {
        c.auth(t.user(), methods);
      } catch (UserAuthException e) {
        throw new NodeConnectException(
            node,
            via
                + "authentication failed for "
                + t.user()
                + " (tried "
                + String.join(", ", tried)
                + ")"
                + notesSuffix(notes),
            e);
      }
    } finally {
      if (agent != null) {
        agent.close();
      }
    }
  }

  private static String notesSuffix(List<String> notes) {
    return notes.isEmpty() ? "" : "; " + String.join("; ", notes);
  }

  private static SshAgent openAgent(SshTarget t, List<String> notes) {
    String sock = t.identityAgent();
    if (sock == null) {
      sock = System.getenv("SSH_AUTH_SOCK");
    }
    if (sock == null || sock.isEmpty() || sock.equalsIgnoreCase("none")) {
      return null;
    }
    try {
      return SshAgent.connect(Path.of(sock));
    } catch (IOException e) {
      notes.add(e.getMessage());
      return null;
    }
  }

  private record KeyFile(KeyProvider provider, byte[] publicBlob, String problem) {}

  private static KeyFile loadKey(SSHClient c, Path f) {
    AtomicBoolean askedForPassphrase = new AtomicBoolean();
    PasswordFinder never =
        new PasswordFinder() {
          @Override
          public char[] reqPassword(Resource<?> resource) {
            askedForPassphrase.set(true);
            return null;
          }

          @Override
          public boolean shouldRetry(Resource<?> resource) {
            return false;
          }
        };
    try {
      KeyProvider kp = c.loadKeys(f.toString(), never);
      kp.getPrivate(); // decode now: an encrypted or unreadable key is reported, not tried
      return new KeyFile(kp, KnownHosts.blob(kp.getPublic()), null);
    } catch (IOException | RuntimeException | NoClassDefFoundError e) {
      if (askedForPassphrase.get()) {
        return new KeyFile(
            null,
            null,
            "identity file "
                + f
                + " is protected by a passphrase and clusterrun never prompts: add it to"
                + " ssh-agent (eval \"$(ssh-agent)\"; ssh-add "
                + ShellQuote.quote(f.toString())
                + ")");
      }
      String m = e.getMessage();
      if (e instanceof NoClassDefFoundError
          || m != null && m.toLowerCase(Locale.ROOT).contains("bouncycastle")) {
        m =
            "this key format needs BouncyCastle, which clusterrun does not ship; use an"
                + " OpenSSH-format key (ssh-keygen -p -f KEY converts it) or ssh-agent";
      }
      return new KeyFile(null, null, "cannot use identity file " + f + ": " + m);
    }
  }

  /** The public key blob from {@code f.pub}, or {@code null}. */
  private static byte[] readPublicFile(Path f) {
    Path pub = Path.of(f + ".pub");
    try {
      String[] parts = Files.readString(pub).strip().split("\\s+");
      return parts.length >= 2 ? Base64.getDecoder().decode(parts[1]) : null;
    } catch (IOException | IllegalArgumentException e) {
      return null;
    }
  }
}
