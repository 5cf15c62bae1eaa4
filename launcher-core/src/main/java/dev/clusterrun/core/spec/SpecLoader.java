package dev.clusterrun.core.spec;

import com.fasterxml.jackson.core.JsonToken;
import dev.clusterrun.core.BadInputException;
import dev.clusterrun.core.InputFiles;
import dev.clusterrun.core.spec.YamlTree.Entry;
import dev.clusterrun.core.spec.YamlTree.MapNode;
import dev.clusterrun.core.spec.YamlTree.Node;
import dev.clusterrun.core.spec.YamlTree.Scalar;
import dev.clusterrun.core.spec.YamlTree.Seq;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Loads a job spec (YAML) strictly: unknown keys (with a did-you-mean), duplicate keys, wrong types
 * and bad values are errors naming {@code FILE:LINE:COLUMN: field.path}. See {@code
 * docs/job-spec.md} for every field.
 *
 * <p>Absent keys, and keys given with no value ({@code name:} or {@code ~}), are null in the
 * result; an absent or empty section is the section's {@code EMPTY} value. Booleans are YAML 1.2's
 * {@code true} and {@code false} only ({@link YamlReader#bool}). Scalars keep their text as written
 * where a string is expected ({@code FOO: 010} is {@code "010"}, not 8).
 *
 * <p>The sections are read here, the fields holding lists and maps of their own in {@link
 * SpecFields}, every value through {@link YamlReader}, the one typed reader of clusterrun's YAML
 * files (the references file is the other).
 */
public final class SpecLoader {
  static final List<String> TOP_KEYS =
      List.of("name", "launcher", "time", "container", "workspace", "mpi", "command", "ssh");
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

  private static final Map<String, List<String>> SECTIONS = new LinkedHashMap<>();

  static {
    SECTIONS.put("", TOP_KEYS);
    SECTIONS.put("container", CONTAINER_KEYS);
    SECTIONS.put("workspace", WORKSPACE_KEYS);
    SECTIONS.put("mpi", MPI_KEYS);
    SECTIONS.put("ssh", SSH_KEYS);
  }

  private static final Pattern JOB_NAME = Pattern.compile("[A-Za-z0-9._-]+");

  /**
   * The longest job name: it becomes part of a run directory's name (with a time and a random
   * part), and a directory name holds at most 255 bytes.
   */
  public static final int MAX_JOB_NAME = 128;

  private static final List<String> KNOWN_HOSTS = List.of("strict", "accept-new");

  private final String source;
  private final YamlReader yaml;
  private final SpecFields fields;

  private SpecLoader(String source) {
    this.source = source;
    this.yaml = new YamlReader(source, SECTIONS);
    this.fields = new SpecFields(yaml);
  }

  /**
   * Reads and loads a job spec file.
   *
   * @throws BadInputException when the file cannot be read (subject: the path as given) or is not a
   *     valid job spec
   */
  public static JobSpec load(Path file) {
    String name = file.toString();
    String content = InputFiles.read(file, name, "a job spec", YamlTree.MAX_CODE_POINTS);
    return parse(content, name);
  }

  /**
   * Loads a job spec from YAML text.
   *
   * @param sourceName how to name the text in messages, and {@link JobSpec#source()}
   * @throws BadInputException with subject {@code SOURCE:LINE:COLUMN: field.path}
   */
  public static JobSpec parse(String yaml, String sourceName) {
    Node root = YamlTree.read(yaml, sourceName, YamlTree.Kind.JOB_SPEC);
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
          throw yaml.error(e, p, "the key " + ex.getMessage());
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
        throw yaml.error(s, path, ex.getMessage());
      }
    }
  }

  // ---------------------------------------------------------------- sections

  private JobSpec job(Node root) {
    MapNode m =
        yaml.map(root, "", "a map of settings (name:, container:, command:, …) at the top level");
    yaml.keys(m, "");
    return new JobSpec(
        jobName(m.entries().get("name")),
        yaml.section(
            m.entries().get("container"), "container", ContainerSpec.EMPTY, this::container),
        yaml.section(
            m.entries().get("workspace"), "workspace", WorkspaceSpec.EMPTY, this::workspace),
        yaml.section(m.entries().get("mpi"), "mpi", MpiSpec.EMPTY, this::mpi),
        command(m.entries().get("command")),
        yaml.section(m.entries().get("ssh"), "ssh", SshSpec.EMPTY, this::ssh),
        source,
        yaml.checked(m.entries().get("launcher"), "launcher", SettingRules::launcher),
        yaml.checked(m.entries().get("time"), "time", TimeLimit::parse));
  }

  private String jobName(Entry e) {
    String s = yaml.string(e, "name");
    if (s != null && !JOB_NAME.matcher(s).matches()) {
      throw yaml.error(
          e.value(),
          "name",
          "'" + YamlWords.clip(s) + "' is not a valid job name (letters, digits and . _ -)");
    }
    if (s != null && s.length() > MAX_JOB_NAME) {
      throw yaml.error(
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

  private ContainerSpec container(Map<String, Entry> k) {
    return new ContainerSpec(
        yaml.checked(k.get("image"), "container.image", SettingRules::image),
        yaml.checked(k.get("name"), "container.name", SettingRules::containerName),
        fields.mounts(k.get("mounts")),
        yaml.checked(k.get("workdir"), "container.workdir", SettingRules::workdir),
        yaml.bool(k.get("writable"), "container.writable"),
        yaml.bool(k.get("mount-home"), "container.mount-home"),
        yaml.bool(k.get("remap-root"), "container.remap-root"),
        fields.envMap(k.get("env"), "container.env"),
        fields.envNames(k.get("env-from-host"), "container.env-from-host"),
        yaml.checked(k.get("save"), "container.save", SettingRules::savePath),
        yaml.bool(k.get("entrypoint"), "container.entrypoint"));
  }

  private WorkspaceSpec workspace(Map<String, Entry> k) {
    return new WorkspaceSpec(
        yaml.checked(k.get("path"), "workspace.path", SettingRules::workspacePath),
        yaml.checked(k.get("mount"), "workspace.mount", SettingRules::workspaceMount),
        yaml.checked(
            k.get("image-cache-limit"),
            "workspace.image-cache-limit",
            SettingRules::imageCacheLimit));
  }

  private MpiSpec mpi(Map<String, Entry> k) {
    return new MpiSpec(
        yaml.integer(k.get("np"), "mpi.np", SettingRules::np),
        yaml.integer(k.get("per-node"), "mpi.per-node", SettingRules::perNode),
        fields.mca(k.get("mca")),
        fields.mpiEnv(k.get("env")),
        yaml.words(k.get("args"), "mpi.args"),
        absolutePath(k.get("hostfile"), "mpi.hostfile"),
        yaml.checked(k.get("network"), "mpi.network", SettingRules::network),
        yaml.duration(k.get("node-timeout"), "mpi.node-timeout"));
  }

  private SshSpec ssh(Map<String, Entry> k) {
    String user = yaml.checked(k.get("user"), "ssh.user", SettingRules::sshUser);
    String identity = yaml.checked(k.get("identity"), "ssh.identity", SettingRules::sshIdentity);
    String kh = yaml.choice(k.get("known-hosts"), "ssh.known-hosts", KNOWN_HOSTS);
    SshSpec.KnownHostsPolicy policy = kh == null ? null : SshSpec.KnownHostsPolicy.fromYaml(kh);
    return new SshSpec(
        user,
        yaml.integer(k.get("port"), "ssh.port", SettingRules::sshPort),
        identity,
        policy,
        yaml.duration(k.get("connect-timeout"), "ssh.connect-timeout"),
        yaml.integer(k.get("fanout"), "ssh.fanout", SettingRules::fanout));
  }

  // ---------------------------------------------------------------- fields

  private List<String> command(Entry e) {
    if (e == null || YamlWords.isNull(e.value())) {
      return null;
    }
    if (e.value() instanceof Scalar s && s.token() != JsonToken.VALUE_NULL) {
      String text = s.text();
      if (text.isEmpty()) {
        throw yaml.error(s, "command", "expected the program to run, found ''");
      }
      String[] parts = text.strip().split("\\s+");
      if (parts.length > 1 || !text.equals(text.strip())) {
        throw yaml.error(
            s,
            "command",
            "expected a list of words, found '"
                + text
                + "'; write it as a list, e.g. command: "
                + YamlWords.flowList(List.of(parts)));
      }
      try {
        commandWord(0, text);
      } catch (IllegalArgumentException ex) {
        throw yaml.error(s, "command", ex.getMessage());
      }
      return List.of(text);
    }
    if (e.value() instanceof Seq items
        && !items.items().isEmpty()
        && items.items().get(0) instanceof Scalar first
        && !first.isNull()
        && first.text().isEmpty()) {
      throw yaml.error(first, "command[0]", "expected the program to run, found ''");
    }
    List<String> words = yaml.words(e, "command");
    if (words.isEmpty()) {
      throw yaml.error(e.value(), "command", "expected at least one word (the program), found []");
    }
    Seq seq = (Seq) e.value();
    for (int i = 0; i < words.size(); i++) {
      try {
        commandWord(i, words.get(i));
      } catch (IllegalArgumentException ex) {
        throw yaml.error(seq.items().get(i), "command[" + i + "]", ex.getMessage());
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
              + YamlWords.clip(word)
              + "' starts with '-', which mpirun would read as one of its own options; give the"
              + " program first (mpirun's own options go in mpi.args)");
    }
    return word;
  }

  private String absolutePath(Entry e, String path) {
    String s = yaml.string(e, path);
    if (s != null && !s.startsWith("/")) {
      throw yaml.error(
          e.value(),
          path,
          "expected an absolute path (starting with '/'), found '" + YamlWords.clip(s) + "'");
    }
    if (s != null) {
      try {
        Carry.path(s, true);
      } catch (IllegalArgumentException ex) {
        throw yaml.error(e.value(), path, ex.getMessage());
      }
    }
    return s;
  }
}
