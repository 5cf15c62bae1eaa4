package dev.clusterrun.core.remote;

import com.hierynomus.sshj.userauth.certificate.Certificate;
import dev.clusterrun.core.spec.SshSpec.KnownHostsPolicy;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import net.schmizz.sshj.common.Buffer;
import net.schmizz.sshj.common.KeyType;
import net.schmizz.sshj.transport.verification.HostKeyVerifier;

/**
 * Host key verification against OpenSSH known_hosts files, as OpenSSH does it: plain, wildcard,
 * negated and hashed ({@code |1|salt|hash}) host patterns, {@code [host]:port} names,
 * {@code @cert-authority} and {@code @revoked} lines.
 *
 * <p>One instance per connection (the files are read when it is made): it keeps the reason for a
 * refusal so the caller can name the file and line. Unknown keys are refused unless the policy is
 * {@link KnownHostsPolicy#ACCEPT_NEW}, then appended to the first user file under a file lock. A
 * changed key is always refused; nothing turns checking off.
 */
public final class KnownHosts implements HostKeyVerifier {

  /** One parsed known_hosts line, remembered with where it came from. */
  record Entry(Path file, int line, String marker, String hosts, String type, byte[] key) {
    String where() {
      return file + ":" + line;
    }
  }

  private static final ConcurrentHashMap<Path, Object> APPEND_LOCKS = new ConcurrentHashMap<>();
  private static final SecureRandom RANDOM = new SecureRandom();

  private final SshTarget target;
  private final List<Entry> entries;
  private volatile String problem;

  public KnownHosts(SshTarget target) {
    this.target = target;
    this.entries = new ArrayList<>();
    for (Path f : files()) {
      entries.addAll(read(f));
    }
  }

  private List<Path> files() {
    List<Path> all = new ArrayList<>(target.userKnownHostsFiles());
    all.addAll(target.globalKnownHostsFiles());
    return all;
  }

  /** Why the last verification failed, or {@code null}. */
  public String problem() {
    return problem;
  }

  static List<Entry> read(Path file) {
    List<String> lines;
    try {
      lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    } catch (NoSuchFileException e) {
      return List.of();
    } catch (IOException e) {
      return List.of();
    }
    List<Entry> out = new ArrayList<>();
    for (int i = 0; i < lines.size(); i++) {
      Entry e = parse(file, i + 1, lines.get(i));
      if (e != null) {
        out.add(e);
      }
    }
    return out;
  }

