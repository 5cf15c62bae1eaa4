package dev.clusterrun.it;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * A real multi-node cluster on this machine, driven through {@code
 * examples/local-cluster/cluster.sh}: nodes {@code node1..nodeN} are network + UTS + mount
 * namespaces with their own sshd, a job user ({@code crjob}) with a shared home, and a shared
 * directory. Needs root. See examples/local-cluster/README.md.
 *
 * <p>Typical use in an IT: {@code @RegisterExtension static LocalClusterExtension CLUSTER = new
 * LocalClusterExtension(3);} then {@code CLUSTER.cluster().exec("node1", "hostname")}.
 */
public final class LocalCluster implements AutoCloseable {

  /** Which enroot the nodes get. */
  public enum EnrootMode {
    /** The bash stand-in from examples/local-cluster/enroot-standin, on the nodes' PATH only. */
    STANDIN,
    /** The host's real enroot (fails when there is none). */
    HOST,
    /** The host's enroot when there is one, otherwise the stand-in. */
    AUTO
  }

  /**
   * How the cluster is made, beyond its size and enroot.
   *
   * @param dockerBridge every node also carries {@code docker0} with 172.17.0.1/16 (the same
   *     address on every node, as on GPU nodes with Docker): {@code cluster.sh up N
   *     --docker-bridge}
   */
  public record Options(boolean dockerBridge) {
    /** A plain cluster. */
    public static final Options DEFAULT = new Options(false);

    public Options withDockerBridge() {
      return new Options(true);
    }

    List<String> upArguments() {
      return dockerBridge ? List.of("--docker-bridge") : List.of();
    }
  }

  /**
   * One of the cluster's two job users: the same uid on every node, a shared home, its own ed25519
   * key authorised on every node and a known_hosts naming every node.
   */
  public record JobUser(String name, int uid, Path home, Path keyFile, Path knownHosts) {}

  /** What a command gave back. */
  public record Result(int exitCode, String stdout, String stderr) {
    public boolean ok() {
      return exitCode == 0;
    }

    /** stdout without its trailing newline(s). */
    public String out() {
      return stdout.stripTrailing();
    }

    @Override
    public String toString() {
      return "exit " + exitCode + "\n--- stdout\n" + stdout + "--- stderr\n" + stderr;
    }
  }

  public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(120);

  private final Path script;
  private final Map<String, String> facts;
  private boolean up = true;
  private final Thread shutdownHook;

  private LocalCluster(Path script, Map<String, String> facts) {
    this.script = script;
    this.facts = facts;
    this.shutdownHook = new Thread(this::downQuietly, "local-cluster-down");
    Runtime.getRuntime().addShutdownHook(shutdownHook);
  }

  /** examples/local-cluster/cluster.sh, found from the working directory upwards. */
  public static Path script() {
    String override = System.getenv("CLUSTERRUN_LC_SCRIPT");
    if (override != null && !override.isBlank()) {
      return Paths.get(override).toAbsolutePath();
    }
    for (Path d = Paths.get("").toAbsolutePath(); d != null; d = d.getParent()) {
      Path candidate = d.resolve("examples/local-cluster/cluster.sh");
      if (Files.isRegularFile(candidate)) {
        return candidate;
      }
    }
    throw new IllegalStateException(
        "examples/local-cluster/cluster.sh not found above " + Paths.get("").toAbsolutePath());
  }

  /**
   * Why this machine cannot run the local cluster (not root, no namespaces, missing packages), or
   * empty when it can.
   */
  public static Optional<String> missingPrerequisites() {
    Path script;
    try {
      script = script();
    } catch (IllegalStateException e) {
      return Optional.of(e.getMessage());
    }
    Result r = run(script, List.of("check"), Map.of(), null, Duration.ofSeconds(30));
    if (r.ok()) {
      return Optional.empty();
    }
    String why = (r.stdout() + r.stderr()).strip().replace('\n', ';');
    return Optional.of(why.isEmpty() ? "cluster.sh check failed (exit " + r.exitCode() + ")" : why);
  }

