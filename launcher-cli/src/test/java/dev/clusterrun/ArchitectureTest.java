package dev.clusterrun;

import static com.tngtech.archunit.base.DescribedPredicate.describe;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.AccessTarget;
import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.InstanceofCheck;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.core.domain.JavaConstructor;
import com.tngtech.archunit.core.domain.JavaConstructorCall;
import com.tngtech.archunit.core.domain.JavaMethod;
import com.tngtech.archunit.core.domain.JavaMethodCall;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import dev.clusterrun.core.ExitCode;
import java.io.IOException;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The layering docs/architecture.md describes, kept by the build: launcher-core never speaks to the
 * terminal, never exits and never knows picocli; the one thread pool (and timer) of a command lives
 * in the session layer; core's packages depend on each other without cycles. The CLI uses only
 * core's requests, outcomes, flows, exit codes and console types; every outcome carries its exit
 * code and no command decides one; every command is a {@code BaseCommand} and an option several
 * commands take is declared once, in a mixin (docs/architecture.md, "The CLI's rules"). The run
 * path's role packages under launch/ depend one way ({@link #LAUNCH_LAYERS}), no two of its classes
 * use each other, launch/ itself keeps only the run's entry points, and a run's attempt hands its
 * state on as values, never through a field it changes.
 */
class ArchitectureTest {
  static final String CORE = "dev.clusterrun.core..";
  static final String SESSION = "dev.clusterrun.core.session..";
  static final String REACH = "dev.clusterrun.core.session.Session$Reach";
  static final String CLI = "dev.clusterrun.cli";

  /**
   * Option names that stand for two different things, each declared in its own class, and why they
   * are not one mixin.
   */
  static final Map<String, String> OPTIONS_OF_TWO_KINDS =
      Map.of(
          "--workspace",
          "JobOptions' is the job's setting (a string the job's rules check, completed as a word);"
              + " WorkspaceOption's the directory images, results, stop and logs read (completed as"
              + " a file): one field would change the completion script");

  /**
   * Classes that start processes: their output is pumped by commons-exec's own threads, inside the
   * library; none of them makes a thread or a pool itself (the rule below holds them to it).
   */
  static final Set<String> PROCESS_PLUMBING =
      Set.of(
          "dev.clusterrun.core.remote.LocalNodeShell",
          "dev.clusterrun.core.launch.head.HeadProcess",
          "dev.clusterrun.core.launch.head.HeadCommands");

  static final JavaClasses CLASSES =
      new ClassFileImporter()
          .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
          .importPackages("dev.clusterrun");

  @Test
  void bothModulesAreImported() {
    assertThat(CLASSES.contain("dev.clusterrun.core.session.FanOut")).isTrue();
    assertThat(CLASSES.contain("dev.clusterrun.cli.Main")).isTrue();
  }

  @Test
  void coreKnowsNoPicocli() {
    ArchRule r =
        noClasses()
            .that()
            .resideInAPackage(CORE)
            .should()
            .dependOnClassesThat()
            .resideInAPackage("picocli..")
            .because("launcher-core is the library; launcher-cli parses flags");
    r.check(CLASSES);
  }

  @Test
  void coreNeverPrintsNorExits() {
    ArchRule r =
        noClasses()
            .that()
            .resideInAPackage(CORE)
            .should()
            .accessField(System.class, "out")
            .orShould()
            .accessField(System.class, "err")
            .orShould()
            .callMethod(System.class, "exit", int.class)
            .orShould()
            .callMethod(Runtime.class, "exit", int.class)
            .orShould()
            .callMethod(Runtime.class, "halt", int.class)
            .because("core returns values and outcomes; the CLI prints them and Main exits");
    r.check(CLASSES);
  }

  @Test
  void threadsAndPoolsOnlyInTheSessionLayer() {
    ArchRule pools =
        noClasses()
            .that()
            .resideOutsideOfPackage(SESSION)
            .should()
            .dependOnClassesThat()
            .belongToAnyOf(
                Executors.class,
                ThreadPoolExecutor.class,
                ScheduledThreadPoolExecutor.class,
                ForkJoinPool.class,
                java.util.Timer.class)
            .orShould()
            .callConstructorWhere(newThread())
            .orShould()
            .callMethodWhere(asyncOnTheCommonPool())
            .because(
                "every per-node round goes through the session's one fan-out (sized by --fanout);"
                    + " process plumbing "
                    + PROCESS_PLUMBING
                    + " leaves its pump threads to commons-exec");
    pools.check(CLASSES);
  }

  @Test
  void corePackagesHaveNoCycles() {
    slices().matching("dev.clusterrun.core.(*)..").should().beFreeOfCycles().check(CLASSES);
  }

