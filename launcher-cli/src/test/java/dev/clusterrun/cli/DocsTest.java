package dev.clusterrun.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clusterrun.core.ExitCode;
import dev.clusterrun.core.launch.job.EnvironmentLayer;
import dev.clusterrun.core.launch.job.JobWords;
import dev.clusterrun.core.spec.SpecLoader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;

/**
 * The docs hold: every command README.md, docs/*.md and examples/**&#47;README.md show that needs
 * no node runs in-process as shown and exits 0, its shown output (a fenced block marked {@code <!--
 * output -->}) appears in what it prints, and every flag the docs mention exists on the command it
 * is shown with.
 *
 * <p>Commands are read from the docs when the test runs: fenced lines and inline code starting with
 * {@code clusterrun } (or inside {@code <(…)} / {@code $(…)}), with {@code \} continuations joined
 * and {@code # comments} dropped. A command is one of:
 *
 * <ul>
 *   <li>a <b>synopsis</b> ({@code clusterrun bench PRESET --nodes HOSTFILE [flags]}): a word in
 *       capitals, brackets or an ellipsis; only its flags are checked;
 *   <li>a <b>mention</b> in running text ({@code `clusterrun check`}): the command must exist;
 *   <li>a command that <b>needs nodes</b>: listed in {@link #NEEDS_NODES} with the reason, its
 *       flags checked, not run;
 *   <li>anything else is <b>run</b>: {@code Main.run} with {@code HOME=/home/alice}, relative paths
 *       resolved against the repository, then {@code src/test/resources/docs/} ({@code hosts.txt},
 *       {@code job.yaml}).
 * </ul>
 */
class DocsTest {
  static final Path ROOT = CliTest.ROOT;
  static final Path FIXTURES = Path.of("src", "test", "resources", "docs").toAbsolutePath();
  static final Map<String, String> ENV = Map.of("HOME", "/home/alice", "USER", "alice");

  /**
   * Commands the docs show that reach nodes over SSH (or run a job on them): not run here; the
   * integration tests run their kind on the local cluster. Exactly as shown (spaces collapsed,
   * comment dropped). A shown command that needs nodes and is not here fails the test, and so does
   * an entry the docs no longer show.
   */
  static final Map<String, String> NEEDS_NODES =
      Map.ofEntries(
          Map.entry("clusterrun run job.yaml --nodes hosts.txt", "runs a job on the nodes"),
          Map.entry(
              "clusterrun run --nodes good.txt --container-image=IMAGE ./train.sh",
              "runs a job on the nodes"),
          Map.entry(
              "clusterrun run --nodes hosts.txt"
                  + " --container-image=nvcr.io#nvidia/pytorch:25.01-py3 python3 train.py",
              "runs a job on the nodes"),
          Map.entry(
              "clusterrun run --nodes hosts.txt --container-image=IMAGE hostname -f",
              "runs a job on the nodes"),
          Map.entry(
              "clusterrun run --nodes hosts.txt"
                  + " --container-image=registry.example:5000#team/app:main ./ci-tests.sh",
              "runs a job on the nodes"),
          Map.entry("clusterrun check --nodes hosts.txt", "checks the nodes over SSH"),
          Map.entry("clusterrun check --nodes hosts.txt job.yaml", "checks the nodes over SSH"),
          Map.entry(
              "clusterrun setup --nodes hosts.txt --data-path /shared/enroot",
              "configures the nodes over SSH"),
          Map.entry("clusterrun hpl --nodes hosts.txt", "runs HPL on the nodes"),
          Map.entry("clusterrun hpl --nodes hosts.txt -- --test-loop 2", "runs HPL on the nodes"),
          Map.entry(
              "clusterrun hpl --nodes gpu-a.txt --references examples/bench/references.yaml",
              "runs HPL on the nodes, judged by references"),
          Map.entry(
              "clusterrun hpl --nodes hosts.txt --cluster gpu-a --references"
                  + " examples/bench/references.yaml",
              "runs HPL on the nodes, judged by references"),
          Map.entry(
              "clusterrun bench hpcc --nodes hosts.txt --container-image /shared/images/hpcc.sqsh",
              "runs hpcc on the nodes"),
          Map.entry(
              "clusterrun bench hpcc --nodes hosts.txt --container-image /shared/images/hpcc.sqsh"
                  + " --junit reports/hpcc.xml --baseline /shared/baselines/hpcc.json"
                  + " --max-regression 5",
              "runs hpcc on the nodes, against a baseline file of an earlier run"));