  /** Brings up {@code nodes} nodes with {@link EnrootMode#AUTO}. */
  public static LocalCluster up(int nodes) {
    return up(nodes, EnrootMode.AUTO);
  }

  /** Brings up {@code nodes} nodes (taking down any earlier cluster first). */
  public static LocalCluster up(int nodes, EnrootMode mode) {
    return up(nodes, mode, Options.DEFAULT);
  }

  /**
   * Brings up {@code nodes} nodes (1 to 498; 64 take some 10 to 20 s on a small machine), made as
   * {@code options} say, taking down any earlier cluster first.
   */
  public static LocalCluster up(int nodes, EnrootMode mode, Options options) {
    // One local cluster per machine: a second test JVM (another worktree, another build) waits
    // here until the first one's cluster is down, instead of tearing it down under its feet.
    OWNER.acquire();
    try {
      return upLocked(nodes, mode, options);
    } catch (RuntimeException e) {
      OWNER.release();
      throw e;
    }
  }

  private static LocalCluster upLocked(int nodes, EnrootMode mode, Options options) {
    Path script = script();
    Map<String, String> env = new LinkedHashMap<>();
    env.put("CLUSTERRUN_LC_ENROOT", mode.name().toLowerCase(java.util.Locale.ROOT));
    env.put("CLUSTERRUN_LC_QUIET", "1");
    String image = System.getenv("CLUSTERRUN_IT_IMAGE");
    if (mode == EnrootMode.HOST && image != null && !image.isEmpty()) {
      // a real enroot runs the registries' images as they are: they need the image's shell and MPI
      env.put("CLUSTERRUN_LC_BASE_IMAGE", image);
    }
    List<String> args = new ArrayList<>(List.of("up", Integer.toString(nodes)));
    args.addAll(options.upArguments());
    Duration timeout = DEFAULT_TIMEOUT.plusSeconds(2L * nodes);
    Result r = run(script, args, env, null, timeout);
    if (!r.ok()) {
      run(script, List.of("down"), Map.of(), null, timeout);
      throw new IllegalStateException("cluster.sh " + String.join(" ", args) + " failed: " + r);
    }
    return new LocalCluster(script, readFacts(script));
  }

  private static Map<String, String> readFacts(Path script) {
    Result r = run(script, List.of("env"), Map.of(), null, Duration.ofSeconds(30));
    if (!r.ok()) {
      throw new IllegalStateException("cluster.sh env failed: " + r);
    }
    Map<String, String> facts = new LinkedHashMap<>();
    for (String line : r.stdout().split("\n")) {
      int eq = line.indexOf('=');
      if (eq > 0) {
        facts.put(line.substring(0, eq), line.substring(eq + 1));
      }
    }
    return Map.copyOf(facts);
  }

  /** Takes the cluster down: no namespace, process, bridge, hosts block or user is left. */
  public void down() {
    Result r;
    try {
      r = cluster("down");
    } finally {
      up = false;
      OWNER.release();
    }
    if (!r.ok()) {
      throw new IllegalStateException("cluster.sh down failed: " + r);
    }
    try {
      Runtime.getRuntime().removeShutdownHook(shutdownHook);
    } catch (IllegalStateException ignored) {
      // already shutting down
    }
  }

  private void downQuietly() {
    if (up) {
      up = false;
      run(script, List.of("down"), Map.of(), null, DEFAULT_TIMEOUT);
    }
  }

  @Override
  public void close() {
    if (up) {
      down();
    }
  }

  /** Runs {@code cmd} on {@code node} as the job user, like a non-interactive SSH session. */
  public Result exec(String node, String... cmd) {
    return exec(node, false, cmd);
  }

  /** Runs {@code cmd} on {@code node} as the job user or root, inside the node's namespaces. */
  public Result exec(String node, boolean asRoot, String... cmd) {
    return exec(node, asRoot, null, DEFAULT_TIMEOUT, List.of(cmd));
  }

  /** Runs {@code cmd} on {@code node} as {@code user} (one of the two job users). */
  public Result execAs(JobUser user, String node, String... cmd) {
    return execAs(user, node, null, DEFAULT_TIMEOUT, List.of(cmd));
  }

