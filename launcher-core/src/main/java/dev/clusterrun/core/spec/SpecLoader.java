package dev.clusterrun.core.spec;

import com.fasterxml.jackson.core.JsonToken;
import dev.clusterrun.core.BadInputException;
import dev.clusterrun.core.spec.YamlTree.Entry;
import dev.clusterrun.core.spec.YamlTree.MapNode;
import dev.clusterrun.core.spec.YamlTree.Node;
import dev.clusterrun.core.spec.YamlTree.Scalar;
import dev.clusterrun.core.spec.YamlTree.Seq;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Loads a job spec (YAML) strictly: unknown keys (with a did-you-mean), duplicate keys, wrong types
 * and bad values are errors naming {@code FILE:LINE:COLUMN: field.path}. See {@code
 * docs/job-spec.md} for every field.
 *
 * <p>Absent keys, and keys given with no value ({@code name:} or {@code ~}), are null in the
 * result; an absent or empty section is the section's {@code EMPTY} value. Booleans are YAML 1.2's
 * {@code true} and {@code false} (also {@code True}, {@code TRUE}, {@code False}, {@code FALSE})
 * only: YAML 1.1's {@code yes}/{@code no}/{@code on}/{@code off} are refused with a hint, since
 * YAML readers disagree on them. Scalars keep their text as written where a string is expected
 * ({@code FOO: 010} is {@code "010"}, not 8).
 *
 * <p>Only this class (and {@link YamlTree}) touches Jackson, and only its streaming YAML parser.
 */
public final class SpecLoader {
  static final List<String> TOP_KEYS =
      List.of("name", "launcher", "container", "workspace", "mpi", "command", "ssh");
  static final List<String> CONTAINER_KEYS =
      List.of(
          "image",
          "name",
          "mounts",
          "workdir",
          "writable",
          "mount-home",
          "remap-root",
          "env",
          "env-from-host",
          "save",
          "entrypoint");
  static final List<String> WORKSPACE_KEYS = List.of("path", "mount", "image-cache-limit");
  static final List<String> MPI_KEYS =
      List.of("np", "per-node", "mca", "env", "args", "hostfile", "network", "node-timeout");
  static final List<String> SSH_KEYS =
      List.of("user", "port", "identity", "known-hosts", "connect-timeout", "fanout");
  static final List<String> MOUNT_KEYS = List.of("source", "target", "flags");

  private static final Map<String, List<String>> SECTIONS = new LinkedHashMap<>();

  static {
    SECTIONS.put("", TOP_KEYS);
    SECTIONS.put("container", CONTAINER_KEYS);
    SECTIONS.put("workspace", WORKSPACE_KEYS);
    SECTIONS.put("mpi", MPI_KEYS);
    SECTIONS.put("ssh", SSH_KEYS);
  }

  /** Words people write for a key, mapped to the key (only suggested, never accepted). */
  private static final Map<String, String> SYNONYMS =
      Map.of(
          "destination", "target",
          "dest", "target",
          "dst", "target",
          "src", "source",
          "options", "flags",
          "environment", "env",
          "cmd", "command",
          "hosts", "hostfile",
          "ranks", "np");

  private static final Pattern JOB_NAME = Pattern.compile("[A-Za-z0-9._-]+");

  /**
   * The longest job name: it becomes part of a run directory's name (with a time and a random
   * part), and a directory name holds at most 255 bytes.
   */
  public static final int MAX_JOB_NAME = 128;

  private static final Pattern ENV_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
  private static final Pattern MCA_NAME = Pattern.compile("[A-Za-z0-9_]+");
  private static final Pattern WHOLE = Pattern.compile("[+-]?[0-9]+");
  private static final Pattern PLAIN_WORD =
      Pattern.compile("[A-Za-z0-9._/+^=-][A-Za-z0-9._/+^=~-]*");
  private static final List<String> YAML11_BOOLEANS = List.of("y", "n", "yes", "no", "on", "off");

  private final String source;

  private SpecLoader(String source) {
    this.source = source;
  }

  /**
   * Reads and loads a job spec file.
   *
   * @throws BadInputException when the file cannot be read (subject: the path as given) or is not a
   *     valid job spec
   */
  public static JobSpec load(Path file) {
    String name = file.toString();
    String content =
        dev.clusterrun.core.InputFiles.read(file, name, "a job spec", YamlTree.MAX_CODE_POINTS);
    return parse(content, name);
  }