  /** Commands that reach nodes unless they only print (--dry-run, --help). */
  private static final Set<String> NODE_COMMANDS = Set.of("run", "check", "setup", "hpl", "bench");

  /**
   * Flags of other programs the docs show in their own code spans (mpirun, enroot, hpl.sh, …): not
   * clusterrun's, so not looked up. Add a program's flag here when a doc shows it.
   */
  static final Set<String> OTHER_PROGRAMS_FLAGS =
      Set.of(
          // mpirun (Open MPI)
          "-np",
          "-x",
          "--mca",
          "--map-by",
          "--hostfile",
          "--prefix",
          "--oversubscribe",
          "--allow-run-as-root",
          "--wdir",
          "--host",
          "-H",
          "--rankfile",
          "--add-host",
          "--stdin",
          "--output-filename",
          "--output",
          "--tag-output",
          "--timestamp-output",
          "--xml",
          // srun
          "--input",
          "-l",
          // PRRTE's mpirun (Open MPI 5)
          "--prtemca",
          // DeepSpeed's launcher
          "--num_nodes",
          // what mpirun hands to the other nodes' daemons
          "-mca",
          // enroot start
          "--env",
          "--mount",
          "--rw",
          "--root",
          "--conf",
          // enroot export
          "-f",
          // NVIDIA's hpcg.sh, nccl-tests
          "--nx",
          "-b",
          // Maven
          "-DskipITs",
          // the hostile-input property tests' own properties
          "-Dhostile.seed",
          "-Dhostile.tries",
          "-Dhostile.keepGoing",
          // examples/local-cluster/cluster.sh
          "--with-64",
          "--docker-bridge",
          "--arp",
          "--private",
          "--oci",
          "--add",
          "--remove",
          // cluster.sh push and enroot import
          "--arch",
          // java (the launcher's JVM options)
          "-XX:TieredStopAtLevel",
          "-XX:CICompilerCount",
          "-Xshare:dump",
          // javac (the build's compiler options)
          "-XDstringConcat");

  // ---------------------------------------------------------------- the docs, read

  /**
   * A command shown in a doc, where, and the output shown for it (empty when none). {@code argv}
   * marks one shown as a Java word list ({@code "check", "--nodes", …}): only its flags are
   * checked.
   */
  record Shown(
      String doc, int line, String text, boolean inline, List<String> output, boolean argv) {
    Shown(String doc, int line, String text, boolean inline, List<String> output) {
      this(doc, line, text, inline, output, false);
    }

    @Override
    public String toString() {
      return doc + ":" + line + ": " + text;
    }
  }

  record Docs(List<Shown> commands, List<String[]> flagSpans) {}

  static List<Path> docFiles() {
    List<Path> files = new ArrayList<>();
    files.add(ROOT.resolve("README.md"));
    try (Stream<Path> d = Files.list(ROOT.resolve("docs"));
        Stream<Path> e = Files.walk(ROOT.resolve("examples"))) {
      d.filter(p -> p.toString().endsWith(".md")).sorted().forEach(files::add);
      e.filter(p -> p.getFileName().toString().equals("README.md")).sorted().forEach(files::add);
    } catch (IOException ex) {
      throw new UncheckedIOException(ex);
    }
    return files;
  }

  private static final Pattern SPAN = Pattern.compile("`([^`]+)`");
  private static final Pattern SUBSHELL = Pattern.compile("[<$]\\((clusterrun [^)]*)\\)");

  /** A Java word list naming a subcommand, e.g. {@code launcher, "check", "--nodes", …}. */
  private static final Pattern ARGV =
      Pattern.compile(
          "\"(plan|run|check|setup|hpl|bench|results|completion)\"((?:\\s*,\\s*\"[^\"]*\")+)");

  private static final String OUTPUT_MARK = "<!-- output -->";