  @Test
  void remoteAndSessionKnowNoCheck() {
    noClasses()
        .that()
        .resideInAnyPackage("dev.clusterrun.core.remote..", SESSION)
        .should()
        .dependOnClassesThat()
        .resideInAPackage("dev.clusterrun.core.check..")
        .because(
            "the checks use the session and its connections, never the other way round: what a"
                + " session's opening round found is offered by Session.Reach")
        .check(CLASSES);
  }

  @Test
  void noCodeAsksWhichReachASessionHas() {
    JavaClass reach = CLASSES.get(REACH);
    List<String> found = new ArrayList<>();
    for (JavaClass c : CLASSES) {
      for (JavaCodeUnit u : c.getCodeUnits()) {
        for (InstanceofCheck i : u.getInstanceofChecks()) {
          if (i.getRawType().isAssignableTo(reach.getName())) {
            found.add(u.getFullName() + " asks instanceof " + i.getRawType().getName());
          }
        }
      }
    }
    assertThat(found)
        .as(
            "what the session's reach offers is asked through Session.Reach (firstAnswer, logins),"
                + " not by telling its kinds apart")
        .isEmpty();
  }

  @Test
  void everyCommandExtendsBaseCommand() {
    classes()
        .that()
        .resideInAPackage(CLI)
        .and()
        .areAnnotatedWith(Command.class)
        .and()
        .doNotHaveFullyQualifiedName(CLI + ".RootCommand")
        .should()
        .beAssignableTo(CLI + ".BaseCommand")
        .because(
            "a subcommand gets -h, -V, the option order and the root's streams from BaseCommand,"
                + " and returns its outcome's exit code")
        .check(CLASSES);
  }

  @Test
  void eachOptionNameIsDeclaredInOneClass() {
    Map<String, Set<String>> declaredIn = optionDeclarations();
    assertThat(declaredIn).as("the CLI's options (the test reads them)").containsKey("--nodes");
    Map<String, Set<String>> twice = new TreeMap<>();
    declaredIn.forEach(
        (name, owners) -> {
          if (owners.size() > 1 && !OPTIONS_OF_TWO_KINDS.containsKey(name)) {
            twice.put(name, owners);
          }
        });
    assertThat(twice)
        .as(
            "an option several commands take is declared once, in a mixin (as JsonOption,"
                + " NodesOption), and each command gives its help text in Help.properties")
        .isEmpty();
  }

  /**
   * <b>launcher-cli may use only core's requests, outcomes, flows, exit codes and console
   * types.</b> A core type is one of them when it is:
   *
   * <ul>
   *   <li>a <b>request</b>: a type named {@code …Request} that a public method of a flow takes
   *       ({@code LaunchRequest}, {@code JobsFlow.PsRequest}, {@code RunLogs.Request});
   *   <li>an <b>outcome</b>: a type named {@code …Outcome} that a public method of a flow returns
   *       ({@code CheckOutcome}, {@code PsOutcome});
   *   <li>a <b>part</b> of a request or an outcome, in turn: a type nested in it ({@code
   *       LaunchOutcome.ChecksFailed}, {@code ScreenRequest.Judging}), the type of one of its
   *       record components ({@code JobInput} of {@code LaunchRequest}, {@code CheckReport} of
   *       {@code CheckOutcome}), or a parameter type of one of its public constructors and public
   *       static methods that return it ({@code JobWords}, {@code JobFlags} and {@code SshFlags} of
   *       {@code JobInput.of});
   *   <li>a <b>flow</b>: its simple name ends in {@code Flow}; its static methods are the core
   *       calls ({@code LaunchFlow.run}), each returning an outcome ({@link
   *       #everyCoreCallOfTheCliReturnsAnOutcome});
   *   <li>an <b>exit code</b>: {@code ExitCode}, and core's exceptions that carry one (a method
   *       {@code code()} returning {@code ExitCode}: {@code BadInputException}, {@code
   *       ExitException});
   *   <li>a <b>console</b> type, what the CLI drives the terminal with: {@code session.Console} and
   *       its parts (as above: {@code Progress}, {@code Console.Interrupts}), the {@code terminal}
   *       package (clusterrun's own process and terminal) and {@code output.ClosedReader}
   *       (clusterrun's own stdout and stderr, watched for a reader gone).
   * </ul>
   *
   * Anything else (a planner, a resolver, a loader, a renderer) is reached through a flow.
   */
  @Test
  void theCliUsesOnlyCoresRequestsOutcomesFlowsExitCodesAndConsole() {
    Set<String> parts = partsOf(c -> isRequest(c) || isOutcome(c) || isConsole(c));
    noClasses()
        .that()
        .resideInAPackage(CLI)
        .should()
        .dependOnClassesThat(
            describe(
                "are core types but no request, outcome, part of one, flow, exit code or"
                    + " console type",
                c ->
                    c.getPackageName().startsWith(CORE_PACKAGE)
                        && !parts.contains(c.getName())
                        && !isFlow(c)
                        && !isExitCode(c)
                        && !isConsole(c)))
        .because(
            "a command turns its flags into a request, makes one core call (a flow) and renders"
                + " the outcome it gets back, with its exit code; the logic lives in core")
        .check(CLASSES);
  }