  /**
   * Loads a job spec from YAML text.
   *
   * @param sourceName how to name the text in messages, and {@link JobSpec#source()}
   * @throws BadInputException with subject {@code SOURCE:LINE:COLUMN: field.path}
   */
  public static JobSpec parse(String yaml, String sourceName) {
    Node root = YamlTree.read(yaml, sourceName);
    if (root == null) {
      throw new BadInputException(
          sourceName,
          "the job spec is empty; expected settings such as 'name:', 'container:' and"
              + " 'command:'");
    }
    SpecLoader loader = new SpecLoader(sourceName);
    loader.carried(root, "");
    return loader.job(root);
  }

  /**
   * Every key and every scalar, before any other check: what no program can be given (a NUL, an
   * unpaired surrogate, a word longer than Linux passes) is refused at its line and column.
   */
  private void carried(Node n, String path) {
    if (n instanceof MapNode m) {
      for (Entry e : m.entries().values()) {
        String p = path.isEmpty() ? e.key() : path + "." + e.key();
        try {
          Carry.encodable(e.key());
          Carry.word(e.key());
        } catch (IllegalArgumentException ex) {
          throw errorAt(e.line(), e.column(), p, "the key " + ex.getMessage());
        }
        carried(e.value(), p);
      }
    } else if (n instanceof Seq seq) {
      for (int i = 0; i < seq.items().size(); i++) {
        carried(seq.items().get(i), path + "[" + i + "]");
      }
    } else if (n instanceof Scalar s && !s.isNull()) {
      try {
        Carry.encodable(s.text());
        Carry.word(s.text());
      } catch (IllegalArgumentException ex) {
        throw error(s, path, ex.getMessage());
      }
    }
  }

  // ---------------------------------------------------------------- sections

  private JobSpec job(Node root) {
    if (!(root instanceof MapNode m)) {
      throw error(
          root,
          "",
          "expected a map of settings (name:, container:, command:, …) at the top level, found "
              + describe(root));
    }
    checkKeys(m, "");
    return new JobSpec(
        jobName(m.entries().get("name")),
        container(m.entries().get("container")),
        workspace(m.entries().get("workspace")),
        mpi(m.entries().get("mpi")),
        command(m.entries().get("command")),
        ssh(m.entries().get("ssh")),
        source,
        checked(m.entries().get("launcher"), "launcher", SettingRules::launcher));
  }

  private String jobName(Entry e) {
    String s = string(e, "name");
    if (s != null && !JOB_NAME.matcher(s).matches()) {
      throw error(
          e.value(),
          "name",
          "'" + clip(s) + "' is not a valid job name (letters, digits and . _ -)");
    }
    if (s != null && s.length() > MAX_JOB_NAME) {
      throw error(
          e.value(),
          "name",
          "the job name is "
              + s.length()
              + " characters long; at most "
              + MAX_JOB_NAME
              + " (it names the run's directory)");
    }
    return s;
  }

  private ContainerSpec container(Entry e) {
    MapNode m = section(e, "container");
    if (m == null) {
      return ContainerSpec.EMPTY;
    }
    Map<String, Entry> k = m.entries();
    return new ContainerSpec(
        checked(k.get("image"), "container.image", SettingRules::image),
        checked(k.get("name"), "container.name", SettingRules::containerName),
        mounts(k.get("mounts")),
        checked(k.get("workdir"), "container.workdir", SettingRules::workdir),
        bool(k.get("writable"), "container.writable"),
        bool(k.get("mount-home"), "container.mount-home"),
        bool(k.get("remap-root"), "container.remap-root"),
        envMap(k.get("env"), "container.env"),
        envNames(k.get("env-from-host"), "container.env-from-host"),
        checked(k.get("save"), "container.save", SettingRules::savePath),
        bool(k.get("entrypoint"), "container.entrypoint"));
  }

  private WorkspaceSpec workspace(Entry e) {
    MapNode m = section(e, "workspace");
    if (m == null) {
      return WorkspaceSpec.EMPTY;
    }
    return new WorkspaceSpec(
        checked(m.entries().get("path"), "workspace.path", SettingRules::workspacePath),
        checked(m.entries().get("mount"), "workspace.mount", SettingRules::workspaceMount),
        checked(
            m.entries().get("image-cache-limit"),
            "workspace.image-cache-limit",
            SettingRules::imageCacheLimit));
  }