  static Docs read() {
    List<Shown> commands = new ArrayList<>();
    List<String[]> flagSpans = new ArrayList<>();
    for (Path file : docFiles()) {
      String doc = ROOT.relativize(file).toString();
      List<String> lines = readLines(file);
      boolean fenced = false;
      boolean outputBlock = false;
      List<String> output = null;
      StringBuilder continued = null;
      int continuedFrom = 0;
      for (int i = 0; i < lines.size(); i++) {
        String line = lines.get(i);
        int no = i + 1;
        if (line.strip().startsWith("```")) {
          if (fenced && outputBlock) {
            Shown last = lastIn(commands, doc);
            assertThat(last).as("%s:%d: an output block after no command", doc, no).isNotNull();
            commands.set(
                commands.indexOf(last),
                new Shown(last.doc(), last.line(), last.text(), last.inline(), output, false));
          }
          outputBlock = !fenced && i > 0 && lines.get(i - 1).strip().equals(OUTPUT_MARK);
          output = outputBlock ? new ArrayList<>() : null;
          fenced = !fenced;
          continue;
        }
        if (fenced && outputBlock) {
          if (!line.isBlank()) {
            output.add(line);
          }
          continue;
        }
        if (fenced) {
          String l = line.strip();
          if (continued != null) {
            continued.append(' ').append(l);
            if (l.endsWith("\\")) {
              continued.setLength(continued.length() - 1);
              continue;
            }
            commands.add(
                new Shown(doc, continuedFrom, clean(continued.toString()), false, List.of()));
            continued = null;
            continue;
          }
          if (l.startsWith("$ ")) {
            l = l.substring(2);
          }
          Matcher sub = SUBSHELL.matcher(l);
          Matcher argv = ARGV.matcher(l);
          if (sub.find()) {
            commands.add(new Shown(doc, no, clean(sub.group(1)), false, List.of()));
          } else if (l.matches("(?i).*(clusterrun|launcher).*") && argv.find()) {
            List<String> words = new ArrayList<>(List.of("clusterrun", argv.group(1)));
            Matcher q = Pattern.compile("\"([^\"]*)\"").matcher(argv.group(2));
            while (q.find()) {
              words.add(q.group(1));
            }
            commands.add(new Shown(doc, no, String.join(" ", words), false, List.of(), true));
          } else if (l.startsWith("clusterrun ")) {
            if (l.endsWith("\\")) {
              continued = new StringBuilder(l.substring(0, l.length() - 1));
              continuedFrom = no;
            } else {
              commands.add(new Shown(doc, no, clean(l), false, List.of()));
            }
          }
          continue;
        }
        Matcher m = SPAN.matcher(line);
        while (m.find()) {
          String span = m.group(1).strip();
          Matcher sub = SUBSHELL.matcher(span);
          if (sub.find()) {
            commands.add(new Shown(doc, no, clean(sub.group(1)), false, List.of()));
          } else if (span.startsWith("clusterrun ")) {
            commands.add(new Shown(doc, no, clean(span), true, List.of()));
          } else if (span.startsWith("-") && !span.startsWith("-- ") && !span.equals("--")) {
            flagSpans.add(new String[] {doc + ":" + no, span});
          }
        }
      }
    }
    return new Docs(commands, flagSpans);
  }

  private static Shown lastIn(List<Shown> commands, String doc) {
    for (int i = commands.size() - 1; i >= 0; i--) {
      if (commands.get(i).doc().equals(doc)
          && !commands.get(i).inline()
          && !commands.get(i).argv()) {
        return commands.get(i);
      }
    }
    return null;
  }

  /** Drops a trailing {@code # comment} (a '#' after white space) and collapses spaces. */
  static String clean(String command) {
    String c = command;
    Matcher comment = Pattern.compile("\\s#\\s").matcher(c + " ");
    if (comment.find()) {
      c = c.substring(0, comment.start());
    }
    return c.strip().replaceAll("\\s+", " ");
  }

