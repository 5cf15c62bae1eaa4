package dev.clusterrun;

import static com.tngtech.archunit.base.DescribedPredicate.describe;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.InstanceofCheck;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.core.domain.JavaConstructorCall;
import com.tngtech.archunit.core.domain.JavaMethodCall;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import java.util.ArrayList;
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
import org.junit.jupiter.api.Test;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The layering docs/architecture.md describes, kept by the build: launcher-core never speaks to the
 * terminal, never exits and never knows picocli; the one thread pool (and timer) of a command lives
 * in the session layer; core's packages depend on each other without cycles. In the CLI, every
 * command is a {@code BaseCommand} and an option several commands take is declared once, in a
 * mixin. The run path's role packages under launch/ depend one way ({@link #LAUNCH_LAYERS}), no two
 * of its classes use each other, launch/ itself keeps only the run's entry points, and a run's
 * attempt hands its state on as values, never through a field it changes.
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
