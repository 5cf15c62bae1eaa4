package dev.clusterrun.core.check;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Hand-made facts for tests: a healthy node's keys, changed per test and read by the production
 * parser; or, for a test that reads one group only, facts holding just that group.
 */
public final class TestFacts {
  final String node;
  final Map<String, String> kv = new LinkedHashMap<>();

  TestFacts(String node) {
    this.node = node;
    kv.put("hostname", node);
    kv.put("uid", "1000");
    kv.put("gid", "1000");
    kv.put("user", "alice");
    kv.put("home", "/home/alice");
    kv.put("home.real", "/home/alice");
    kv.put("home.ssh_dir", "yes");
    kv.put("env.xdg_runtime_dir", "");
    kv.put("env.path", "/usr/bin:/bin");
    kv.put("enroot.path", "/usr/bin/enroot");
    kv.put("enroot.version", "4.1.2");
    kv.put("enroot.sysconf", "/etc/enroot");
    setting("ENROOT_RUNTIME_PATH", "/tmp/enroot-runtime-1000", DROPIN);
    setting("ENROOT_CONFIG_PATH", "/home/alice/.config/enroot", "default");
    setting("ENROOT_CACHE_PATH", "/tmp/enroot-cache-1000", DROPIN);
    setting("ENROOT_DATA_PATH", "/shared/enroot/data-1000", DROPIN);
    setting("ENROOT_TEMP_PATH", "/tmp", "default");
    setting("ENROOT_MOUNT_HOME", "yes", DROPIN);
    kv.put("conf.0.path", "/etc/enroot/enroot.conf");
    kv.put("conf.0.sha256", "a".repeat(64));
    kv.put("conf.1.path", DROPIN);
    kv.put("conf.1.sha256", "b".repeat(64));
    kv.put("probe.runtime.writable", "yes");
    kv.put("probe.cache.writable", "yes");
    kv.put("probe.data.writable", "yes");
    kv.put("data.real", "/shared/enroot/data-1000");
    kv.put("data.fstype", "nfs4");
    kv.put("data.mountpoint", "/shared");
    kv.put("hook.0.scope", "system");
    kv.put("hook.0.path", "/etc/enroot/hooks.d/" + ExpectedSetup.HOOK_FILE_NAME);
    kv.put("hook.0.stat", "755 0 root regular file");
    kv.put("hook.0.executable", "yes");
    kv.put("hook.0.sha256", "c".repeat(64));
    kv.put("hook.0.version", "1");
    kv.put("mntns", "mnt:[4026531840]");
    kv.put("fuse", "rw");
    kv.put("squashfuse", "/usr/bin/squashfuse");
  }

  static final String DROPIN = "/etc/enroot/enroot.conf.d/50-clusterrun.conf";

  static TestFacts node(String node) {
    return new TestFacts(node);
  }

  /** Facts holding only the script's keys as they are (the network facts read them there). */
  public static Facts raw(String node, Map<String, String> raw) {
    return new Facts(node, null, null, null, null, null, null, null, null, raw);
  }

  /** Facts holding only where enroot is installed, its version, and the script's keys. */
  static Facts enroot(String node, String path, String version, Map<String, String> raw) {
    Facts.Enroot enroot = new Facts.Enroot(path, version, null, null, null, null, null, null);
    return new Facts(node, null, null, null, null, enroot, null, null, null, raw);
  }

  TestFacts set(String key, String value) {
    if (value == null) {
      kv.remove(key);
    } else {
      kv.put(key, value);
    }
    return this;
  }

  /** Lines of the settings in clusterrun's drop-in, as setup writes it. */
  static final Map<String, String> DROPIN_LINES =
      Map.of(
          "ENROOT_DATA_PATH", "6",
          "ENROOT_MOUNT_HOME", "9",
          "ENROOT_RUNTIME_PATH", "17",
          "ENROOT_CACHE_PATH", "20");

  TestFacts setting(String name, String value, String source) {
    return setting(name, value, source, source.startsWith("/") ? DROPIN_LINES.get(name) : null);
  }

  TestFacts setting(String name, String value, String source, String line) {
    kv.put("enroot." + name, value);
    kv.put("enroot." + name + ".source", source);
    kv.put("enroot." + name + ".raw", value);
    if (line == null) {
      kv.remove("enroot." + name + ".line");
    } else {
      kv.put("enroot." + name + ".line", line);
    }
    return this;
  }

  TestFacts gpus(int n) {
    kv.put("gpu.rc", "0");
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < n; i++) {
      b.append("GPU ")
          .append(i)
          .append(": NVIDIA H100 80GB HBM3 (UUID: GPU-")
          .append(i)
          .append(")\n");
    }
    kv.put("gpu.list", b.toString().strip());
    return this;
  }

  Facts build() {
    return FactParser.fromValues(node, kv, Duration.ofMillis(210));
  }
}