  static Entry parse(Path file, int lineNo, String line) {
    String l = line.strip();
    if (l.isEmpty() || l.startsWith("#")) {
      return null;
    }
    String[] f = l.split("\\s+");
    int i = 0;
    String marker = null;
    if (f[0].startsWith("@")) {
      marker = f[0];
      i = 1;
    }
    if (f.length < i + 3) {
      return null;
    }
    try {
      byte[] key = Base64.getDecoder().decode(f[i + 2]);
      return new Entry(file, lineNo, marker, f[i], f[i + 1], key);
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  @Override
  public boolean verify(String hostname, int port, PublicKey key) {
    String name = target.knownHostsName();
    if (key instanceof Certificate<?> cert) {
      byte[] ca = cert.getSignatureKey();
      for (Entry e : entries) {
        if ("@revoked".equals(e.marker())
            && matches(e.hosts(), name)
            && Arrays.equals(e.key(), ca)) {
          problem =
              "host key verification failed: the certificate authority key of "
                  + name
                  + " is marked @revoked at "
                  + e.where();
          return false;
        }
      }
      for (Entry e : entries) {
        if ("@cert-authority".equals(e.marker())
            && matches(e.hosts(), name)
            && Arrays.equals(e.key(), ca)) {
          return true;
        }
      }
      // No trusted CA: judge the certified key itself, as OpenSSH does.
      return verifyPlain(name, cert.getKey());
    }
    return verifyPlain(name, key);
  }

  private boolean verifyPlain(String name, PublicKey key) {
    byte[] blob = blob(key);
    String type = KeyType.fromKey(key).toString();
    for (Entry e : entries) {
      if ("@revoked".equals(e.marker()) && Arrays.equals(e.key(), blob)) {
        problem =
            "host key verification failed: the "
                + type
                + " key of "
                + name
                + " is marked @revoked at "
                + e.where();
        return false;
      }
    }
    Entry changed = null;
    for (Entry e : entries) {
      if (e.marker() != null || !matches(e.hosts(), name)) {
        continue;
      }
      if (Arrays.equals(e.key(), blob)) {
        return true;
      }
      if (e.type().equals(type) && changed == null) {
        changed = e;
      }
    }
    String fp = fingerprint(blob);
    if (changed != null) {
      problem =
          "host key verification failed: the "
              + type
              + " key of "
              + name
              + " has CHANGED (now "
              + fp
              + "); the old key is at "
              + changed.where()
              + ". This can be an attack. If the node was reinstalled, remove the old key with: "
              + "ssh-keygen -R "
              + ShellQuote.quote(name)
              + " -f "
              + ShellQuote.quote(changed.file().toString());
      return false;
    }
    if (target.knownHostsPolicy() == KnownHostsPolicy.ACCEPT_NEW) {
      return acceptNew(name, type, blob, fp);
    }
    problem =
        "host key verification failed: "
            + name
            + " is not in "
            + (files().isEmpty() ? "any known_hosts file" : joinPaths(files()))
            + " (offered "
            + type
            + " "
            + fp
            + "). Check the fingerprint, then add it with: "
            + "ssh-keyscan "
            + (target.port() == 22 ? "" : "-p " + target.port() + " ")
            + "-t "
            + keyscanType(type)
            + " "
            + ShellQuote.quote(target.hostname())
            + " >> ~/.ssh/known_hosts, or run with --accept-new";
    return false;
  }

  private boolean acceptNew(String name, String type, byte[] blob, String fp) {
    if (target.userKnownHostsFiles().isEmpty()) {
      problem =
          "host key verification failed: "
              + name
              + " is unknown and there is no user known_hosts file to add it to";
      return false;
    }
    Path file = target.userKnownHostsFiles().get(0);
    Object jvmLock =
        APPEND_LOCKS.computeIfAbsent(file.toAbsolutePath().normalize(), p -> new Object());
    synchronized (jvmLock) {
      try {
        Path dir = file.toAbsolutePath().getParent();
        if (dir != null && !Files.isDirectory(dir)) {
          Files.createDirectories(
              dir,
              PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        }
        try (FileChannel ch =
                FileChannel.open(
                    file,
                    StandardOpenOption.CREATE,
                    StandardOpenOption.READ,
                    StandardOpenOption.WRITE);
            FileLock lock = ch.lock()) {
          // Another process may have added (or changed!) the key while we were connecting. Read
          // through this channel: closing another descriptor of the file would drop the lock.
          ByteBuffer all = ByteBuffer.allocate((int) Math.min(ch.size(), 64L << 20));
          while (all.hasRemaining() && ch.read(all, all.position()) > 0) {
            // keep reading
          }
          String[] lines =
              new String(all.array(), 0, all.position(), StandardCharsets.UTF_8).split("\n");
          List<Entry> now = new ArrayList<>();
          for (int i = 0; i < lines.length; i++) {
            Entry e = parse(file, i + 1, lines[i]);
            if (e != null) {
              now.add(e);
            }
          }
          for (Entry e : now) {
            if (e.marker() == null && matches(e.hosts(), name)) {
              if (Arrays.equals(e.key(), blob)) {
                return true;
              }
              if (e.type().equals(type)) {
                problem =
                    "host key verification failed: the "
                        + type
                        + " key of "
                        + name
                        + " was just added with a different key at "
                        + e.where();
                return false;
              }
            }
          }
          long size = ch.size();
          String prefix = "";
          if (size > 0) {
            ByteBuffer last = ByteBuffer.allocate(1);
            ch.read(last, size - 1);
            if (last.get(0) != '\n') {
              prefix = "\n";
            }
          }
          String hostField = target.hashKnownHosts() ? hash(name) : name;
          String line = hostField + " " + type + " " + Base64.getEncoder().encodeToString(blob);
          ch.write(ByteBuffer.wrap((prefix + line + "\n").getBytes(StandardCharsets.UTF_8)), size);
          ch.force(false);
          return true;
        }
      } catch (IOException e) {
        problem =
            "host key verification failed: "
                + name
                + " is unknown and adding its key ("
                + fp
                + ") to "
                + file
                + " failed: "
                + e.getMessage();
        return false;
      }
    }
  }

  @Override
  public List<String> findExistingAlgorithms(String hostname, int port) {
    String name = target.knownHostsName();
    Set<String> algs = new LinkedHashSet<>();
    for (Entry e : entries) {
      if (!matches(e.hosts(), name)) {
        continue;
      }
      if ("@cert-authority".equals(e.marker())) {
        for (KeyType t : KeyType.values()) {
          if (t.getParent() != null) {
            algs.add(t.toString());
          }
        }
      } else if (e.marker() == null) {
        algs.add(e.type());
      }
    }
    return new ArrayList<>(algs);
  }

  /** OpenSSH host list matching: comma-separated patterns, {@code !} negates, hashed names. */
  static boolean matches(String hosts, String name) {
    String n = name.toLowerCase(Locale.ROOT);
    if (hosts.startsWith("|1|")) {
      return hashedMatches(hosts, n);
    }
    boolean positive = false;
    for (String p : hosts.split(",")) {
      boolean negate = p.startsWith("!");
      String pat = (negate ? p.substring(1) : p).toLowerCase(Locale.ROOT);
      if (glob(pat, 0, n, 0)) {
        if (negate) {
          return false;
        }
        positive = true;
      }
    }
    return positive;
  }

  private static boolean hashedMatches(String hosts, String name) {
    String[] parts = hosts.split("\\|");
    if (parts.length != 4) {
      return false;
    }
    try {
      byte[] salt = Base64.getDecoder().decode(parts[2]);
      byte[] want = Base64.getDecoder().decode(parts[3]);
      return MessageDigest.isEqual(hmacSha1(salt, name), want);
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  static String hash(String name) {
    byte[] salt = new byte[20];
    RANDOM.nextBytes(salt);
    Base64.Encoder b64 = Base64.getEncoder();
    return "|1|" + b64.encodeToString(salt) + "|" + b64.encodeToString(hmacSha1(salt, name));
  }

  private static byte[] hmacSha1(byte[] salt, String name) {
    try {
      Mac mac = Mac.getInstance("HmacSHA1"); // a fresh Mac per call: thread-safe
      mac.init(new SecretKeySpec(salt, "HmacSHA1"));
      return mac.doFinal(name.getBytes(StandardCharsets.UTF_8));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  private static boolean glob(String p, int pi, String s, int si) {
    while (pi < p.length()) {
      char c = p.charAt(pi);
      if (c == '*') {
        for (int k = si; k <= s.length(); k++) {
          if (glob(p, pi + 1, s, k)) {
            return true;
          }
        }
        return false;
      }
      if (si >= s.length() || (c != '?' && c != s.charAt(si))) {
        return false;
      }
      pi++;
      si++;
    }
    return si == s.length();
  }

  static byte[] blob(PublicKey key) {
    return new Buffer.PlainBuffer().putPublicKey(key).getCompactData();
  }

  /** OpenSSH's {@code SHA256:...} fingerprint of a key blob. */
  static String fingerprint(byte[] blob) {
    try {
      byte[] d = MessageDigest.getInstance("SHA-256").digest(blob);
      return "SHA256:" + Base64.getEncoder().withoutPadding().encodeToString(d);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  private static String keyscanType(String type) {
    if (type.startsWith("ssh-ed25519")) {
      return "ed25519";
    }
    if (type.startsWith("ecdsa")) {
      return "ecdsa";
    }
    return "rsa";
  }

  private static String joinPaths(List<Path> files) {
    StringBuilder b = new StringBuilder();
    for (Path p : files) {
      if (b.length() > 0) {
        b.append(", ");
      }
      b.append(p);
    }
    return b.toString();
  }
}