  private MpiSpec mpi(Entry e) {
    MapNode m = section(e, "mpi");
    if (m == null) {
      return MpiSpec.EMPTY;
    }
    Map<String, Entry> k = m.entries();
    return new MpiSpec(
        integer(k.get("np"), "mpi.np", SettingRules::np),
        integer(k.get("per-node"), "mpi.per-node", SettingRules::perNode),
        mca(k.get("mca")),
        mpiEnv(k.get("env")),
        words(k.get("args"), "mpi.args", false),
        absolutePath(k.get("hostfile"), "mpi.hostfile"),
        checked(k.get("network"), "mpi.network", SettingRules::network),
        duration(k.get("node-timeout"), "mpi.node-timeout"));
  }

  private SshSpec ssh(Entry e) {
    MapNode m = section(e, "ssh");
    if (m == null) {
      return SshSpec.EMPTY;
    }
    Map<String, Entry> k = m.entries();
    String user = checked(k.get("user"), "ssh.user", SettingRules::sshUser);
    String identity = checked(k.get("identity"), "ssh.identity", SettingRules::sshIdentity);
    SshSpec.KnownHostsPolicy policy = null;
    String kh = string(k.get("known-hosts"), "ssh.known-hosts");
    if (kh != null) {
      try {
        policy = SshSpec.KnownHostsPolicy.fromYaml(kh);
      } catch (IllegalArgumentException ex) {
        throw error(
            k.get("known-hosts").value(),
            "ssh.known-hosts",
            "expected strict or accept-new, found '"
                + kh
                + "'"
                + DidYouMean.hint(kh, List.of("strict", "accept-new")));
      }
    }
    return new SshSpec(
        user,
        integer(k.get("port"), "ssh.port", SettingRules::sshPort),
        identity,
        policy,
        duration(k.get("connect-timeout"), "ssh.connect-timeout"),
        integer(k.get("fanout"), "ssh.fanout", SettingRules::fanout));
  }

  // ---------------------------------------------------------------- fields

  private List<String> command(Entry e) {
    if (e == null || isNull(e.value())) {
      return null;
    }
    if (e.value() instanceof Scalar s && s.token() != JsonToken.VALUE_NULL) {
      String text = s.text();
      if (text.isEmpty()) {
        throw error(s, "command", "expected the program to run, found ''");
      }
      String[] parts = text.strip().split("\\s+");
      if (parts.length > 1 || !text.equals(text.strip())) {
        throw error(
            s,
            "command",
            "expected a list of words, found '"
                + text
                + "'; write it as a list, e.g. command: "
                + flowList(List.of(parts)));
      }
      try {
        commandWord(0, text);
      } catch (IllegalArgumentException ex) {
        throw error(s, "command", ex.getMessage());
      }
      return List.of(text);
    }
    List<String> words = words(e, "command", true);
    if (words.isEmpty()) {
      throw error(e.value(), "command", "expected at least one word (the program), found []");
    }
    Seq seq = (Seq) e.value();
    for (int i = 0; i < words.size(); i++) {
      try {
        commandWord(i, words.get(i));
      } catch (IllegalArgumentException ex) {
        throw error(seq.items().get(i), "command[" + i + "]", ex.getMessage());
      }
    }
    return words;
  }

  /**
   * A word of the job's command as mpirun reads it: a lone {@code :} separates programs (its MPMD
   * syntax), and a first word starting with {@code -} is one of its own options.
   */
  public static String commandWord(int index, String word) {
    if (word.equals(":")) {
      throw new IllegalArgumentException(
          "a lone ':' is where mpirun separates programs (MPMD); quote it differently, e.g."
              + " pass it through a script");
    }
    if (index == 0 && word.startsWith("-")) {
      throw new IllegalArgumentException(
          "the program '"
              + clip(word)
              + "' starts with '-', which mpirun would read as one of its own options; give the"
              + " program first (mpirun's own options go in mpi.args)");
    }
    return word;
  }