  /**
   * Runs {@code cmd} on {@code node} as {@code user}, like a non-interactive SSH session; {@code
   * stdin} (may be null) is fed to it; killed after {@code timeout} (exit code -1 then).
   */
  public Result execAs(
      JobUser user, String node, String stdin, Duration timeout, List<String> cmd) {
    List<String> args = new ArrayList<>(List.of("exec", node, "--user", user.name(), "--"));
    args.addAll(cmd);
    return run(script, args, Map.of(), stdin, timeout);
  }

  /** Runs {@code sh -c script} on {@code node} as the job user. */
  public Result sh(String node, String script) {
    return exec(node, false, "sh", "-c", script);
  }

  /**
   * Runs {@code cmd} on {@code node}; {@code stdin} (may be null) is fed to it; the process is
   * killed after {@code timeout} (exit code -1 then).
   */
  public Result exec(
      String node, boolean asRoot, String stdin, Duration timeout, List<String> cmd) {
    List<String> args = new ArrayList<>(List.of("exec", node));
    if (asRoot) {
      args.add("--root");
    }
    args.add("--");
    args.addAll(cmd);
    return run(script, args, Map.of(), stdin, timeout);
  }

  /** Hides {@code path} on {@code node} only (an empty tmpfs over it). */
  public void isolate(String node, String path) {
    Result r = cluster("isolate", node, path);
    if (!r.ok()) {
      throw new IllegalStateException("isolate " + node + " " + path + " failed: " + r);
    }
  }

  /** Undoes {@link #isolate}. */
  public void unisolate(String node, String path) {
    Result r = cluster("unisolate", node, path);
    if (!r.ok()) {
      throw new IllegalStateException("unisolate " + node + " " + path + " failed: " + r);
    }
  }

  /**
   * Drops {@code node} off the network without a reset, as a cut link or a power loss look from the
   * others: every frame to and from it is dropped in silence (no RST, no ICMP), its processes keep
   * running, and no kernel gives up on ARP, so connections to it, established or new, hang.
   */
  public void cut(String node) {
    cut(node, false);
  }

  /**
   * As {@link #cut(String)}; with {@code arp} the neighbour entries age as usual, so a new
   * connection fails after some 3 s with "No route to host", as a dead node on the same Ethernet
   * segment looks (established ones still hang).
   */
  public void cut(String node, boolean arp) {
    Result r = arp ? cluster("cut", node, "--arp") : cluster("cut", node);
    if (!r.ok()) {
      throw new IllegalStateException("cut " + node + " failed: " + r);
    }
  }

  /** Undoes {@link #cut}: the node is reachable again (connections that were hung resume). */
  public void uncut(String node) {
    Result r = cluster("uncut", node);
    if (!r.ok()) {
      throw new IllegalStateException("uncut " + node + " failed: " + r);
    }
  }

  /** An Open MPI hostfile ({@code nodeK slots=S} lines) for all nodes. */
  public String hostfile(int slots) {
    Result r = cluster("hostfile", Integer.toString(slots));
    if (!r.ok()) {
      throw new IllegalStateException("hostfile failed: " + r);
    }
    return r.stdout();
  }

  /** Runs cluster.sh with these arguments. */
  public Result cluster(String... args) {
    return run(script, Arrays.asList(args), Map.of(), null, DEFAULT_TIMEOUT);
  }

  /** All facts {@code cluster.sh env} printed when the cluster came up. */
  public Map<String, String> facts() {
    return facts;
  }

  public String fact(String key) {
    String v = facts.get(key);
    if (v == null) {
      throw new IllegalStateException("cluster.sh env has no " + key);
    }
    return v;
  }

  public List<String> nodes() {
    return List.of(fact("NODES").split(","));
  }

  public String jobUser() {
    return fact("JOB_USER");
  }

  public int jobUid() {
    return Integer.parseInt(fact("JOB_UID"));
  }

  public Path jobHome() {
    return Paths.get(fact("JOB_HOME"));
  }

  /** The first job user ({@link #jobUser()}, with sudo inside the nodes). */
  public JobUser user1() {
    return new JobUser(jobUser(), jobUid(), jobHome(), keyFile(), knownHosts());
  }

