package dev.clusterrun.cli;

import static dev.clusterrun.cli.HostileStrings.Style;
import static dev.clusterrun.cli.HostileStrings.visible;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.clusterrun.cli.CliTest.Run;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Hostile input, everywhere: for every value a person can give clusterrun (job file values and
 * keys, the flags of {@code plan}/{@code run}, {@code CLUSTERRUN_CONTAINER_*}, {@code
 * PYXIS_CONTAINER_*}, {@code CLUSTERRUN_WORKSPACE}, {@code HOME}, the host variables {@code
 * --container-env} forwards, {@code hpl}'s own flags), a generated hostile value is either refused
 * with exit 2 and a {@code clusterrun: <subject>: <problem>} line naming the flag, the variable or
 * {@code FILE:LINE:COLUMN: field}, or it reaches the container literally.
 *
 * <p>"Literally" is checked on {@code plan --json}, without any node: every shell line clusterrun
 * would send is read back by real shells ({@link RealShell}) and must give exactly the words of its
 * argv; the launch agent is read back as Open MPI hands it to every other node's shell (split on
 * spaces and joined again, followed by {@code -mca orte_launch_agent "AGENT"}, as Open MPI 4.1
 * passes its launch agent on for the tree spawn); each {@code enroot start --env} and {@code
 * --mount} word is checked against how enroot reads it; and the value must sit where it was meant
 * to (the mount, the {@code --wdir}, the command's words, …). A generated {@code $(touch MARKER)}
 * must never make its file.
 *
 * <p>CI runs a fixed seed and a bounded number of tries; {@link Tries} says how to run it longer.
 */
class HostileInputPropertyTest {
  static final Path DIR;
  static final Path HOSTS;
  static final Path JOB;
  static final Path CWD = Path.of("").toAbsolutePath();
  static final RealShell SHELL;
  static final ObjectMapper JSON = new ObjectMapper();

  static {
    try {
      DIR = Files.createTempDirectory("clusterrun-hostile-");
      HOSTS = DIR.resolve("hosts.txt");
      Files.writeString(HOSTS, "node01 slots=2\nnode02 slots=2\n");
      JOB = DIR.resolve("job.yaml");
      SHELL = new RealShell(DIR.resolve("shell"));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static final String IMAGE = "ubuntu:22.04";
  static final String WS = "/home/tester/clusterrun";

  // ---------------------------------------------------------------------------------------------
  // The property

  @Test
  void everyValueIsRefusedByNameOrReachesTheContainerLiterally() {
    Map<String, Integer> seen =
        Tries.check(
            "hostile input", 300, cases(), HostileInputPropertyTest::refusedByNameOrLiteral);
    // Both ways are taken, for most fields: the generator is not merely refused every time (not
    // asked of a replay of a few tries).
    if (Tries.count(300) < 100) {
      return;
    }
    assertThat(seen.keySet().stream().filter(k -> k.endsWith(" accepted")).count())
        .as("fields accepted at least once: %s", seen)
        .isGreaterThanOrEqualTo(15);
    assertThat(seen.keySet().stream().filter(k -> k.endsWith(" refused")).count())
        .as("fields refused at least once: %s", seen)
        .isGreaterThanOrEqualTo(15);
  }

  static void refusedByNameOrLiteral(Case c, Map<String, Integer> seen) {
    Run r = c.run();
    seen.merge(c.field + (r.code() == 0 ? " accepted" : " refused"), 1, Integer::sum);
    if (r.code() == 2) {
      checkRefusal(c, r);
    } else if (c.cmd.equals("hpl")) {
      assertThat(r.code()).as("exit code for %s%n%s", c, r.err()).isZero();
      checkDryRun(r.out(), c);
    } else {
      assertThat(r.code()).as("exit code for %s%n%s", c, r.err()).isZero();
      View v = View.of(r.out(), c);
      checkShellLines(v, c);
      checkEnroot(v, c);
      c.literal.accept(v, c);
    }
    assertThat(SHELL.executedSomething()).as("a generated value ran as a command: %s", c).isFalse();
    if (c.mustAccept) {
      assertThat(r.code()).as("a harmless value was refused: %s%n%s", c, r.err()).isZero();
    }
  }

  /** Exit 2, stdout empty, one line naming where the value came from, and nothing of Java. */
  static void checkRefusal(Case c, Run r) {
    assertThat(r.out()).as("stdout of a refusal: %s", c).isEmpty();
    String first = r.err().lines().findFirst().orElse("");
    assertThat(first).as("refusal of %s", c).startsWith("clusterrun: ");
    assertThat(c.subject.matcher(first).find())
        .as("the refusal names %s: %s%n  for %s", c.subject, first, c)
        .isTrue();
    assertThat(r.err())
        .as("refusal of %s", c)
        .doesNotContain("\tat ")
        .doesNotContain("Exception")
        .doesNotContain("java.")
        .doesNotContain("dev.clusterrun.");
    // One line for people (picocli adds a hint line to its own errors): a value echoed in the
    // message must not break it into lines or move the terminal.
    for (String line : r.err().split("\n", -1)) {
      assertThat(line)
          .as("refusal of %s", c)
          .doesNotContain("\r")
          .doesNotContain("\u001B")
          .doesNotContain("\u202E");
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Checks of an accepted plan

  /** A plan --json, with the words every shell line holds. */
  record View(
      JsonNode json,
      List<String> launch,
      String launchCommand,
      List<String> agent,
      String agentCommand,
      List<List<String>> steps,
      List<String> stepCommands) {
    static View of(String out, Case c) {
      try {
        JsonNode n = JSON.readTree(out);
        List<List<String>> steps = new ArrayList<>();
        List<String> commands = new ArrayList<>();
        for (String part : List.of("prepare", "cleanup")) {
          for (JsonNode s : n.path(part)) {
            if (!s.path("command").isNull()) {
              steps.add(words(s.path("argv")));
              commands.add(s.path("command").asText());
            }
          }
        }
        return new View(
            n,
            words(n.path("launch").path("argv")),
            n.path("launch").path("command").asText(),
            words(n.path("launchAgent").path("argv")),
            n.path("launchAgent").path("command").asText(),
            steps,
            commands);
      } catch (IOException e) {
        throw new AssertionError("plan --json printed no JSON for " + c + ":\n" + out, e);
      }
    }

    List<String> mpirun() {
      int i = launch.indexOf("mpirun");
      assertThat(i).as("mpirun in %s", launch).isPositive();
      return launch.subList(i, launch.size());
    }

    /** The words following each occurrence of {@code flag} in {@code argv}. */
    static List<String> after(List<String> argv, String flag) {
      List<String> out = new ArrayList<>();
      for (int i = 0; i + 1 < argv.size(); i++) {
        if (argv.get(i).equals(flag)) {
          out.add(argv.get(i + 1));
        }
      }
      return out;
    }
  }

  static List<String> words(JsonNode array) {
    List<String> out = new ArrayList<>();
    array.forEach(w -> out.add(w.asText()));
    return out;
  }

  /**
   * Every shell line of the plan gives back exactly its argv in sh and in bash; the launch agent
   * also as Open MPI passes it to every other node's shell.
   */
  static void checkShellLines(View v, Case c) {
    List<String> lines = new ArrayList<>();
    List<List<String>> expected = new ArrayList<>();
    lines.add(v.launchCommand());
    expected.add(v.launch());
    lines.addAll(v.stepCommands());
    expected.addAll(v.steps());
    lines.add(v.agentCommand());
    expected.add(v.agent());
    // Open MPI (plm_rsh, orte_plm_base_setup_orted_cmd) splits the agent on spaces and joins the
    // words with one space, appends the daemon's arguments, and among them its own MCA settings
    // from mpirun's environment, each value in double quotes: the agent itself among them
    // (OMPI_MCA_orte_launch_agent), so that a daemon can start the next ones (tree spawn).
    String split = String.join(" ", splitOnSpaces(v.agentCommand()));
    lines.add(split + " -mca orte_launch_agent \"" + v.agentCommand() + "\"");
    List<String> remote = new ArrayList<>(v.agent());
    remote.addAll(List.of("-mca", "orte_launch_agent", v.agentCommand()));
    expected.add(remote);
    for (String sh : RealShell.SHELLS) {
      List<List<String>> got = SHELL.words(sh, lines);
      for (int i = 0; i < expected.size(); i++) {
        List<String> g = i < got.size() ? got.get(i) : List.of();
        assertThat(visible(g))
            .as("%s reads line %d differently: %s%n  for %s", sh, i, visible(lines.get(i)), c)
            .isEqualTo(visible(expected.get(i)));
        assertThat(g).as("%s line %d for %s", sh, i, c).isEqualTo(expected.get(i));
      }
    }
    // The agent reaches every node in one argv entry of the remote shell, twice: Linux takes at
    // most 128 KiB for one entry (MAX_ARG_STRLEN), with room for Open MPI's own words.
    int agentBytes = v.agentCommand().getBytes(StandardCharsets.UTF_8).length;
    assertThat(2 * agentBytes + 8192)
        .as("launch agent of %d bytes for %s", agentBytes, c)
        .isLessThanOrEqualTo(128 * 1024);
    // The head's own command: each word an argv entry of at most 128 KiB, all of them within the
    // 2 MiB Linux gives a program's arguments and environment by default.
    long total = 0;
    for (String w : v.launch()) {
      int b = w.getBytes(StandardCharsets.UTF_8).length;
      assertThat(b).as("a word of %d bytes in the launch of %s", b, c).isLessThan(128 * 1024);
      total += b + 1;
    }
    assertThat(total).as("launch of %s", c).isLessThan(2L * 1024 * 1024 - 256 * 1024);
  }

  /**
   * A dry run's text plan ({@code hpl}, {@code bench}): the head's command holds the flag's value
   * as a word of its own, and the agent survives Open MPI's handling.
   */
  static void checkDryRun(String out, Case c) {
    // A shell line may span lines of text (a quoted newline): take each block whole.
    String launch = block(out, "# environment of enroot start:", "\n\n## launch agent");
    String agent = block(out, "## launch agent:", "\n\n## ");
    assertThat(launch).as("launch line of %s in%n%s", c, out).isNotNull();
    assertThat(agent).as("agent line of %s in%n%s", c, out).isNotNull();
    String split = String.join(" ", splitOnSpaces(agent));
    for (String sh : RealShell.SHELLS) {
      List<List<String>> got =
          SHELL.words(
              sh, List.of(launch, agent, split + " -mca orte_launch_agent \"" + agent + "\""));
      assertThat(got).as("%s on the lines of %s", sh, c).hasSize(3);
      List<String> remote = new ArrayList<>(got.get(1));
      remote.addAll(List.of("-mca", "orte_launch_agent", agent));
      assertThat(got.get(2))
          .as("%s reads the agent of %s as a node would", sh, c)
          .isEqualTo(remote);
      List<String> words = got.get(0);
      String flag = c.field.substring("hpl ".length());
      if (flag.endsWith("-affinity")) {
        assertThat(View.after(words, flag)).as("%s in %s", c, visible(words)).contains(c.value);
      } else if (flag.equals("--hpl-arg") || flag.equals("--mpi-arg")) {
        assertThat(words).as("%s in %s", c, visible(words)).contains(c.value);
      }
    }
  }

  /** The text after the line starting with {@code header}, up to {@code end}. */
  static String block(String out, String header, String end) {
    int h = out.indexOf(header);
    if (h < 0) {
      return null;
    }
    int start = out.indexOf('\n', h) + 1;
    int stop = out.indexOf(end, start);
    return stop < 0 ? null : out.substring(start, stop);
  }

  /** How Open MPI splits its launch agent: on single spaces, empty words dropped. */
  static List<String> splitOnSpaces(String agent) {
    List<String> out = new ArrayList<>();
    for (String w : agent.split(" ")) {
      if (!w.isEmpty()) {
        out.add(w);
      }
    }
    return out;
  }

  /** Characters the shell still reads inside double quotes. */
  static boolean doubleQuoteSafe(String s) {
    return s.indexOf('$') < 0 && s.indexOf('`') < 0 && s.indexOf('"') < 0 && s.indexOf('\\') < 0;
  }

  static boolean mpiVariable(String name) {
    return name.startsWith("OMPI_MCA_")
        || name.startsWith("PRTE_MCA_")
        || name.startsWith("PMIX_MCA_")
        || name.equals("OPAL_PREFIX");
  }

  /**
   * What enroot does with {@code --env} and {@code --mount}, and Open MPI with its own variables,
   * checked for every such word of the head's command and of the agent.
   */
  static void checkEnroot(View v, Case c) {
    for (List<String> argv : List.of(v.launch(), v.agent())) {
      int mp = argv.indexOf("mpirun");
      List<String> enrootPart = mp < 0 ? argv : argv.subList(0, mp);
      for (String e : View.after(enrootPart, "--env")) {
        int eq = e.indexOf('=');
        String name = eq < 0 ? e : e.substring(0, eq);
        String value = eq < 0 ? c.env.get(name) : e.substring(eq + 1);
        assertThat(name).as("--env %s for %s", visible(e), c).matches("[A-Za-z_][A-Za-z0-9_]*");
        // enroot's envfmt drops ENROOT_* variables from the container's environment
        assertThat(name).as("--env %s for %s", visible(e), c).doesNotStartWith("ENROOT_");
        if (value == null || value.equals("***")) {
          continue;
        }
        assertEnrootValue(name, value, "--env " + visible(e), c);
      }
      for (String m : View.after(enrootPart, "--mount")) {
        // enroot's runtime.sh: ^[^[:space:]]+(:[^[:space:]]+)*$, then colon-separated fstab
        // fields SRC:DST[:TYPE:OPTIONS]
        String[] f = m.split(":", -1);
        assertThat(f.length).as("fields of --mount %s for %s", visible(m), c).isIn(2, 4);
        for (String field : f) {
          assertThat(field).as("--mount %s for %s", visible(m), c).isNotEmpty();
          assertThat(field.chars().noneMatch(ch -> Character.isWhitespace(ch) || ch < 0x20))
              .as("--mount %s for %s", visible(m), c)
              .isTrue();
        }
        assertThat(f[1]).as("mount target of %s for %s", visible(m), c).startsWith("/");
      }
    }
  }

  /**
   * A value as enroot writes it into the container's environment file, one {@code NAME=VALUE} a
   * line, and reads it back: a newline starts another variable, a value quoted as a whole loses its
   * quotes (envfmt); Open MPI passes its own variables to other nodes' shells in double quotes.
   */
  static void assertEnrootValue(String name, String value, String what, Case c) {
    assertThat(value).as("%s for %s: a newline splits the variable", what, c).doesNotContain("\n");
    boolean wrapped =
        value.length() >= 2
            && "'\"".indexOf(value.charAt(0)) >= 0
            && "'\"".indexOf(value.stripTrailing().charAt(value.stripTrailing().length() - 1)) >= 0
            && value.stripTrailing().length() >= 2;
    assertThat(wrapped).as("%s for %s: enroot strips the quotes around it", what, c).isFalse();
    if (mpiVariable(name)) {
      assertThat(doubleQuoteSafe(value))
          .as("%s for %s: Open MPI hands it to a shell in double quotes", what, c)
          .isTrue();
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Cases

  /**
   * One try: the command line, the environment and the job file; where a refusal must point; what
   * an accepted plan must show.
   */
  static final class Case {
    final String field;
    final String layer;
    final String value;
    final List<String> args = new ArrayList<>();
    final Map<String, String> env = new LinkedHashMap<>();
    String yaml;
    Style style;
    Pattern subject;
    boolean mustAccept;
    boolean imageFlag = true;
    List<String> command = List.of("hostname");
    boolean commandFromFile;
    String cmd = "plan";
    BiConsumer<View, Case> literal = (v, c) -> {};

    Case(String field, String layer, String value) {
      this.field = field;
      this.layer = layer;
      this.value = value;
      env.put("HOME", "/home/tester");
    }

    Run run() {
      List<String> a = new ArrayList<>();
      a.add(cmd);
      if (cmd.equals("plan")) {
        a.add("--json");
      } else {
        a.add("--dry-run");
      }
      a.addAll(List.of("--nodes", HOSTS.toString()));
      if (yaml != null) {
        try {
          Files.writeString(JOB, yaml);
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
        a.add(JOB.toString());
      }
      if (imageFlag && cmd.equals("plan")) {
        a.add("--container-image=" + IMAGE);
      }
      a.addAll(args);
      if (!commandFromFile && cmd.equals("plan")) {
        a.add("--");
        a.addAll(command);
      }
      return CliTest.run(env, a.toArray(String[]::new));
    }

    Case flag(String flag, boolean separate) {
      if (separate) {
        args.add(flag);
        args.add(value);
      } else {
        args.add(flag + "=" + value);
      }
      subject = Pattern.compile(Pattern.quote(flag));
      return this;
    }

    Case variable(String name) {
      env.put(name, value);
      subject = Pattern.compile(Pattern.quote(name));
      return this;
    }

    /**
     * The job file: {@code lines} with {@code @V@} standing for the value written in {@code style};
     * a refusal names the value's line and {@code fieldPath}.
     */
    Case file(Style wanted, String fieldPath, String... lines) {
      // Nobody can write an unpaired surrogate or a NUL into a UTF-8 file but as an escape.
      Style style = fileOnly(value) ? Style.DOUBLE_QUOTED : wanted;
      this.style = style;
      StringBuilder b = new StringBuilder();
      int line = 0;
      for (int i = 0; i < lines.length; i++) {
        if (lines[i].contains("@V@")) {
          line = i + 1;
        }
        b.append(lines[i].replace("@V@", HostileStrings.yaml(value, style))).append('\n');
      }
      yaml = b.toString();
      return fileSubject(style, line, Pattern.quote(fieldPath));
    }

    /**
     * Where a refusal of a job file value must point: its line and its field (field checks), the
     * file and the field (checks across fields, made once every layer is merged), or, when the
     * value broke the YAML itself (raw control characters, YAML's own line breaks), the file, a
     * line and a column.
     */
    Case fileSubject(Style style, int line, String fieldRegex) {
      String any = "^clusterrun: \\S*job\\.yaml(:\\d+:\\d+|: " + fieldRegex + ")";
      subject =
          style == Style.PLAIN || !yamlPrintable(value)
              ? Pattern.compile(any)
              : Pattern.compile(
                  "^clusterrun: \\S*job\\.yaml(:"
                      + line
                      + ":\\d+: ("
                      + fieldRegex
                      + "|invalid YAML)|: "
                      + fieldRegex
                      + ")");
      return this;
    }

    Case accepts(boolean harmless) {
      mustAccept = harmless;
      return this;
    }

    Case then(BiConsumer<View, Case> check) {
      literal = check;
      return this;
    }

    /**
     * The value as given: always on the command line and in the environment, in the job file when
     * double-quoted, or single-quoted without what YAML folds or refuses.
     */
    boolean exact() {
      return style == null
          || style == Style.DOUBLE_QUOTED
          || style == Style.SINGLE_QUOTED && yamlPrintable(value);
    }

    @Override
    public String toString() {
      StringBuilder b = new StringBuilder(field + " via " + layer + ": '" + visible(value) + "'");
      if (!args.isEmpty()) {
        b.append(" args=").append(visible(args));
      }
      if (yaml != null) {
        b.append(" yaml=").append(visible(yaml));
      }
      return b.toString();
    }
  }

  /** A hostile piece of text and the layer (flag, variable, file) it is given through. */
  record Piece(String text, String layer) {}

  static final String HARMLESS = "abcxyz0123456789";

  static boolean harmless(String h) {
    return h.isEmpty() || h.length() <= 64 && HostileStrings.only(h, HARMLESS);
  }

  /** What only a job file can spell, as an escape in a double-quoted scalar. */
  static boolean fileOnly(String v) {
    return v.indexOf('\0') >= 0 || hasLoneSurrogate(v);
  }

  /** Text YAML keeps as it is between single quotes: printable, no line break of its own. */
  static boolean yamlPrintable(String v) {
    for (int i = 0; i < v.length(); i++) {
      char c = v.charAt(i);
      boolean ok =
          (c >= 0x20 && c < 0x7F)
              || (c >= 0xA0 && c <= 0xD7FF && c != 0x2028 && c != 0x2029)
              || (c >= 0xE000 && c <= 0xFFFD && c != 0xFEFF)
              || Character.isSurrogate(c) && !hasLoneSurrogate(v);
      if (!ok) {
        return false;
      }
    }
    return true;
  }

  /** A hostile piece and a layer to give it through. */
  static Gen<Piece> hostile(List<String> layers, boolean fileOnly) {
    return Gen.zip(HostileStrings.text(5), Gen.of(layers), Piece::new)
        .flatMap(
            t ->
                t.layer().startsWith("file") && fileOnly
                    ? HostileStrings.fileText(5).map(f -> new Piece(f, t.layer()))
                    : Gen.just(t));
  }

  static final List<String> ALL_LAYERS =
      List.of(
          "flag", "flag/separate", "env", "pyxis-env", "file/double", "file/single", "file/plain");

  static Style style(String layer) {
    return switch (layer) {
      case "file/single" -> Style.SINGLE_QUOTED;
      case "file/plain" -> Style.PLAIN;
      default -> Style.DOUBLE_QUOTED;
    };
  }

  /** A value given by its flag, its variables or the job file's {@code container.KEY}. */
  static Case container(
      String key, String flag, String variable, String value, String layer, String fieldPath) {
    Case c = new Case("container." + key, layer, value);
    switch (layer) {
      case "flag" -> c.flag(flag, false);
      case "flag/separate" -> c.flag(flag, true);
      case "env" -> c.variable(variable);
      case "pyxis-env" -> c.variable(variable.replace("CLUSTERRUN_", "PYXIS_"));
      default ->
          c.file(
              style(layer),
              fieldPath,
              "command: [hostname]",
              "container:",
              key.equals("image") ? "  name: hostile" : "  image: " + IMAGE,
              "  " + key + (key.equals("mounts") ? ": [@V@]" : ": @V@"));
    }
    return c;
  }

  static String abs(String p) {
    return p.startsWith("/") ? p : CWD.resolve(p).normalize().toString();
  }

  static String stripSlashes(String p) {
    String s = p;
    while (s.length() > 1 && s.endsWith("/")) {
      s = s.substring(0, s.length() - 1);
    }
    return s;
  }

  Gen<Case> cases() {
    return Gen.oneOf(
        image(),
        containerName(),
        mounts(),
        mountMaps(),
        workdir(),
        containerEnv(),
        envFromHostNames(),
        envFromHostValues(),
        save(),
        booleans(),
        workspace(),
        workspaceMount(),
        ranks(),
        mca(),
        mpiEnv(),
        mpiArgs(),
        mpiHostfile(),
        command(),
        jobName(),
        ssh(),
        keys(),
        otherFlags(),
        hplFlags());
  }

  Gen<Case> image() {
    return Gen.zip(
        hostile(ALL_LAYERS, true),
        Gen.of("ubuntu", "nvcr.io#nvidia/", "/img/", "./", "docker://", ""),
        Gen.of("", ".sqsh", ":1"),
        (h, pre, post) -> {
          String v = pre + h.text() + post;
          Case c =
              container(
                      "image",
                      "--container-image",
                      "CLUSTERRUN_CONTAINER_IMAGE",
                      v,
                      h.layer(),
                      "container.image")
                  .accepts(
                      harmless(h.text())
                          && !h.text().isEmpty()
                          && !pre.isEmpty()
                          && !pre.equals("./"));
          c.imageFlag = false;
          return c.then(
              (view, cc) -> {
                if (!cc.exact()) {
                  return;
                }
                boolean path =
                    v.startsWith("/")
                        || v.startsWith("./")
                        || v.startsWith("../")
                        || v.equals(".")
                        || v.equals("..")
                        || v.endsWith(".sqsh");
                String img = view.json().path("image").asText();
                String want =
                    path ? abs(v) : v.contains("://") ? v : "docker://" + registryHostRead(v);
                assertThat(img).as("image of %s", cc).isEqualTo(want);
                List<String> first = view.steps().isEmpty() ? List.of() : view.steps().get(0);
                if (path && first.isEmpty()) {
                  // An unnamed job starts its image file directly: enroot start IMAGE.sqsh.
                  assertThat(view.launch()).as("the head's enroot start of %s", cc).contains(want);
                } else {
                  // enroot import … URI, or enroot create --name NAME IMAGE.sqsh.
                  assertThat(first).as("the first step of %s", cc).endsWith(want);
                }
              });
        });
  }

  /**
   * A scheme-less {@code [USER@]HOST/PATH} whose first part names a registry host (a {@code .}, a
   * {@code :} or {@code localhost}), without {@code #}, is read as {@code [USER@]HOST#PATH}.
   */
  static String registryHostRead(String v) {
    Matcher m = Pattern.compile("([^@#/]+@)?([^/#@]+)/([^#]*)").matcher(v);
    if (!m.matches() || v.contains("#")) {
      return v;
    }
    String host = m.group(2);
    boolean registry = host.contains(".") || host.contains(":") || host.equals("localhost");
    return registry ? (m.group(1) == null ? "" : m.group(1)) + host + "#" + m.group(3) : v;
  }

  Gen<Case> containerName() {
    return Gen.zip(
        hostile(ALL_LAYERS, true),
        Gen.of("job", "", "+"),
        (h, pre) ->
            container(
                    "name",
                    "--container-name",
                    "CLUSTERRUN_CONTAINER_NAME",
                    pre + h.text(),
                    h.layer(),
                    "container.name")
                .accepts(harmless(h.text()) && !(pre + h.text()).isEmpty())
                .then(
                    (v, c) -> {
                      if (!c.exact()) {
                        return;
                      }
                      List<String> l = v.launch();
                      assertThat(l.get(l.indexOf("mpirun") - 1))
                          .as("container of %s", c)
                          .isEqualTo(c.value);
                      List<String> a = v.agent();
                      // … WS/.clusterrun/containers/NAME.sqsh /bin/sh RUN_DIR/agent-proof.sh
                      // orted: every other node starts the container's snapshot (docs/scale.md),
                      // and the proof execs the daemon.
                      assertThat(a.get(a.size() - 4))
                          .as("agent of %s", c)
                          .endsWith("/.clusterrun/containers/" + c.value + ".sqsh");
                    }));
  }

  /** The launch's and the agent's {@code --mount} words hold {@code SRC:DST}, as meant. */
  static void mounted(View v, Case c, List<String[]> mounts) {
    for (String[] m : mounts) {
      String src = m[0].equals("tmpfs") || m[0].equals("umount") ? m[0] : abs(m[0]);
      String prefix = src + ":" + stripSlashes(m[1]);
      for (List<String> argv : List.of(v.launch(), v.agent())) {
        assertThat(
                View.after(argv, "--mount").stream()
                    .anyMatch(w -> w.equals(prefix) || w.startsWith(prefix + ":")))
            .as("--mount %s in %s for %s", visible(prefix), visible(argv), c)
            .isTrue();
      }
    }
  }

  Gen<Case> mounts() {
    return Gen.zip(
        hostile(ALL_LAYERS, true),
        Gen.of("/src@:/dst", "/src:/dst@", "/src:/dst:@", "@:/x", "tmpfs:/t@", "./d@:/d", "/a@"),
        (h, shape) -> {
          String v = shape.replace("@", h.text());
          boolean okShape = !shape.startsWith("@") && !shape.endsWith(":@");
          return container(
                  "mounts",
                  "--container-mounts",
                  "CLUSTERRUN_CONTAINER_MOUNTS",
                  v,
                  h.layer(),
                  "container.mounts[0]")
              .accepts(harmless(h.text()) && okShape)
              .then(
                  (view, c) -> {
                    if (!c.exact()) {
                      return;
                    }
                    List<String[]> ms = new ArrayList<>();
                    // On the command line and in the environment, ',' separates mounts.
                    List<String> parts =
                        c.layer.startsWith("file") ? List.of(v) : List.of(v.split(",", -1));
                    for (String p : parts) {
                      String[] f = p.split(":", -1);
                      ms.add(new String[] {f[0], f.length > 1 ? f[1] : f[0]});
                    }
                    mounted(view, c, ms);
                  });
        });
  }

  Gen<Case> mountMaps() {
    return Gen.zip(
        HostileStrings.fileText(4),
        Gen.of("source", "target", "flags"),
        Gen.of(Style.DOUBLE_QUOTED, Style.SINGLE_QUOTED),
        (h, which, style) -> {
          String src = which.equals("source") ? "/s" + h : "/s";
          String dst = which.equals("target") ? "/t" + h : "/t";
          String flags = which.equals("flags") ? h : "ro";
          String given = which.equals("source") ? src : which.equals("target") ? dst : h;
          Case c = new Case("container.mounts (map)", "file/" + style, given);
          c.file(
              style,
              "container.mounts[0]",
              "command: [hostname]",
              "container:",
              "  image: " + IMAGE,
              "  mounts:",
              "    - {source: "
                  + (which.equals("source") ? "@V@" : src)
                  + ", target: "
                  + (which.equals("target") ? "@V@" : dst)
                  + ", flags: "
                  + (which.equals("flags") ? "@V@" : flags)
                  + "}");
          // The value of a key in the map: the message names the key.
          c.fileSubject(
              style, 5, "container\\.mounts\\[0\\]" + (which.equals("flags") ? "" : "\\." + which));
          return c.accepts(harmless(h) && !which.equals("flags"))
              .then(
                  (v, cc) ->
                      mounted(
                          v,
                          cc,
                          List.<String[]>of(
                              new String[] {
                                which.equals("source") ? "/s" + h : src,
                                which.equals("target") ? "/t" + h : dst
                              })));
        });
  }

  Gen<Case> workdir() {
    return Gen.zip(
        hostile(ALL_LAYERS, true),
        Gen.of("/w/", "/", ""),
        (h, pre) ->
            container(
                    "workdir",
                    "--container-workdir",
                    "CLUSTERRUN_CONTAINER_WORKDIR",
                    pre + h.text(),
                    h.layer(),
                    "container.workdir")
                .accepts(harmless(h.text()) && !pre.isEmpty())
                .then(
                    (v, c) -> {
                      if (c.exact()) {
                        assertThat(View.after(v.mpirun(), "--wdir"))
                            .as("--wdir of %s", c)
                            .containsExactly(c.value);
                      }
                    }));
  }

  Gen<Case> containerEnv() {
    return Gen.zip(
        HostileStrings.fileText(4),
        Gen.of("key", "value"),
        Gen.of(Style.DOUBLE_QUOTED, Style.SINGLE_QUOTED, Style.PLAIN),
        Gen.of("FOO", "OMPI_MCA_btl", "PRTE_MCA_x", "ENROOT_X", "CLUSTERRUN_RUN_ID"),
        (h, which, style, name) -> {
          String key = which.equals("key") ? "V" + h : name;
          String val = which.equals("value") ? h : "1";
          Case c = new Case("container.env " + which, "file/" + style, h);
          c.file(
              style,
              "container.env",
              "command: [hostname]",
              "container:",
              "  image: " + IMAGE,
              "  env:",
              which.equals("key")
                  ? "    " + HostileStrings.yaml(key, style).replace("@V@", "") + ": \"1\""
                  : "    " + name + ": @V@");
          if (which.equals("key")) {
            // the key line; its text is the key itself
            c.fileSubject(style, 5, "container\\.env");
          }
          return c.accepts(
                  harmless(h)
                      && !h.isEmpty()
                      && style != Style.PLAIN
                      && (which.equals("key") || name.equals("FOO")))
              .then(
                  (v, cc) -> {
                    if (!cc.exact()) {
                      return;
                    }
                    for (List<String> argv : List.of(v.launch(), v.agent())) {
                      assertThat(View.after(argv, "--env"))
                          .as("--env of %s", cc)
                          .contains(key + "=" + val);
                    }
                  });
        });
  }

  Gen<Case> envFromHostNames() {
    return hostile(ALL_LAYERS, true)
        .map(
            h -> {
              String v = "X" + h.text();
              Case c =
                  h.layer().startsWith("file")
                      ? new Case("container.env-from-host", h.layer(), v)
                          .file(
                              style(h.layer()),
                              "container.env-from-host[0]",
                              "command: [hostname]",
                              "container:",
                              "  image: " + IMAGE,
                              "  env-from-host: [@V@]")
                      : container(
                          "env-from-host",
                          "--container-env",
                          "CLUSTERRUN_CONTAINER_ENV",
                          v,
                          h.layer(),
                          "");
              c.env.put(v, "value");
              return c.accepts(harmless(h.text()))
                  .then(
                      (view, cc) -> {
                        if (!cc.exact()) {
                          return;
                        }
                        List<String> names =
                            cc.layer.startsWith("file") ? List.of(v) : List.of(v.split(",", -1));
                        for (String n : names) {
                          assertThat(View.after(view.launch(), "--env")).contains(n);
                          assertThat(View.after(view.mpirun(), "-x")).contains(n);
                        }
                      });
            });
  }

  Gen<Case> envFromHostValues() {
    return Gen.zip(
        HostileStrings.text(5),
        Gen.of("HOSTILE_VALUE", "OMPI_MCA_btl_tcp_if_include", "PRTE_MCA_x", "NCCL_X"),
        Gen.of("flag", "env", "file/double"),
        (h, name, layer) -> {
          Case c = new Case("host value of --container-env", layer, h);
          switch (layer) {
            case "flag" -> c.args.add("--container-env=" + name);
            case "env" -> c.env.put("CLUSTERRUN_CONTAINER_ENV", name);
            default ->
                c.yaml =
                    "command: [hostname]\ncontainer:\n  image: "
                        + IMAGE
                        + "\n  env-from-host: ["
                        + name
                        + "]\n";
          }
          c.env.put(name, h);
          c.subject =
              Pattern.compile(
                  switch (layer) {
                    case "flag" -> "--container-env";
                    case "env" -> "CLUSTERRUN_CONTAINER_ENV";
                    // the file names the variable; the host gives the value
                    default -> "job\\.yaml(:4:\\d+)?: container\\.env-from-host";
                  });
          return c.accepts(harmless(h))
              .then(
                  (v, cc) -> {
                    assertThat(View.after(v.launch(), "--env")).contains(name);
                    assertThat(View.after(v.mpirun(), "-x")).contains(name);
                    assertEnrootValue(name, h, "host value of " + name, cc);
                  });
        });
  }

  Gen<Case> save() {
    return Gen.zip(
        hostile(ALL_LAYERS, true),
        Gen.of("/out/@.sqsh", "@", "./@", "@/", "/@"),
        (h, shape) -> {
          String v = shape.replace("@", h.text());
          return container(
                  "save",
                  "--container-save",
                  "CLUSTERRUN_CONTAINER_SAVE",
                  v,
                  h.layer(),
                  "container.save")
              .accepts(harmless(h.text()) && !h.text().isEmpty() && !shape.equals("@/"))
              .then(
                  (view, c) -> {
                    if (!c.exact()) {
                      return;
                    }
                    String name = view.json().path("container").path("name").asText();
                    assertThat(view.steps())
                        .as("save step of %s", c)
                        .contains(List.of("enroot", "export", "--output", abs(v), name));
                  });
        });
  }

  Gen<Case> booleans() {
    return Gen.zip(
        Gen.oneOf(
            HostileStrings.text(3),
            Gen.of("1", "yes", "TRUE", "off", "N", "y", "true", "false", "on")),
        Gen.of(
            "CLUSTERRUN_CONTAINER_WRITABLE",
            "CLUSTERRUN_CONTAINER_READONLY",
            "CLUSTERRUN_CONTAINER_MOUNT_HOME",
            "CLUSTERRUN_CONTAINER_REMAP_ROOT",
            "CLUSTERRUN_CONTAINER_ENTRYPOINT",
            "PYXIS_CONTAINER_WRITABLE",
            "file:writable",
            "file:mount-home",
            "file:remap-root",
            "file:entrypoint"),
        (h, where) -> {
          if (where.startsWith("file:")) {
            String key = where.substring(5);
            Case c = new Case("container." + key, "file/plain", h);
            c.file(
                Style.DOUBLE_QUOTED,
                "container." + key,
                "command: [hostname]",
                "container:",
                "  image: " + IMAGE,
                "  " + key + ": @V@");
            // Quoted, no text is a boolean.
            return c;
          }
          Case c = new Case(where, "env", h).variable(where);
          boolean word =
              List.of("1", "0", "true", "false", "yes", "no", "y", "n", "on", "off")
                  .contains(h.toLowerCase(java.util.Locale.ROOT));
          if (where.startsWith("PYXIS")) {
            word &= !h.equalsIgnoreCase("on") && !h.equalsIgnoreCase("off");
          }
          return c.accepts(word);
        });
  }

  Gen<Case> workspace() {
    return Gen.zip(
        hostile(List.of("flag", "flag/separate", "env", "home", "file/double", "file/plain"), true),
        Gen.of("/ws/", "/", ""),
        (h, pre) -> {
          String v = pre + h.text();
          Case c = new Case("workspace.path", h.layer(), v);
          switch (h.layer()) {
            case "flag" -> c.flag("--workspace", false);
            case "flag/separate" -> c.flag("--workspace", true);
            case "env" -> c.variable("CLUSTERRUN_WORKSPACE");
            case "home" -> c.variable("HOME");
            default ->
                c.file(
                    style(h.layer()),
                    "workspace.path",
                    "command: [hostname]",
                    "workspace:",
                    "  path: @V@");
          }
          String ws = h.layer().equals("home") ? v + "/clusterrun" : v;
          return c.accepts(harmless(h.text()) && !pre.isEmpty())
              .then(
                  (view, cc) -> {
                    if (cc.exact()) {
                      assertThat(View.after(view.launch(), "--mount").get(0))
                          .as("workspace mount of %s", cc)
                          .isEqualTo(stripSlash(ws) + ":/workspace");
                    }
                  });
        });
  }

  static String stripSlash(String p) {
    return p.length() > 1 && p.endsWith("/") ? p.substring(0, p.length() - 1) : p;
  }

  Gen<Case> workspaceMount() {
    return Gen.zip(
        hostile(List.of("flag", "flag/separate", "file/double", "file/single"), true),
        Gen.of("/m/", "/", ""),
        (h, pre) -> {
          String v = pre + h.text();
          Case c = new Case("workspace.mount", h.layer(), v);
          switch (h.layer()) {
            case "flag" -> c.flag("--workspace-mount", false);
            case "flag/separate" -> c.flag("--workspace-mount", true);
            default ->
                c.file(
                    style(h.layer()),
                    "workspace.mount",
                    "command: [hostname]",
                    "workspace:",
                    "  mount: @V@");
          }
          return c.accepts(harmless(h.text()) && !pre.isEmpty() && !h.text().isEmpty())
              .then(
                  (view, cc) -> {
                    if (!cc.exact()) {
                      return;
                    }
                    String m = View.after(view.launch(), "--mount").get(0);
                    assertThat(stripSlashes(m.substring(WS.length() + 1).replaceAll("/+", "/")))
                        .as("workspace mount of %s", cc)
                        .isEqualTo(stripSlashes(v.replaceAll("/+", "/")));
                  });
        });
  }

  Gen<Case> ranks() {
    return Gen.zip(
        Gen.oneOf(HostileStrings.text(3), Gen.of("1", "4", "0", "-1", "+2", "99999999999")),
        Gen.of("flag", "flag/separate", "file:np", "file:per-node"),
        (h, where) -> {
          Case c;
          if (where.startsWith("file:")) {
            String key = where.substring(5);
            c =
                new Case("mpi." + key, "file/plain", h)
                    .file(
                        Style.PLAIN,
                        "mpi." + key,
                        "command: [hostname]",
                        "mpi:",
                        "  " + key + ": @V@");
          } else {
            c = new Case("mpi.np", where, h).flag("--np", where.endsWith("separate"));
          }
          return c.accepts(h.equals("1") || h.equals("4") && !where.endsWith("per-node"))
              .then(
                  (v, cc) -> {
                    if (where.endsWith("np") && h.matches("[+]?[0-9]+")) {
                      assertThat(View.after(v.mpirun(), "-np"))
                          .containsExactly(Long.toString(Long.parseLong(h.replace("+", ""))));
                    }
                  });
        });
  }

  Gen<Case> mca() {
    return Gen.zip(
        HostileStrings.fileText(4),
        Gen.of("key", "value"),
        Gen.of(Style.DOUBLE_QUOTED, Style.SINGLE_QUOTED),
        (h, which, style) -> {
          String key = which.equals("key") ? "btl" + h : "btl";
          String val = which.equals("value") ? h : "self";
          Case c = new Case("mpi.mca " + which, "file/" + style, h);
          c.file(
              style,
              "mpi.mca",
              "command: [hostname]",
              "mpi:",
              "  mca:",
              which.equals("key")
                  ? "    " + HostileStrings.yaml(key, style) + ": self"
                  : "    btl: @V@");
          c.fileSubject(style, 4, "mpi\\.mca");
          return c.accepts(harmless(h))
              .then(
                  (v, cc) -> {
                    if (!cc.exact()) {
                      return;
                    }
                    List<String> m = v.mpirun();
                    int i = m.indexOf("--mca");
                    assertThat(m.subList(i, i + 3))
                        .as("--mca of %s", cc)
                        .containsExactly("--mca", key, val);
                    assertThat(doubleQuoteSafe(val))
                        .as("Open MPI hands %s to other nodes' shells in double quotes", cc)
                        .isTrue();
                  });
        });
  }

  Gen<Case> mpiEnv() {
    return Gen.zip(
        HostileStrings.fileText(4),
        Gen.of("FOO=", "FOO", "", "OMPI_MCA_x="),
        Gen.of(Style.DOUBLE_QUOTED, Style.SINGLE_QUOTED, Style.PLAIN),
        (h, pre, style) -> {
          String v = pre + h;
          Case c = new Case("mpi.env", "file/" + style, v);
          c.file(style, "mpi.env[0]", "command: [hostname]", "mpi:", "  env: [@V@]");
          return c.accepts(harmless(h) && pre.endsWith("=") && style != Style.PLAIN)
              .then(
                  (view, cc) -> {
                    if (cc.exact()) {
                      assertThat(View.after(view.mpirun(), "-x")).contains(v);
                    }
                  });
        });
  }

  Gen<Case> mpiArgs() {
    return Gen.zip(
        HostileStrings.fileText(4).list(1, 3),
        Gen.of(Style.DOUBLE_QUOTED, Style.SINGLE_QUOTED),
        (ws, style) -> {
          List<String> quoted = new ArrayList<>();
          for (String w : ws) {
            quoted.add(HostileStrings.yaml(w, style));
          }
          Case c = new Case("mpi.args", "file/" + style, String.join(" | ", ws));
          c.style = style;
          c.yaml = "command: [hostname]\nmpi:\n  args: [" + String.join(", ", quoted) + "]\n";
          c.fileSubject(style, 3, "mpi\\.args");
          return c.then(
              (v, cc) -> {
                if (!cc.exact()) {
                  return;
                }
                List<String> m = v.mpirun();
                assertThat(java.util.Collections.indexOfSubList(m, ws))
                    .as("mpi.args of %s in %s", cc, visible(m))
                    .isPositive();
              });
        });
  }

  Gen<Case> mpiHostfile() {
    return Gen.zip(
        HostileStrings.fileText(4),
        Gen.of("/workspace/", "/workspace/../", "/workspace/x/../../", "", "/"),
        Gen.of(Style.DOUBLE_QUOTED, Style.SINGLE_QUOTED),
        (h, pre, style) -> {
          String v = pre + h;
          Case c =
              new Case("mpi.hostfile", "file/" + style, v)
                  .file(style, "mpi.hostfile", "command: [hostname]", "mpi:", "  hostfile: @V@");
          return c.accepts(harmless(h) && !h.isEmpty() && pre.equals("/workspace/"))
              .then(
                  (view, cc) -> {
                    if (!cc.exact()) {
                      return;
                    }
                    assertThat(View.after(view.mpirun(), "--hostfile")).containsExactly(v);
                    // The file clusterrun writes on the host lies in the workspace.
                    String host = view.json().path("hostfile").path("hostPath").asText();
                    assertThat(Path.of(host).normalize().startsWith(Path.of(WS)))
                        .as("hostfile written to %s for %s", visible(host), cc)
                        .isTrue();
                  });
        });
  }

  Gen<Case> command() {
    return Gen.zip(
        HostileStrings.fileText(4).list(1, 3),
        Gen.of("flag", "file/double", "file/single", "file/scalar"),
        (ws, layer) -> {
          Case c = new Case("command", layer, String.join(" | ", ws));
          if (layer.equals("flag")) {
            if (ws.stream().anyMatch(w -> w.contains("\0") || hasLoneSurrogate(w))) {
              ws = List.of(ws.get(0).replace("\0", "0").replaceAll("[\\uD800-\\uDFFF]", "s"));
            }
            c.command = ws;
            c.subject = Pattern.compile("CMD ARGS|command");
          } else if (layer.equals("file/scalar")) {
            c.commandFromFile = true;
            c.yaml = "command: " + HostileStrings.doubleQuoted(ws.get(0)) + "\n";
            ws = List.of(ws.get(0));
            c.fileSubject(Style.DOUBLE_QUOTED, 1, "command");
          } else {
            c.commandFromFile = true;
            Style style = style(layer.equals("file/double") ? "file/double" : "file/single");
            c.style = style;
            List<String> quoted = new ArrayList<>();
            for (String w : ws) {
              quoted.add(HostileStrings.yaml(w, style));
            }
            c.yaml = "command: [" + String.join(", ", quoted) + "]\n";
            c.fileSubject(style, 1, "command");
          }
          List<String> words = ws;
          return c.accepts(
                  words.stream().allMatch(HostileInputPropertyTest::harmless)
                      && !words.get(0).isEmpty())
              .then(
                  (v, cc) -> {
                    if (!cc.exact()) {
                      return;
                    }
                    assertThat(v.launch())
                        .as("command of %s", cc)
                        .endsWith(words.toArray(String[]::new));
                    // mpirun reads a lone ':' as the start of another program, and a first
                    // word starting with '-' as one of its own options.
                    assertThat(words).as("command of %s", cc).doesNotContain(":");
                    assertThat(words.get(0)).as("command of %s", cc).doesNotStartWith("-");
                  });
        });
  }

  static boolean hasLoneSurrogate(String s) {
    for (int i = 0; i < s.length(); i++) {
      char ch = s.charAt(i);
      if (Character.isHighSurrogate(ch)
          && (i + 1 >= s.length() || !Character.isLowSurrogate(s.charAt(i + 1)))) {
        return true;
      }
      if (Character.isLowSurrogate(ch) && (i == 0 || !Character.isHighSurrogate(s.charAt(i - 1)))) {
        return true;
      }
    }
    return false;
  }

  Gen<Case> jobName() {
    return Gen.zip(
        HostileStrings.fileText(4),
        Gen.of(Style.DOUBLE_QUOTED, Style.SINGLE_QUOTED, Style.PLAIN),
        (h, style) ->
            new Case("name", "file/" + style, "j" + h)
                .file(style, "name", "command: [hostname]", "name: @V@")
                .accepts(harmless(h) && style != Style.PLAIN)
                .then(
                    (v, c) -> {
                      if (c.exact()) {
                        assertThat(v.json().path("job").asText()).isEqualTo(c.value);
                      }
                    }));
  }

  Gen<Case> ssh() {
    return Gen.zip(
        HostileStrings.fileText(4),
        Gen.of("user", "port", "identity", "known-hosts", "connect-timeout", "fanout"),
        Gen.of("flag", "flag/separate", "file/double", "file/plain"),
        (h, key, layer) -> {
          String v = (key.equals("identity") ? "~/.ssh/" : "u") + h;
          Case c = new Case("ssh." + key, layer, v);
          if (layer.startsWith("flag")) {
            if (v.contains("\0") || hasLoneSurrogate(v)) {
              v = "u";
              c = new Case("ssh." + key, layer, v);
            }
            String flag =
                switch (key) {
                  case "user" -> "--ssh-user";
                  case "port" -> "--ssh-port";
                  case "identity" -> "--identity";
                  case "known-hosts" -> "--ssh-user";
                  case "connect-timeout" -> "--connect-timeout";
                  default -> "--fanout";
                };
            c.flag(flag, layer.endsWith("separate"));
            return c.accepts(
                key.equals("user") && harmless(h) || key.equals("identity") && harmless(h));
          }
          c.file(style(layer), "ssh." + key, "command: [hostname]", "ssh:", "  " + key + ": @V@");
          return c.accepts(
                  style(layer) != Style.PLAIN
                      && harmless(h)
                      && (key.equals("user") || key.equals("identity")))
              .then(
                  (view, cc) -> {
                    if (!cc.exact() || !(key.equals("user") || key.equals("identity"))) {
                      return;
                    }
                    for (JsonNode s : view.json().path("settings")) {
                      if (s.path("key").asText().equals("ssh." + key)) {
                        assertThat(s.path("value").asText()).isEqualTo(cc.value);
                      }
                    }
                  });
        });
  }

  /** A key nobody knows, anywhere in the file, is refused at its line. */
  Gen<Case> keys() {
    return Gen.zip(
        HostileStrings.fileText(4),
        Gen.of("", "container", "mpi", "ssh", "workspace"),
        Gen.of(Style.DOUBLE_QUOTED, Style.SINGLE_QUOTED, Style.PLAIN),
        (h, section, style) -> {
          String key = "k" + h;
          Case c =
              new Case("a key" + (section.isEmpty() ? "" : " in " + section), "file/" + style, key);
          String line = HostileStrings.yaml(key, style) + ": 1";
          c.yaml =
              "command: [hostname]\n"
                  + (section.isEmpty() ? line : section + ":\n  " + line)
                  + "\n";
          c.subject =
              Pattern.compile(
                  "^clusterrun: \\S*job\\.yaml:"
                      + (yamlPrintable(key) ? section.isEmpty() ? "2" : "[23]" : "\\d+")
                      + ":\\d+");
          return c.then(
              (v, cc) -> {
                throw new AssertionError("an unknown key was accepted: " + cc);
              });
        });
  }

  Gen<Case> otherFlags() {
    return Gen.zip(
        HostileStrings.text(4),
        Gen.of("--mpi-daemon", "--nodes", "--connect-timeout"),
        (h, flag) -> {
          Case c = new Case(flag, "flag", "x" + h);
          if (flag.equals("--nodes")) {
            // a second --nodes: picocli takes the last one
            c.flag(flag, false);
            c.subject = Pattern.compile("--nodes|" + Pattern.quote("x"));
            return c;
          }
          return c.flag(flag, false);
        });
  }

  /** {@code hpl}'s own flags; its dry run shows the head's command as a shell line. */
  Gen<Case> hplFlags() {
    return Gen.zip(
        HostileStrings.text(4),
        Gen.of(
            "--cpu-affinity",
            "--mem-affinity",
            "--gpu-affinity",
            "--hpl-arg",
            "--mpi-arg",
            "--gpu-model",
            "--cluster",
            "--dat"),
        (h, flag) -> {
          Case c = new Case("hpl " + flag, "flag", "x" + h);
          c.cmd = "hpl";
          c.imageFlag = false;
          c.flag(flag, false);
          return c.accepts(
                  harmless(h)
                      && !flag.equals("--dat")
                      && !flag.equals("--gpu-model")
                      && !flag.equals("--mpi-arg"))
              .then((v, cc) -> {});
        });
  }
}