  /**
   * Every outcome carries its own exit code: each core type named {@code …Outcome} has a public
   * {@code int exitCode()} (a job's code or 128+N included, hence an int).
   */
  @Test
  void everyOutcomeCarriesItsExitCode() {
    List<String> outcomes = new ArrayList<>();
    List<String> without = new ArrayList<>();
    for (JavaClass c : CLASSES) {
      if (c.getPackageName().startsWith(CORE_PACKAGE) && isOutcome(c)) {
        outcomes.add(c.getName());
        if (!hasExitCode(c.reflect())) {
          without.add(c.getName());
        }
      }
    }
    assertThat(outcomes).as("core's outcomes").contains(CORE_PACKAGE + ".check.CheckOutcome");
    assertThat(without).as("outcomes without a public int exitCode()").isEmpty();
  }

  /**
   * A command's core call is a flow's method that returns an outcome: every method of a {@code
   * …Flow} the CLI calls (or refers to) returns a type named {@code …Outcome}, whose exit code the
   * command returns.
   */
  @Test
  void everyCoreCallOfTheCliReturnsAnOutcome() {
    List<String> calls = new ArrayList<>();
    List<String> wrong = new ArrayList<>();
    for (JavaClass c : CLASSES) {
      if (!c.getPackageName().equals(CLI)) {
        continue;
      }
      List<AccessTarget.CodeUnitAccessTarget> targets = new ArrayList<>();
      c.getMethodCallsFromSelf().forEach(a -> targets.add(a.getTarget()));
      c.getMethodReferencesFromSelf().forEach(a -> targets.add(a.getTarget()));
      for (AccessTarget.CodeUnitAccessTarget t : targets) {
        if (isFlow(t.getOwner())) {
          calls.add(t.getFullName());
          if (!isOutcome(t.getRawReturnType())) {
            wrong.add(c.getSimpleName() + " calls " + t.getFullName());
          }
        }
      }
    }
    assertThat(calls).as("the CLI's core calls").isNotEmpty();
    assertThat(wrong).as("core calls of the CLI that return no outcome").isEmpty();
  }