  private List<Mount> mounts(Entry e) {
    Seq seq = list(e, "container.mounts");
    if (seq == null) {
      return null;
    }
    List<Mount> out = new ArrayList<>();
    for (int i = 0; i < seq.items().size(); i++) {
      Node n = seq.items().get(i);
      String path = "container.mounts[" + i + "]";
      if (n instanceof MapNode m) {
        out.add(mountMap(m, path));
      } else if (n instanceof Scalar s && !s.isNull()) {
        try {
          out.add(Mount.parse(s.text()));
        } catch (IllegalArgumentException ex) {
          throw error(n, path, ex.getMessage());
        }
      } else {
        throw error(
            n,
            path,
            "expected a mount 'SRC[:DST[:FLAGS]]' or a map {source, target, flags}, found "
                + describe(n));
      }
    }
    return List.copyOf(out);
  }

  /** {@code {source: SRC, target: DST, flags: FLAGS}}; errors name the key or the flag. */
  private Mount mountMap(MapNode m, String path) {
    checkKeys(m, path, MOUNT_KEYS);
    Entry srcEntry = m.entries().get("source");
    String src = string(srcEntry, path + ".source");
    if (src == null || src.isEmpty()) {
      throw error(
          srcEntry == null ? m : srcEntry.value(),
          path + (srcEntry == null ? "" : ".source"),
          "a mount needs 'source:'");
    }
    Entry dstEntry = m.entries().get("target");
    String dst = string(dstEntry, path + ".target");
    if (dst != null && dst.isEmpty()) {
      throw error(
          dstEntry.value(), path + ".target", "expected a path inside the container, found ''");
    }
    try {
      Mount.of(src, dst, List.of());
    } catch (IllegalArgumentException ex) {
      boolean aboutTarget = dstEntry != null && ex.getMessage().startsWith("mount destination");
      Entry at = aboutTarget ? dstEntry : srcEntry;
      throw error(at.value(), path + (aboutTarget ? ".target" : ".source"), ex.getMessage());
    }
    Entry flagsEntry = m.entries().get("flags");
    List<String> flags = new ArrayList<>();
    List<Node> flagNodes = new ArrayList<>();
    String flagsPath = path + ".flags";
    if (flagsEntry != null && !isNull(flagsEntry.value())) {
      if (flagsEntry.value() instanceof Seq seq) {
        for (int i = 0; i < seq.items().size(); i++) {
          Node n = seq.items().get(i);
          if (!(n instanceof Scalar s)
              || s.token() != JsonToken.VALUE_STRING
              || s.text().isEmpty()) {
            throw error(
                n, flagsPath + "[" + i + "]", "expected a flag such as ro, found " + describe(n));
          }
          flags.add(s.text());
          flagNodes.add(n);
        }
      } else if (flagsEntry.value() instanceof Scalar s && s.token() == JsonToken.VALUE_STRING) {
        for (String f : s.text().split("[+,]", -1)) {
          if (f.isEmpty()) {
            throw error(s, flagsPath, "empty flag in '" + s.text() + "'");
          }
          flags.add(f);
          flagNodes.add(s);
        }
      } else {
        throw error(
            flagsEntry.value(),
            flagsPath,
            "expected flags such as ro or [ro, rprivate], found " + describe(flagsEntry.value()));
      }
    }
    for (int i = 0; i < flags.size(); i++) {
      try {
        Mount.of(src, dst, List.of(flags.get(i)));
      } catch (IllegalArgumentException ex) {
        boolean list = flagsEntry.value() instanceof Seq;
        throw error(flagNodes.get(i), flagsPath + (list ? "[" + i + "]" : ""), ex.getMessage());
      }
    }
    return Mount.of(src, dst, flags);
  }

  private Map<String, String> envMap(Entry e, String path) {
    MapNode m = map(e, path);
    if (m == null) {
      return null;
    }
    Map<String, String> out = new LinkedHashMap<>();
    for (Entry v : m.entries().values()) {
      String p = path + "." + v.key();
      if (!ENV_NAME.matcher(v.key()).matches()) {
        throw errorAt(
            v.line(),
            v.column(),
            p,
            "'"
                + v.key()
                + "' is not a valid variable name (letters, digits and _, not first a"
                + " digit)");
      }
      try {
        Carry.envName(v.key());
      } catch (IllegalArgumentException ex) {
        throw errorAt(v.line(), v.column(), p, ex.getMessage());
      }
      String value = scalarValue(v, p);
      try {
        Carry.agentWord(value, Carry.USE_ENV_FROM_HOST);
        Carry.envValue(value);
      } catch (IllegalArgumentException ex) {
        throw error(v.value(), p, ex.getMessage());
      }
      out.put(v.key(), value);
    }
    return Collections.unmodifiableMap(out);
  }