  /**
   * The second job user: its own uid (the same on every node), key, known_hosts and shared home, no
   * sudo; for jobs of two users on the same nodes at once.
   */
  public JobUser user2() {
    return new JobUser(
        fact("JOB2_USER"),
        Integer.parseInt(fact("JOB2_UID")),
        Paths.get(fact("JOB2_HOME")),
        Paths.get(fact("KEY2_FILE")),
        Paths.get(fact("KNOWN_HOSTS2")));
  }

  /**
   * The Docker-like bridge every node carries ({@code docker0 172.17.0.1/16}), or empty when the
   * cluster was made without {@link Options#dockerBridge()}.
   */
  public Optional<String> dockerBridge() {
    String v = fact("DOCKER_BRIDGE");
    return v.equals("none") ? Optional.empty() : Optional.of(v);
  }

  /** The job user's private key (ed25519, no passphrase), authorised on every node. */
  public Path keyFile() {
    return Paths.get(fact("KEY_FILE"));
  }

  /** known_hosts with every node by name and by address. */
  public Path knownHosts() {
    return Paths.get(fact("KNOWN_HOSTS"));
  }

  /** A directory every node sees at the same path, owned by the job user. */
  public Path sharedDir() {
    return Paths.get(fact("SHARED_DIR"));
  }

  /** The enroot stand-in's local registry directory ({@code docker://clusterrun/tiny} is in it). */
  public Path registryDir() {
    return Paths.get(fact("REGISTRY_DIR"));
  }

  public Path stateDir() {
    return Paths.get(fact("STATE_DIR"));
  }

  /**
   * The cluster's open image registry, {@code HOST:PORT} (plain HTTP, Docker's distribution 2.8):
   * {@code docker://HOST:PORT#clusterrun/tiny} is there from the start.
   */
  public String registry() {
    return fact("REGISTRY");
  }

  /**
   * The tiny image in the cluster's open registry, {@code docker://HOST:PORT#clusterrun/tiny}: what
   * a job names to run in it (the nodes' site drop-in allows the registry's plain HTTP).
   */
  public String tinyImage() {
    return "docker://" + registry() + "#clusterrun/tiny";
  }

  /**
   * The cluster's private image registry, {@code HOST:PORT} (plain HTTP, basic auth for {@link
   * #privateRegistryUser()} with {@link #privateRegistryPassword()}); {@code clusterrun/tiny} is
   * there from the start.
   */
  public String privateRegistry() {
    return fact("PRIVATE_REGISTRY");
  }

  public String privateRegistryUser() {
    return fact("PRIVATE_REGISTRY_USER");
  }