  /**
   * Commands return their outcome's exit code and never decide one: no class of the CLI but {@code
   * Cli} (which maps exceptions and bad flags to the exit-code table and sets picocli's own codes
   * from it) and {@code Main} (which ends the process) uses {@code ExitCode}, and no CLI source
   * returns a number.
   */
  @Test
  void noCommandDecidesAnExitCode() throws IOException {
    noClasses()
        .that()
        .resideInAPackage(CLI)
        .and()
        .doNotHaveFullyQualifiedName(CLI + ".Cli")
        .and()
        .doNotHaveFullyQualifiedName(CLI + ".Main")
        .should()
        .dependOnClassesThat()
        .belongToAnyOf(ExitCode.class)
        .because(
            "a command returns the exitCode() of the outcome its core call gave; Cli maps"
                + " exceptions and parse errors to the table, Main exits")
        .check(CLASSES);
    List<String> numbers = new ArrayList<>();
    try (Stream<Path> files = Files.walk(CLI_SOURCES)) {
      for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
        Matcher m = RETURNS_A_NUMBER.matcher(Files.readString(f));
        while (m.find()) {
          numbers.add(f.getFileName() + ": " + m.group().strip());
        }
      }
    }
    assertThat(numbers).as("CLI code that returns an exit code of its own").isEmpty();
  }

  static final Path CLI_SOURCES = Path.of("src/main/java/dev/clusterrun/cli");

  /** {@code return 0;}, {@code return 3;}: an exit code written as a number. */
  static final Pattern RETURNS_A_NUMBER = Pattern.compile("\\breturn\\s+-?\\d+\\s*;");

  static final String CORE_PACKAGE = "dev.clusterrun.core";

  /** A type named {@code …Request} that a public method of a flow takes. */
  static boolean isRequest(JavaClass c) {
    return c.getSimpleName().endsWith("Request") && FLOW_TYPES.contains(c.getName());
  }

  /** A type named {@code …Outcome} that a public method of a flow returns. */
  static boolean isOutcome(JavaClass c) {
    return c.getSimpleName().endsWith("Outcome") && FLOW_TYPES.contains(c.getName());
  }

  /** The types the flows' public methods take and return. */
  static final Set<String> FLOW_TYPES = flowTypes();

  private static Set<String> flowTypes() {
    Set<String> types = new TreeSet<>();
    for (JavaClass c : CLASSES) {
      if (!isFlow(c)) {
        continue;
      }
      for (JavaMethod m : c.getMethods()) {
        if (m.getModifiers().contains(JavaModifier.PUBLIC)) {
          types.add(m.getRawReturnType().getName());
          m.getRawParameterTypes().forEach(t -> types.add(t.getName()));
        }
      }
    }
    return types;
  }

  static boolean isFlow(JavaClass c) {
    return c.getSimpleName().endsWith("Flow") && c.getPackageName().startsWith(CORE_PACKAGE);
  }

  /** {@code ExitCode}, or a core exception with {@code ExitCode code()}. */
  static boolean isExitCode(JavaClass c) {
    return c.isEquivalentTo(ExitCode.class)
        || c.isAssignableTo(Throwable.class)
            && c.getMethods().stream()
                .anyMatch(
                    m ->
                        m.getName().equals("code")
                            && m.getRawParameterTypes().isEmpty()
                            && m.getRawReturnType().isEquivalentTo(ExitCode.class));
  }

  /** What the CLI drives the terminal with (its parts are found by {@link #partsOf}). */
  static boolean isConsole(JavaClass c) {
    return c.getName().equals(CORE_PACKAGE + ".session.Console")
        || c.getPackageName().equals(CORE_PACKAGE + ".terminal")
        || c.getName().equals(CORE_PACKAGE + ".output.ClosedReader");
  }

  private static boolean hasExitCode(Class<?> c) {
    try {
      Method m = c.getMethod("exitCode");
      return m.getReturnType() == int.class;
    } catch (NoSuchMethodException e) {
      return false;
    }
  }

  /**
   * The core types {@code roots} select and their parts, in turn: the types nested in each, the
   * types of a record's components, the parameter types of its public constructors and of its
   * public static methods that return it.
   */
  static Set<String> partsOf(java.util.function.Predicate<JavaClass> roots) {
    Map<String, List<JavaClass>> nested = new HashMap<>();
    for (JavaClass c : CLASSES) {
      c.getEnclosingClass()
          .ifPresent(e -> nested.computeIfAbsent(e.getName(), k -> new ArrayList<>()).add(c));
    }
    Deque<JavaClass> todo = new ArrayDeque<>();
    CLASSES.stream().filter(roots).forEach(todo::add);
    Set<String> found = new TreeSet<>();
    while (!todo.isEmpty()) {
      JavaClass c = todo.pop();
      if (!c.getPackageName().startsWith(CORE_PACKAGE) || !found.add(c.getName())) {
        continue;
      }
      todo.addAll(nested.getOrDefault(c.getName(), List.of()));
      boolean record = c.getRawSuperclass().map(s -> s.isEquivalentTo(Record.class)).orElse(false);
      if (record) {
        c.getFields().stream()
            .filter(f -> !f.getModifiers().contains(JavaModifier.STATIC))
            .forEach(f -> todo.addAll(f.getType().getAllInvolvedRawTypes()));
      }
      for (JavaCodeUnit u : c.getCodeUnits()) {
        boolean factory =
            u instanceof JavaConstructor
                || u.getModifiers().contains(JavaModifier.STATIC) && u.getRawReturnType().equals(c);
        if (factory && u.getModifiers().contains(JavaModifier.PUBLIC)) {
          u.getParameterTypes().forEach(t -> todo.addAll(t.getAllInvolvedRawTypes()));
        }
      }
    }
    return found;
  }

  /** Every option name of the CLI and the classes whose fields or methods declare it. */
  static Map<String, Set<String>> optionDeclarations() {
    Map<String, Set<String>> out = new TreeMap<>();
    for (JavaClass c : CLASSES) {
      if (!c.getPackageName().equals(CLI)) {
        continue;
      }
      List<Option> options = new ArrayList<>();
      c.getFields().forEach(f -> f.tryGetAnnotationOfType(Option.class).ifPresent(options::add));
      c.getMethods().forEach(m -> m.tryGetAnnotationOfType(Option.class).ifPresent(options::add));
      for (Option o : options) {
        for (String name : o.names()) {
          out.computeIfAbsent(name, k -> new TreeSet<>()).add(c.getSimpleName());
        }
      }
    }
    return out;
  }

  private static com.tngtech.archunit.base.DescribedPredicate<JavaConstructorCall> newThread() {
    return describe("a new Thread", call -> call.getTargetOwner().isAssignableTo(Thread.class));
  }

  private static com.tngtech.archunit.base.DescribedPredicate<JavaMethodCall>
      asyncOnTheCommonPool() {
    return describe(
        "CompletableFuture.runAsync/supplyAsync or a parallel stream",
        call -> {
          JavaClass owner = call.getTargetOwner();
          String name = call.getName();
          return owner.isEquivalentTo(CompletableFuture.class)
                  && (name.equals("runAsync") || name.equals("supplyAsync"))
              || name.equals("parallelStream")
              || (name.equals("parallel") && owner.getName().startsWith("java.util.stream."));
        });
  }

  /** The run path's role packages, lowest first: each may use only those before it. */
  static final List<List<String>> LAUNCH_LAYERS =
      List.of(
          List.of("io", "head", "cleanup"),
          List.of("job"),
          List.of("proof"),
          List.of("plan"),
          List.of("container"),
          List.of("run"),
          List.of("mpirun", "pernode"));

  static final String LAUNCH = "dev.clusterrun.core.launch";

  /** The top-level class a class of launch/ is part of (a nested type is part of its outer one). */
  private static JavaClass topLevel(JavaClass c) {
    JavaClass t = c;
    while (t.getEnclosingClass().isPresent()) {
      t = t.getEnclosingClass().get();
    }
    return t;
  }

  private static boolean inLaunch(JavaClass c) {
    return c.getPackageName().equals(LAUNCH) || c.getPackageName().startsWith(LAUNCH + ".");
  }

  /** The role package of a class of launch/: "" for launch/ itself. */
  private static String role(JavaClass c) {
    String p = c.getPackageName();
    return p.equals(LAUNCH) ? "" : p.substring(LAUNCH.length() + 1);
  }

  @Test
  void launchRolesDependOneWay() {
    Map<String, Integer> rank = new TreeMap<>();
    for (int i = 0; i < LAUNCH_LAYERS.size(); i++) {
      for (String r : LAUNCH_LAYERS.get(i)) {
        rank.put(r, i);
      }
    }
    rank.put("", LAUNCH_LAYERS.size());
    Set<String> wrong = new TreeSet<>();
    for (JavaClass c : CLASSES) {
      if (!inLaunch(c)) {
        continue;
      }
      assertThat(rank)
          .as("role package of %s named in LAUNCH_LAYERS", c.getName())
          .containsKey(role(c));
      for (Dependency d : c.getDirectDependenciesFromSelf()) {
        JavaClass t = d.getTargetClass();
        if (!inLaunch(t) || role(t).equals(role(c))) {
          continue;
        }
        if (rank.get(role(t)) >= rank.get(role(c))) {
          wrong.add(topLevel(c).getName() + " -> " + topLevel(t).getName());
        }
      }
    }
    assertThat(wrong).as("dependencies of launch/'s role packages against LAUNCH_LAYERS").isEmpty();
  }

  @Test
  void launchClassesHaveNoCycles() {
    Map<String, Set<String>> uses = new TreeMap<>();
    for (JavaClass c : CLASSES) {
      if (!inLaunch(c)) {
        continue;
      }
      Set<String> out = uses.computeIfAbsent(topLevel(c).getName(), k -> new TreeSet<>());
      for (Dependency d : c.getDirectDependenciesFromSelf()) {
        if (inLaunch(d.getTargetClass())) {
          out.add(topLevel(d.getTargetClass()).getName());
        }
      }
      out.remove(topLevel(c).getName());
    }
    assertThat(Cycles.of(uses)).as("cycles between classes of launch/").isEmpty();
  }

  @Test
  void launchItselfKeepsOnlyTheRunsEntryPoints() {
    Set<String> own = new TreeSet<>();
    for (JavaClass c : CLASSES) {
      if (c.getPackageName().equals(LAUNCH) && c.getEnclosingClass().isEmpty()) {
        own.add(c.getSimpleName());
      }
    }
    assertThat(own).as("top-level classes of launch/ itself").hasSizeLessThanOrEqualTo(15);
  }

  @Test
  void aRunAttemptKeepsNoMutableState() {
    assertThat(CLASSES.get(LAUNCH + ".RunAttempt").getFields())
        .as("fields of RunAttempt")
        .allSatisfy(f -> assertThat(f.getModifiers()).as(f.getName()).contains(JavaModifier.FINAL));
  }
}