  private Map<String, String> mca(Entry e) {
    MapNode m = map(e, "mpi.mca");
    if (m == null) {
      return null;
    }
    Map<String, String> out = new LinkedHashMap<>();
    for (Entry v : m.entries().values()) {
      String p = "mpi.mca." + v.key();
      if (!MCA_NAME.matcher(v.key()).matches()) {
        throw errorAt(
            v.line(),
            v.column(),
            p,
            "'" + v.key() + "' is not a valid MCA parameter name (letters, digits and _)");
      }
      String value = scalarValue(v, p);
      try {
        Carry.mcaValue(value);
      } catch (IllegalArgumentException ex) {
        throw error(v.value(), p, ex.getMessage());
      }
      out.put(v.key(), value);
    }
    return Collections.unmodifiableMap(out);
  }

  /** The text of a map value that must be a scalar and must be there. */
  private String scalarValue(Entry v, String path) {
    Node n = v.value();
    if (n instanceof Scalar s && !s.isNull()) {
      return s.text();
    }
    if (isNull(n)) {
      throw error(
          n, path, "expected a value, found nothing; write " + v.key() + ": '' for an empty one");
    }
    throw error(n, path, "expected a single value, found " + describe(n));
  }

  private List<String> mpiEnv(Entry e) {
    List<String> items = words(e, "mpi.env", false);
    if (items == null) {
      return null;
    }
    Seq seq = (Seq) e.value();
    for (int i = 0; i < items.size(); i++) {
      String item = items.get(i);
      int eq = item.indexOf('=');
      String name = eq < 0 ? item : item.substring(0, eq);
      if (!ENV_NAME.matcher(name).matches()) {
        throw error(
            seq.items().get(i),
            "mpi.env[" + i + "]",
            "expected NAME or NAME=VALUE, found '" + clip(item) + "'");
      }
      try {
        Carry.envName(name);
        if (eq >= 0 && Carry.mpiVariable(name)) {
          Carry.mcaValue(item.substring(eq + 1));
        }
      } catch (IllegalArgumentException ex) {
        throw error(seq.items().get(i), "mpi.env[" + i + "]", ex.getMessage());
      }
    }
    return items;
  }

  private List<String> envNames(Entry e, String path) {
    List<String> items = words(e, path, false);
    if (items == null) {
      return null;
    }
    Seq seq = (Seq) e.value();
    for (int i = 0; i < items.size(); i++) {
      try {
        SettingRules.envName(items.get(i));
      } catch (IllegalArgumentException ex) {
        throw error(seq.items().get(i), path + "[" + i + "]", ex.getMessage());
      }
    }
    return items;
  }

  /** A list of scalar words, kept as written; with {@code programFirst} the first is not empty. */
  private List<String> words(Entry e, String path, boolean programFirst) {
    Seq seq = list(e, path);
    if (seq == null) {
      return null;
    }
    List<String> out = new ArrayList<>();
    for (int i = 0; i < seq.items().size(); i++) {
      Node n = seq.items().get(i);
      String p = path + "[" + i + "]";
      if (n instanceof MapNode m && m.entries().size() == 1) {
        Entry only = m.entries().values().iterator().next();
        String shown =
            only.value() instanceof Scalar s ? only.key() + "=" + s.text() : only.key() + "=…";
        throw error(
            n,
            p,
            "expected a word, found a map ('"
                + only.key()
                + ": …'); a ': ' makes a map in YAML, write '"
                + shown
                + "' or quote the word");
      }
      if (!(n instanceof Scalar s) || s.isNull()) {
        throw error(n, p, "expected a word, found " + describe(n));
      }
      if (programFirst && i == 0 && s.text().isEmpty()) {
        throw error(n, p, "expected the program to run, found ''");
      }
      out.add(s.text());
    }
    return List.copyOf(out);
  }

  // ---------------------------------------------------------------- scalars

  private String string(Entry e, String path) {
    if (e == null || isNull(e.value())) {
      return null;
    }
    if (e.value() instanceof Scalar s) {
      return s.text();
    }
    throw error(e.value(), path, "expected a single value, found " + describe(e.value()));
  }

  private String absolutePath(Entry e, String path) {
    String s = string(e, path);
    if (s != null && !s.startsWith("/")) {
      throw error(
          e.value(),
          path,
          "expected an absolute path (starting with '/'), found '" + clip(s) + "'");
    }
    if (s != null) {
      try {
        Carry.path(s, true);
      } catch (IllegalArgumentException ex) {
        throw error(e.value(), path, ex.getMessage());
      }
    }
    return s;
  }