  private static List<String> readLines(Path file) {
    try {
      return Files.readAllLines(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  // ---------------------------------------------------------------- kinds of shown commands

  /** {@code HOSTFILE}, {@code N}, {@code JOB.yaml}: capitals only (a value such as H200 is not). */
  private static final Pattern PLACEHOLDER = Pattern.compile("[A-Z][A-Z_]*(\\.[a-z]+)?");

  static boolean isSynopsis(String command) {
    for (String w : command.split(" ")) {
      if (w.contains("[")
          || w.contains("…")
          || w.contains("...")
          || w.contains("|")
          || PLACEHOLDER.matcher(w).matches()) {
        return true;
      }
    }
    return false;
  }

  /**
   * {@code clusterrun WORD…} without flags, in running text ({@code `clusterrun check`}, {@code
   * `clusterrun bench hpcc`}), names a command; it is not an example to run.
   */
  static boolean isMention(Shown s) {
    return s.inline() && !s.text().contains(" -");
  }

  /** The words after {@code clusterrun}. */
  static List<String> words(String command) {
    List<String> w = new ArrayList<>(List.of(command.split(" ")));
    w.remove(0);
    return w;
  }

  /**
   * The words clusterrun itself reads: up to {@code --}, and for a command that takes a program's
   * words (run, plan, hpl, bench) up to the first word that starts them, as {@link CommandWords}
   * reads a command line (the job file and bench's preset are clusterrun's).
   */
  static List<String> clusterrunWords(CommandLine c, List<String> w) {
    var spec = c.getCommandSpec();
    boolean takesCommand =
        spec.positionalParameters().stream().anyMatch(p -> p.parameterConsumer() != null);
    boolean takesJobFile =
        spec.positionalParameters().stream()
            .anyMatch(p -> p.parameterConsumer() instanceof CommandWords.WithJobFile);
    int firstConsumed =
        spec.positionalParameters().stream()
            .filter(p -> p.parameterConsumer() != null)
            .mapToInt(p -> p.index().min())
            .min()
            .orElse(Integer.MAX_VALUE);
    List<String> out = new ArrayList<>();
    boolean named = c.getParent() == null;
    int positional = 0;
    for (int i = 0; i < w.size(); i++) {
      String word = w.get(i);
      if (word.equals("--")) {
        break;
      }
      out.add(word);
      if (!named) {
        named = !word.startsWith("-") && word.equals(c.getCommandName());
        continue;
      }
      if (word.startsWith("-")) {
        var option = spec.findOption(flagName(word));
        if (option != null && option.arity().max() > 0 && !word.contains("=") && i + 1 < w.size()) {
          out.add(w.get(++i));
        }
        continue;
      }
      if (takesCommand
          && positional >= firstConsumed
          && !(takesJobFile && JobWords.isJobFile(word) && positional == firstConsumed)) {
        out.remove(out.size() - 1);
        break;
      }
      positional++;
    }
    return out;
  }

  /** The subcommand a command line names (nested ones too: results compare), or the root. */
  static CommandLine commandOf(CommandLine root, List<String> words) {
    CommandLine c = root;
    for (String w : words) {
      if (w.startsWith("-")) {
        continue;
      }
      CommandLine sub = c.getSubcommands().get(w);
      if (sub == null) {
        return c;
      }
      c = sub;
    }
    return c;
  }

  static boolean needsNodes(CommandLine root, String command) {
    List<String> w = words(command);
    CommandLine c = commandOf(root, w);
    int dd = w.indexOf("--");
    List<String> opts = dd < 0 ? w : w.subList(0, dd);
    return c != root
        && NODE_COMMANDS.contains(c.getCommandName())
        && !opts.contains("--dry-run")
        && !opts.contains("--help")
        && !opts.contains("-h");
  }

  static CommandLine tree() {
    return new Cli(System.out, System.err, ENV).commandLine();
  }

  // ---------------------------------------------------------------- tests

  @Test
  void theDocsShowCommandsOfEveryKind() {
    Docs d = read();
    CommandLine root = tree();
    assertThat(d.commands()).filteredOn(s -> isSynopsis(s.text())).isNotEmpty();
    assertThat(d.commands()).filteredOn(DocsTest::isMention).isNotEmpty();
    assertThat(d.commands())
        .filteredOn(
            s -> !isSynopsis(s.text()) && !isMention(s) && !s.argv() && !needsNodes(root, s.text()))
        .extracting(Shown::text)
        .contains(
            "clusterrun plan examples/seed.yaml --nodes hostfiles/2x8.txt",
            "clusterrun completion",
            "clusterrun results");
    assertThat(d.commands()).filteredOn(s -> !s.output().isEmpty()).isNotEmpty();
    assertThat(d.commands()).filteredOn(Shown::argv).isNotEmpty();
  }

  /** Every shown command that needs no node works as shown: exit 0, and its shown output. */
  @Test
  void everyCommandThatNeedsNoNodeWorksAsShown() {
    CommandLine root = tree();
    List<String> problems = new ArrayList<>();
    Set<String> listedAndShown = new LinkedHashSet<>();
    int ran = 0;
    for (Shown s : read().commands()) {
      if (isSynopsis(s.text()) || isMention(s) || s.argv()) {
        continue;
      }
      if (NEEDS_NODES.containsKey(s.text())) {
        listedAndShown.add(s.text());
        continue;
      }
      if (needsNodes(root, s.text())) {
        problems.add(
            s
                + "\n  reaches nodes: add it to DocsTest.NEEDS_NODES with the reason, or show a"
                + " --dry-run");
        continue;
      }
      ran++;
      Ran r = run(s.text());
      if (r.code != ExitCode.OK.code().getAsInt()) {
        problems.add(s + "\n  exits " + r.code + ", not 0: " + r.err.strip());
      }
      List<String> printed = normalized(r.out + "\n" + r.err);
      for (String shown : s.output()) {
        if (!printed.contains(normalizeLine(shown))) {
          problems.add(s + "\n  does not print the line the doc shows: " + shown.strip());
        }
      }
    }
    Set<String> stale = new LinkedHashSet<>(NEEDS_NODES.keySet());
    stale.removeAll(listedAndShown);
    for (String gone : stale) {
      problems.add("DocsTest.NEEDS_NODES lists a command no doc shows any more: " + gone);
    }
    assertThat(problems).as("shown commands").isEmpty();
    assertThat(ran).as("commands run").isGreaterThanOrEqualTo(5);
  }

  /** Every flag of a shown command exists on that command; every flag span on some command. */
  @Test
  void everyFlagTheDocsMentionExists() {
    CommandLine root = tree();
    Docs d = read();
    List<String> problems = new ArrayList<>();
    for (Shown s : d.commands()) {
      List<String> w = words(s.text());
      CommandLine c = commandOf(root, w);
      if (isMention(s)) {
        if (c == root) {
          problems.add(s + "\n  names no clusterrun command");
        }
        continue;
      }
      for (String word : clusterrunWords(c, w)) {
        if (word.startsWith("[")) {
          break;
        }
        String flag = flagName(word);
        if (word.startsWith("-") && c.getCommandSpec().findOption(flag) == null) {
          problems.add(
              s + "\n  " + flag + " is no option of '" + c.getCommandSpec().qualifiedName() + "'");
        }
      }
    }
    Set<String> all = allOptionNames(root.getCommandSpec());
    for (String[] span : d.flagSpans()) {
      String first = span[1].split("[\\s=]")[0];
      for (String part : first.split("/")) {
        if (part.matches("--?[A-Za-z].*")
            && !OTHER_PROGRAMS_FLAGS.contains(part)
            && !all.contains(part)) {
          problems.add(
              span[0]
                  + ": `"
                  + span[1]
                  + "`\n  "
                  + part
                  + " is no option of any clusterrun command (if it is another program's, list"
                  + " it in DocsTest.OTHER_PROGRAMS_FLAGS)");
        }
      }
    }
    assertThat(problems).as("flags in the docs").isEmpty();
  }

  /** README's exit-code table is the one table, row for row and word for word. */
  @Test
  void readmeShowsTheOneExitCodeTable() {
    List<String> lines = readLines(ROOT.resolve("README.md"));
    int at = lines.indexOf("## Exit codes");
    assertThat(at).as("README.md has '## Exit codes'").isNotNegative();
    List<String> rows = new ArrayList<>();
    boolean table = false;
    for (String l : lines.subList(at + 1, lines.size())) {
      if (l.startsWith("## ")) {
        break;
      }
      if (l.startsWith("|")) {
        table = true;
        String[] cells = l.split("\\|");
        String code = cells[1].strip();
        if (!code.equals("code") && !code.startsWith("---")) {
          rows.add(code + " " + cells[2].strip().replace("`", ""));
        }
      } else if (table) {
        break;
      }
    }
    List<String> expected = new ArrayList<>();
    for (ExitCode c : ExitCode.values()) {
      expected.add(c.label() + " " + c.meaning());
    }
    assertThat(rows).isEqualTo(expected);
    // And the root --help shows the same rows (HelpTest checks its rendering in detail).
    assertThat(HelpTest.exitRows(CliTest.run("--help").out()))
        .extracting(r -> r[0] + " " + r[1])
        .isEqualTo(expected);
  }

  /** docs/job-spec.md lists the values the boolean variables take; the job file takes fewer. */
  @Test
  void theBooleanValuesTheDocsListAreTheOnesTaken() {
    String doc = String.join("\n", readLines(ROOT.resolve("docs/job-spec.md")));
    Matcher m =
        Pattern.compile(
                "\\*\\*Boolean variables\\*\\*:(.*?)take (.*?) for true and (.*?) for false, in any"
                    + " case",
                Pattern.DOTALL)
            .matcher(doc);
    assertThat(m.find()).as("job-spec.md's 'Boolean variables' sentence").isTrue();
    List<String> variables = spans(m.group(1));
    List<String> yes = spans(m.group(2));
    List<String> no = spans(m.group(3));
    assertThat(variables)
        .containsExactlyInAnyOrder(
            EnvironmentLayer.WRITABLE,
            EnvironmentLayer.READONLY,
            EnvironmentLayer.MOUNT_HOME,
            EnvironmentLayer.REMAP_ROOT);
    assertThat(yes).contains("1", "true", "yes");
    assertThat(no).contains("0", "false", "no");
    for (String v : yes) {
      for (String spelled : List.of(v, v.toUpperCase(Locale.ROOT))) {
        assertThat(EnvironmentLayer.read(Map.of(EnvironmentLayer.MOUNT_HOME, spelled)))
            .as(spelled)
            .extracting(j -> j.container().mountHome())
            .isEqualTo(true);
      }
    }
    for (String v : no) {
      assertThat(EnvironmentLayer.read(Map.of(EnvironmentLayer.REMAP_ROOT, v)))
          .as(v)
          .extracting(j -> j.container().remapRoot())
          .isEqualTo(false);
    }
    Ran maybe =
        runWith(
            Map.of(EnvironmentLayer.WRITABLE, "maybe"),
            "clusterrun plan job.yaml --nodes hosts.txt");
    assertThat(maybe.code).isEqualTo(2);
    assertThat(maybe.err).startsWith("clusterrun: " + EnvironmentLayer.WRITABLE + ": ");
    // The job file is held to YAML 1.2, as the same page says.
    assertThat(doc).contains("the job file\n  follows YAML 1.2");
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> SpecLoader.parse("container:\n  writable: yes\n", "job.yaml"))
        .hasMessageContaining("write true");
  }

  private static List<String> spans(String text) {
    List<String> out = new ArrayList<>();
    Matcher m = SPAN.matcher(text);
    while (m.find()) {
      out.add(m.group(1));
    }
    return out;
  }

  // ---------------------------------------------------------------- running

  record Ran(int code, String out, String err) {}

  static Ran run(String command) {
    return runWith(Map.of(), command);
  }

  /** Runs a shown command in-process, paths resolved as if in the repository's root. */
  static Ran runWith(Map<String, String> extraEnv, String command) {
    Map<String, String> env = new HashMap<>(ENV);
    env.putAll(extraEnv);
    Map<String, String> resolved = new LinkedHashMap<>();
    List<String> args = new ArrayList<>();
    for (String w : words(command)) {
      int eq = w.startsWith("--") ? w.indexOf('=') : -1;
      String value = eq < 0 ? w : w.substring(eq + 1);
      String abs = resolve(value);
      if (abs != null) {
        resolved.put(abs, value);
        args.add(eq < 0 ? abs : w.substring(0, eq + 1) + abs);
      } else {
        args.add(w);
      }
    }
    CliTest.Run ran = CliTest.run(env, args.toArray(String[]::new));
    int code = ran.code();
    String out = ran.out();
    String err = ran.err();
    for (Map.Entry<String, String> r : resolved.entrySet()) {
      out = out.replace(r.getKey(), r.getValue());
      err = err.replace(r.getKey(), r.getValue());
    }
    return new Ran(code, out, err);
  }

  /** A relative path the docs name, as an absolute path: the repository's, else a fixture. */
  private static String resolve(String word) {
    if (word.startsWith("-")
        || word.startsWith("/")
        || word.contains("#")
        || !(word.contains(".") || word.contains("/"))) {
      return null;
    }
    for (Path base : List.of(ROOT, FIXTURES)) {
      Path p = base.resolve(word);
      if (Files.exists(p)) {
        return p.toString();
      }
    }
    return null;
  }

  private static final Pattern RUN_ID =
      Pattern.compile("\\b\\d{8}-\\d{6}-[A-Za-z0-9._-]*-[0-9a-f]{4}\\b");

  static String normalizeLine(String line) {
    return RUN_ID.matcher(line.strip().replaceAll("\\s+", " ")).replaceAll("<run id>");
  }

  static List<String> normalized(String text) {
    return text.lines().map(DocsTest::normalizeLine).toList();
  }

  static String flagName(String word) {
    int eq = word.indexOf('=');
    return eq < 0 ? word : word.substring(0, eq);
  }

  static Set<String> allOptionNames(CommandSpec spec) {
    Set<String> names = new LinkedHashSet<>();
    spec.options().forEach(o -> names.addAll(List.of(o.names())));
    for (CommandLine sub : spec.subcommands().values()) {
      names.addAll(allOptionNames(sub.getCommandSpec()));
    }
    return names;
  }
}