  /** The private registry's password (made by {@code up}; a test secret, never print it). */
  public String privateRegistryPassword() {
    try {
      return Files.readString(Paths.get(fact("PRIVATE_REGISTRY_PASSWORD_FILE"))).strip();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Pushes a new version of the tiny image under {@code repoTag} (moving the tag) and returns its
   * manifest digest ({@code sha256:...}): {@code cluster.sh push ARGS... REPO:TAG}, e.g. {@code
   * push("clusterrun/tiny:v", "--add", "/opt/tiny/VERSION=2")}; {@code "--private"} pushes to the
   * private registry, {@code "--remove", "/PATH"} adds a whiteout, {@code "--env", "K=V"} sets the
   * config's Env, {@code "--arch", "amd64,arm64"} makes a manifest list, {@code "--oci"} an OCI
   * manifest.
   */
  public String push(String repoTag, String... args) {
    List<String> w = new ArrayList<>(List.of("push", repoTag));
    w.addAll(Arrays.asList(args));
    Result r = run(script, w, Map.of(), null, DEFAULT_TIMEOUT);
    if (!r.ok() || !r.out().startsWith("sha256:")) {
      throw new IllegalStateException("cluster.sh " + String.join(" ", w) + " failed: " + r);
    }
    return r.out();
  }

  /** Fails the test unless the command exited 0, showing all it printed; returns it. */
  public static Result ok(Result r) {
    org.assertj.core.api.Assertions.assertThat(r.exitCode()).as("%s", r).isZero();
    return r;
  }

  /** Writes {@code content} to {@code path} on node1 as the job user (its owner, its umask). */
  public void writeAsJobUser(String path, String content) {
    ok(
        exec(
            "node1",
            false,
            content,
            Duration.ofSeconds(30),
            List.of("sh", "-c", "cat > " + dev.clusterrun.core.remote.ShellQuote.quote(path))));
  }

  /** The cluster's network, e.g. {@code 10.213.76.0/23}. */
  public String subnet() {
    return fact("SUBNET");
  }

  public String address(String node) {
    return fact(node.toUpperCase(java.util.Locale.ROOT) + "_ADDR");
  }

  /** {@code standin} or {@code host}. */
  public String enrootMode() {
    return fact("ENROOT_MODE");
  }

  /**
   * How {@code enroot start IMAGE.sqsh} works on the nodes: {@code fuse} (squashfuse and an
   * overlay, as enroot does it; the nodes have a /dev/fuse the job user can open) or {@code unpack}
   * (the machine cannot give the nodes fuse: the stand-in unpacks the image, its SHORTCUT, and a
   * real enroot fails).
   */
  public String sqshMode() {
    return fact("SQSH_MODE");
  }

  /** PID of the process holding the node's namespaces ({@code nsenter -t PID -n -u -m}). */
  public long holderPid(String node) {
    return Long.parseLong(fact(node.toUpperCase(java.util.Locale.ROOT) + "_PID"));
  }

  /** Where the node's /etc/enroot lives on the host (write hooks and drop-ins here as root). */
  public Path nodeEnrootDir(String node) {
    return Paths.get(fact(node.toUpperCase(java.util.Locale.ROOT) + "_ENROOT_DIR"));
  }

  /**
   * Writes {@code content} to {@code relative} under every node's /etc/enroot (root-owned, mode
   * {@code mode}, written atomically), e.g. {@code hooks.d/50-agent.sh} or {@code
   * enroot.conf.d/50-test.conf}.
   */
  public void writeEnrootFile(String relative, String content, String mode) {
    for (String node : nodes()) {
      writeEnrootFile(node, relative, content, mode);
    }
  }

  /** As {@link #writeEnrootFile(String, String, String)} on one node. */
  public void writeEnrootFile(String node, String relative, String content, String mode) {
    Path target = nodeEnrootDir(node).resolve(relative);
    try {
      Files.createDirectories(target.getParent());
      Path tmp = Files.createTempFile(target.getParent(), ".tmp", "");
      Files.writeString(tmp, content, StandardCharsets.UTF_8);
      Files.setPosixFilePermissions(
          tmp, java.nio.file.attribute.PosixFilePermissions.fromString(mode));
      Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Removes a file written with {@link #writeEnrootFile} from every node. */
  public void removeEnrootFile(String relative) {
    for (String node : nodes()) {
      try {
        Files.deleteIfExists(nodeEnrootDir(node).resolve(relative));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }

  /**
   * Copies the built launcher ({@code launcher-cli/target/clusterrun} and {@code clusterrun.jar})
   * into {@code SHARED_DIR/opt/clusterrun/} and returns the launcher's path there, which the job
   * user can run on every node.
   */
  public Path installClusterrun(Path targetDir) {
    Path dest = sharedDir().resolve("opt/clusterrun");
    try {
      Files.createDirectories(dest);
      for (String f : List.of("clusterrun", "clusterrun.jar")) {
        Path src = targetDir.resolve(f);
        if (!Files.isRegularFile(src)) {
          throw new IllegalStateException(src + " is missing: run mvn package first");
        }
        Files.copy(src, dest.resolve(f), StandardCopyOption.REPLACE_EXISTING);
      }
      Files.setPosixFilePermissions(
          dest.resolve("clusterrun"),
          java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return dest.resolve("clusterrun");
  }

  static Result run(
      Path script, List<String> args, Map<String, String> env, String stdin, Duration timeout) {
    List<String> command = new ArrayList<>();
    command.add("bash");
    command.add(script.toString());
    command.addAll(args);
    Path out = null;
    Path err = null;
    try {
      out = Files.createTempFile("local-cluster", ".out");
      err = Files.createTempFile("local-cluster", ".err");
      ProcessBuilder pb = new ProcessBuilder(command);
      pb.environment().putAll(env);
      pb.redirectOutput(out.toFile()).redirectError(err.toFile());
      if (stdin == null) {
        pb.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
      }
      Process p = pb.start();
      if (stdin != null) {
        try (var in = p.getOutputStream()) {
          in.write(stdin.getBytes(StandardCharsets.UTF_8));
        }
      }
      int code;
      if (p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        code = p.exitValue();
      } else {
        p.descendants().forEach(ProcessHandle::destroyForcibly);
        p.destroyForcibly();
        p.waitFor();
        code = -1;
      }
      String e = Files.readString(err, StandardCharsets.UTF_8);
      if (code == -1) {
        e += "\n(local cluster: timed out after " + timeout + ": " + command + ")";
      }
      return new Result(code, Files.readString(out, StandardCharsets.UTF_8), e);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted running " + command, e);
    } finally {
      try {
        if (out != null) {
          Files.deleteIfExists(out);
        }
        if (err != null) {
          Files.deleteIfExists(err);
        }
      } catch (IOException ignored) {
        // temp files only
      }
    }
  }

  private static final OwnerLock OWNER = new OwnerLock(Paths.get("/run/clusterrun-lc.owner.lock"));

  /** A machine-wide lock held from {@code up} to {@code down}, re-entrant within this JVM. */
  static final class OwnerLock {
    private final Path file;
    private java.nio.channels.FileChannel channel;
    private java.nio.channels.FileLock lock;
    private int holds;

    OwnerLock(Path file) {
      this.file = file;
    }

    synchronized void acquire() {
      if (holds++ > 0) {
        return;
      }
      try {
        channel =
            java.nio.channels.FileChannel.open(
                file,
                java.nio.file.StandardOpenOption.CREATE,
                java.nio.file.StandardOpenOption.WRITE);
        lock = channel.tryLock();
        if (lock == null && "recorded".equals(ownerState())) {
          // The cluster a plain `cluster.sh up` left up (the quick start's, to play with): the
          // tests
          // replace it as `up` does, instead of waiting for a holder that waits for `down`.
          System.err.println(
              "local cluster: taking down the cluster a plain `cluster.sh up` left up ("
                  + owner().orElse("(unknown)")
                  + "), as `cluster.sh up` does");
          run(script(), List.of("down"), Map.of(), null, Duration.ofSeconds(180));
          lock = channel.tryLock();
        }
        if (lock == null) {
          // Say who we wait for: another build's test JVM, a benchmark, a cluster left up by hand.
          System.err.println(
              "local cluster: waiting for the owner of the local cluster: "
                  + owner().orElse("(unknown)"));
          lock = channel.lock();
        }
      } catch (java.io.IOException e) {
        holds--;
        throw new IllegalStateException("cannot lock " + file + ": " + e.getMessage(), e);
      }
    }

    /** Who may change the cluster, as {@code cluster.sh owner-state} says; empty when unknown. */
    private static String ownerState() {
      try {
        Result r = run(script(), List.of("owner-state"), Map.of(), null, Duration.ofSeconds(10));
        return r.ok() ? r.out().strip() : "";
      } catch (RuntimeException e) {
        return "";
      }
    }

    /** The PID and command line holding the lock, as {@code cluster.sh owner} says. */
    private static Optional<String> owner() {
      try {
        Result r = run(script(), List.of("owner"), Map.of(), null, Duration.ofSeconds(10));
        return r.ok() && !r.out().isEmpty() ? Optional.of(r.out()) : Optional.empty();
      } catch (RuntimeException e) {
        return Optional.empty();
      }
    }

    synchronized void release() {
      if (holds == 0 || --holds > 0) {
        return;
      }
      try {
        lock.release();
        channel.close();
      } catch (java.io.IOException ignored) {
        // the lock goes with the process anyway
      }
    }
  }
}