  /** A text value checked by its one rule ({@link SettingRules}); errors name file:line:column. */
  private <T> T checked(Entry e, String path, java.util.function.Function<String, T> rule) {
    String s = string(e, path);
    if (s == null) {
      return null;
    }
    try {
      return rule.apply(s);
    } catch (IllegalArgumentException ex) {
      throw error(e.value(), path, ex.getMessage());
    }
  }

  private Integer integer(Entry e, String path, java.util.function.LongToIntFunction rule) {
    if (e == null || isNull(e.value())) {
      return null;
    }
    Node n = e.value();
    if (n instanceof Scalar s && s.token() == JsonToken.VALUE_NUMBER_INT) {
      String t = s.text();
      if (WHOLE.matcher(t).matches()) {
        long v;
        try {
          v = Long.parseLong(t.startsWith("+") ? t.substring(1) : t);
        } catch (NumberFormatException tooLong) {
          v = t.startsWith("-") ? Long.MIN_VALUE : Long.MAX_VALUE;
        }
        try {
          return rule.applyAsInt(v);
        } catch (IllegalArgumentException ex) {
          throw error(n, path, ex.getMessage().replace("found " + v, "found " + clip(t)));
        }
      }
    }
    throw error(n, path, "expected a whole number, found " + describeNumeric(n));
  }

  /** YAML 1.2's booleans, the only words Jackson turns into VALUE_TRUE/FALSE that are kept. */
  private static final List<String> YAML12_BOOLEANS =
      List.of("true", "True", "TRUE", "false", "False", "FALSE");

  private Boolean bool(Entry e, String path) {
    if (e == null || isNull(e.value())) {
      return null;
    }
    Node n = e.value();
    if (n instanceof Scalar s) {
      String lower = s.text().toLowerCase(Locale.ROOT);
      boolean yaml12 = YAML12_BOOLEANS.contains(s.text());
      if ((s.token() == JsonToken.VALUE_TRUE || s.token() == JsonToken.VALUE_FALSE) && yaml12) {
        return s.token() == JsonToken.VALUE_TRUE;
      }
      if (YAML11_BOOLEANS.contains(lower)) {
        String meant =
            lower.equals("y") || lower.equals("yes") || lower.equals("on") ? "true" : "false";
        throw error(
            n,
            path,
            "expected true or false, found '"
                + s.text()
                + "'; write "
                + meant
                + " (the job file follows YAML 1.2, where yes/no/on/off are text, not booleans;"
                + " YAML readers disagree on them)");
      }
      if (yaml12) {
        // A plain true/True/TRUE is read as a boolean, so this one was written in quotes.
        throw error(
            n,
            path,
            "expected true or false, found the quoted string '"
                + s.text()
                + "'; remove the quotes");
      }
      if (lower.equals("true") || lower.equals("false")) {
        throw error(
            n,
            path,
            "expected true or false, found '"
                + s.text()
                + "', which is not a boolean: write "
                + lower
                + " (YAML booleans are true and false, also True, TRUE, False and FALSE)");
      }
    }
    throw error(n, path, "expected true or false, found " + describe(n));
  }

  private Duration duration(Entry e, String path) {
    if (e == null || isNull(e.value())) {
      return null;
    }
    Node n = e.value();
    if (n instanceof Scalar s) {
      String t = s.text();
      Duration d = null;
      if (s.token() == JsonToken.VALUE_NUMBER_INT) {
        d = Durations.seconds(t);
      } else if (s.token() == JsonToken.VALUE_STRING) {
        d = Durations.withUnit(t);
      }
      if (d != null) {
        if (d.isZero()) {
          throw error(n, path, "expected a duration greater than 0, found " + t);
        }
        return d;
      }
    }
    throw error(
        n,
        path,
        "expected a duration such as 500ms, 10s or 2m (or whole seconds), found "
            + describeNumeric(n));
  }

  // ---------------------------------------------------------------- structure

  /** The section's map, or null when absent or empty. */
  private MapNode section(Entry e, String path) {
    MapNode m = map(e, path);
    if (m != null) {
      checkKeys(m, path);
    }
    return m;
  }

  private MapNode map(Entry e, String path) {
    if (e == null || isNull(e.value())) {
      return null;
    }
    if (e.value() instanceof MapNode m) {
      return m;
    }
    throw error(e.value(), path, "expected a map of settings, found " + describe(e.value()));
  }

  private Seq list(Entry e, String path) {
    if (e == null || isNull(e.value())) {
      return null;
    }
    if (e.value() instanceof Seq s) {
      return s;
    }
    String example =
        e.value() instanceof Scalar s
            ? "; write it as a list, e.g. [" + flowWord(s.text()) + "]"
            : "";
    throw error(e.value(), path, "expected a list, found " + describe(e.value()) + example);
  }

  private void checkKeys(MapNode m, String path) {
    checkKeys(m, path, SECTIONS.get(path));
  }

  private void checkKeys(MapNode m, String path, List<String> allowed) {
    for (Entry e : m.entries().values()) {
      if (allowed.contains(e.key())) {
        continue;
      }
      String full = path.isEmpty() ? e.key() : path + "." + e.key();
      Optional<String> here = DidYouMean.suggest(e.key(), allowed);
      String synonym = SYNONYMS.get(e.key().toLowerCase(Locale.ROOT));
      if (here.isEmpty() && synonym != null && allowed.contains(synonym)) {
        here = Optional.of(synonym);
      }
      String hint;
      if (here.isPresent()) {
        hint = "; did you mean '" + here.get() + "'?";
      } else {
        hint = elsewhere(e.key(), path).map(s -> "; did you mean '" + s + "'?").orElse("");
        if (hint.isEmpty()) {
          hint =
              "; expected one of: "
                  + String.join(", ", allowed)
                  + (path.isEmpty() ? "" : " (in " + path + ")");
        }
      }
      throw errorAt(e.line(), e.column(), full, "unknown key '" + e.key() + "'" + hint);
    }
  }

  /** A key that is right in another section, e.g. {@code image} at the top level. */
  private static Optional<String> elsewhere(String key, String path) {
    String k = key.toLowerCase(Locale.ROOT).replace('_', '-');
    for (Map.Entry<String, List<String>> s : SECTIONS.entrySet()) {
      if (s.getKey().equals(path)) {
        continue;
      }
      for (String candidate : s.getValue()) {
        if (candidate.equals(k) && !SECTIONS.containsKey(candidate)) {
          return Optional.of(s.getKey().isEmpty() ? candidate : s.getKey() + "." + candidate);
        }
      }
    }
    return Optional.empty();
  }

  private static boolean isNull(Node n) {
    return n instanceof Scalar s && s.isNull();
  }

  /** What a person wrote, for "expected X, found Y". */
  static String describe(Node n) {
    if (n instanceof MapNode) {
      return "a map";
    }
    if (n instanceof Seq) {
      return "a list";
    }
    Scalar s = (Scalar) n;
    return switch (s.token()) {
      case VALUE_NULL -> "nothing";
      case VALUE_STRING -> "'" + clip(s.text()) + "'";
      default -> clip(s.text());
    };
  }

  /** Text as shown in a message: whole up to 80 characters, else its start and its length. */
  static String clip(String text) {
    if (text.length() <= 80) {
      return text;
    }
    return text.substring(0, 40) + "… (" + text.length() + " characters)";
  }

  /** Like {@link #describe}, but says so when a number was put in quotes. */
  private static String describeNumeric(Node n) {
    if (n instanceof Scalar s
        && s.token() == JsonToken.VALUE_STRING
        && WHOLE.matcher(s.text()).matches()) {
      return "the quoted string '" + s.text() + "'; remove the quotes";
    }
    return describe(n);
  }

  /** A YAML flow list of words, quoting the words that need it. */
  static String flowList(List<String> words) {
    List<String> out = new ArrayList<>();
    for (String w : words) {
      out.add(flowWord(w));
    }
    return "[" + String.join(", ", out) + "]";
  }

  private static String flowWord(String w) {
    if (PLAIN_WORD.matcher(w).matches() && !w.equals("-")) {
      return w;
    }
    return "\"" + w.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
  }

  private BadInputException error(Node n, String path, String problem) {
    return errorAt(n.line(), n.column(), path, problem);
  }

  private BadInputException errorAt(int line, int column, String path, String problem) {
    return new BadInputException(
        source + ":" + line + ":" + column + (path.isEmpty() ? "" : ": " + path), problem);
  }
}
