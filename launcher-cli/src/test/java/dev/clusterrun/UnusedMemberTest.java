package dev.clusterrun;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaAccess;
import com.tngtech.archunit.core.domain.JavaAnnotation;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.core.domain.JavaConstructor;
import com.tngtech.archunit.core.domain.JavaField;
import com.tngtech.archunit.core.domain.JavaFieldAccess;
import com.tngtech.archunit.core.domain.JavaMember;
import com.tngtech.archunit.core.domain.JavaMethod;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.thirdparty.org.objectweb.asm.ClassReader;
import com.tngtech.archunit.thirdparty.org.objectweb.asm.ClassVisitor;
import com.tngtech.archunit.thirdparty.org.objectweb.asm.FieldVisitor;
import com.tngtech.archunit.thirdparty.org.objectweb.asm.Opcodes;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * No member of the main code (both modules) that nothing uses: every method, constructor and field
 * is reached from some other code of the main code, overrides or implements a supertype's method,
 * or is used by a library through reflection (picocli's annotations and the classes they name,
 * Jackson's annotations, record accessors Jackson serializes). A field counts as used when it is
 * read.
 */
class UnusedMemberTest {
  /**
   * Members this test cannot see used, each with its reason; keep it short. Named as {@code
   * package.Class.member} under dev.clusterrun, without parameters.
   */
  static final Map<String, String> EXEMPT =
      Map.of(
          "cli.Cli.commandLine",
          "launcher-dist's CommandModel builds the whole tree with it for the man pages and the"
              + " completion script; that module is not on this test's class path");

  /**
   * Members of the main code that only the tests use, kept for them, each with its reason (one of
   * three). This list may only shrink ({@link #theExemptionsAreStillNeeded} fails on an entry that
   * is used now or gone).
   */
  static final Map<String, String> ONLY_TESTS_USE = onlyTestsUse();

  private static Map<String, String> onlyTestsUse() {
    Map<String, String> m = new HashMap<>();
    String fixture =
        "the tests build their values with it (the main code builds them from flags, files and ssh -G)";
    exempt(
        m,
        fixture,
        "core.bench.Gates.none",
        "core.bench.JUnitReport$Case.<init>",
        "core.check.SharedPathProof$Verdict.assumed",
        "core.check.SharedPathProof$Verdict.notProven",
        "core.session.FanOut.<init>",
        "core.launch.job.EnvironmentLayer.read",
        "core.launch.run.JobRunner$Request.<init>",
        "core.remote.SshTarget.of",
        "core.remote.SshTarget.withConnectTimeout",
        "core.remote.SshTarget.withIdentityAgent",
        "core.remote.SshTarget.withIdentityFiles",
        "core.remote.SshTarget.withKnownHosts",
        "core.setup.SetupSpec.of",
        "core.setup.SetupSpec.withForce",
        "core.setup.SetupSpec.withSysconfDir",
        "core.spec.JobSpec.empty");
    String inspect = "the tests inspect results through it";
    exempt(
        m,
        inspect,
        "core.ExitCode.code",
        "core.check.Check.facts",
        "core.session.FanOut.parallelism",
        "core.bench.BenchPreset.description",
        "core.bench.Gates$Judged.passed",
        "core.bench.References$MetricCheck.holds",
        "core.bench.References.entries",
        "core.bench.Verdict.passed",
        "core.launch.job.LaunchOptions.labels",
        "core.launch.job.Setting.isSet",
        "core.mpi.MpiTuning$Additions.isEmpty",
        "core.mpi.MpiTuning$Keepalive.total");
    String registry =
        "the registry client's API its tests use: the HTTP status, an architecture other than"
            + " the JVM's, a credentials file read without an environment";
    exempt(
        m,
        registry,
        "core.image.Netrc.read",
        "core.image.RegistryException.status",
        "core.image.RegistrySettings.withArch");
    String overload = "a shorter overload the tests call";
    exempt(
        m,
        overload,
        "core.bench.BenchFlow.verdict",
        "core.launch.job.JobResolver.resolve",
        "core.launch.run.RunEnd.exitCode");
    return m;
  }

  /** Each of {@code members} into {@code m}, kept for {@code reason}. */
  private static void exempt(Map<String, String> m, String reason, String... members) {
    for (String k : members) {
      m.put(k, reason);
    }
  }

  private static boolean exempt(String key) {
    return EXEMPT.containsKey(key) || ONLY_TESTS_USE.containsKey(key);
  }

  /** Fields whose class file holds their value (compile-time constants), as full names. */
  static final Set<String> CONSTANTS = constants();

  /** How often each word occurs in the main sources of both modules, comments left out. */
  static final Map<String, Integer> SOURCE_WORDS = sourceWords();

  /** The members of the main code that nothing in it uses, in class order. */
  static List<JavaMember> unusedMembers() {
    Set<JavaClass> reflective = instantiatedByPicocli();
    List<JavaMember> unused = new ArrayList<>();
    for (JavaClass c : ArchitectureTest.CLASSES) {
      for (JavaMember m : members(c)) {
        if (!used(m, reflective)) {
          unused.add(m);
        }
      }
    }
    return unused;
  }

  @Test
  void everyMemberIsUsed() {
    Set<String> unused = new TreeSet<>();
    for (JavaMember m : unusedMembers()) {
      if (!exempt(key(m))) {
        unused.add(m.getFullName());
      }
    }
    assertThat(unused).as("members nothing in the main code uses; delete them").isEmpty();
  }

  @Test
  void theTestSeesWhatNothingUses() {
    JavaClass sample = new ClassFileImporter().importClasses(Sample.class).get(Sample.class);
    Set<String> unused = new TreeSet<>();
    for (JavaMember m : members(sample)) {
      if (!used(m, Set.of())) {
        unused.add(m.getName());
      }
    }
    assertThat(unused).containsExactly("<init>", "entry", "neverRead", "unused");
  }

  /** For {@link #theTestSeesWhatNothingUses}: what is used only by what nothing uses is used. */
  @SuppressWarnings("unused")
  static final class Sample {
    private final int read = Integer.getInteger("a", 1);
    private final int neverRead = Integer.getInteger("b", 2);

    static int entry(Sample s) {
      return s.read + s.helper();
    }

    private int helper() {
      return 1;
    }

    private void unused() {}
  }

  @Test
  void theExemptionsAreStillNeeded() {
    Set<String> stale = new TreeSet<>(EXEMPT.keySet());
    stale.addAll(ONLY_TESTS_USE.keySet());
    unusedMembers().forEach(m -> stale.remove(key(m)));
    assertThat(stale).as("exempt members that are used now, or gone: strike them").isEmpty();
  }

  private static Set<String> constants() {
    Set<String> out = new HashSet<>();
    for (JavaClass c : ArchitectureTest.CLASSES) {
      String file = c.getName().replace('.', '/') + ".class";
      try (InputStream in = UnusedMemberTest.class.getClassLoader().getResourceAsStream(file)) {
        new ClassReader(in)
            .accept(
                new ClassVisitor(Opcodes.ASM9) {
                  @Override
                  public FieldVisitor visitField(
                      int access, String name, String descriptor, String signature, Object value) {
                    if (value != null) {
                      out.add(c.getName() + "." + name);
                    }
                    return null;
                  }
                },
                ClassReader.SKIP_CODE);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return out;
  }

  private static Map<String, Integer> sourceWords() {
    Map<String, Integer> words = new HashMap<>();
    for (Path root : List.of(Path.of("src/main/java"), Path.of("../launcher-core/src/main/java"))) {
      try (Stream<Path> files = Files.walk(root)) {
        for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
          String code =
              Files.readString(f)
                  .replaceAll("(?s)/\\*.*?\\*/", " ")
                  .replaceAll("(?m)^\\s*//.*$", " ");
          Matcher m = Pattern.compile("[A-Za-z_][A-Za-z_0-9]*").matcher(code);
          while (m.find()) {
            words.merge(m.group(), 1, Integer::sum);
          }
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    assertThat(words).as("main sources read").containsKey("ShellQuote");
    return words;
  }

  private static List<JavaMember> members(JavaClass c) {
    List<JavaMember> ms = new ArrayList<>();
    if (c.getModifiers().contains(JavaModifier.SYNTHETIC)) {
      return ms;
    }
    ms.addAll(c.getMethods());
    ms.addAll(c.getConstructors());
    ms.addAll(c.getFields());
    ms.removeIf(m -> m.getModifiers().contains(JavaModifier.SYNTHETIC));
    return ms;
  }

  private static String key(JavaMember m) {
    String n = m instanceof JavaConstructor ? "<init>" : m.getName();
    return m.getOwner().getName().substring("dev.clusterrun.".length()) + "." + n;
  }

  private static boolean used(JavaMember m, Set<JavaClass> reflective) {
    JavaClass owner = m.getOwner();
    if (m.getAnnotations().stream().anyMatch(UnusedMemberTest::byLibrary)) {
      return true; // picocli injects or calls it; Jackson reads it
    }
    if (m instanceof JavaField) {
      JavaField f = (JavaField) m;
      if (owner.isEnum() && f.getRawType().equals(owner)) {
        return true; // an enum constant: a value of its type, read by name (valueOf, JSON)
      }
      if (f.getName().equals("serialVersionUID")) {
        return true;
      }
      if (CONSTANTS.contains(f.getFullName())) {
        // The compiler copies a constant's value into every use: look for its name in the sources.
        return SOURCE_WORDS.getOrDefault(f.getName(), 0) > 1;
      }
      return f.getAccessesToSelf().stream()
          .anyMatch(a -> a.getAccessType() == JavaFieldAccess.AccessType.GET);
    }
    JavaCodeUnit u = (JavaCodeUnit) m;
    for (JavaAccess<?> a : u.getAccessesToSelf()) {
      if (!a.getOrigin().equals(u)) {
        return true;
      }
    }
    if (u instanceof JavaConstructor) {
      // picocli makes it; or a private one is the non-instantiable idiom of a static-only class
      boolean noArgs = u.getRawParameterTypes().isEmpty();
      return noArgs
          && (reflective.contains(owner) || u.getModifiers().contains(JavaModifier.PRIVATE));
    }
    String n = u.getName();
    if (n.equals("main") && u.getModifiers().contains(JavaModifier.STATIC)) {
      return true;
    }
    if (owner.isEnum() && (n.equals("values") || n.equals("valueOf"))) {
      return true; // made by the compiler
    }
    if (owner.isRecord()
        && u.getRawParameterTypes().isEmpty()
        && owner.getFields().stream().anyMatch(f -> f.getName().equals(n))) {
      return true; // a record component's accessor: Jackson serializes through it
    }
    return overrides((JavaMethod) u);
  }

  /** Overrides or implements a method of a supertype (by name and parameter count). */
  private static boolean overrides(JavaMethod m) {
    if (m.getModifiers().contains(JavaModifier.STATIC)
        || m.getModifiers().contains(JavaModifier.PRIVATE)) {
      return false;
    }
    Deque<Class<?>> todo = new ArrayDeque<>();
    Class<?> c = m.getOwner().reflect();
    todo.add(c);
    Set<Class<?>> seen = new HashSet<>();
    while (!todo.isEmpty()) {
      Class<?> t = todo.pop();
      if (!seen.add(t)) {
        continue;
      }
      if (t != c) {
        for (Method sm : t.getDeclaredMethods()) {
          if (sm.getName().equals(m.getName())
              && sm.getParameterCount() == m.getRawParameterTypes().size()
              && !Modifier.isStatic(sm.getModifiers())
              && !Modifier.isPrivate(sm.getModifiers())) {
            return true;
          }
        }
      }
      if (t.getSuperclass() != null) {
        todo.add(t.getSuperclass());
      }
      todo.addAll(List.of(t.getInterfaces()));
    }
    return false;
  }

  private static boolean byLibrary(JavaAnnotation<?> a) {
    String p = a.getRawType().getPackageName();
    return p.startsWith("picocli") || p.startsWith("com.fasterxml.jackson");
  }

  /**
   * Classes picocli makes through their no-argument constructor: commands, mixins, and the classes
   * named in its annotations (version providers, parameter consumers, completion candidates).
   */
  private static Set<JavaClass> instantiatedByPicocli() {
    Set<JavaClass> out = new HashSet<>();
    for (JavaClass c : ArchitectureTest.CLASSES) {
      List<JavaAnnotation<?>> annotations = new ArrayList<>(c.getAnnotations());
      for (JavaMember m : members(c)) {
        annotations.addAll(m.getAnnotations());
        if (m instanceof JavaField
            && m.getAnnotations().stream().anyMatch(UnusedMemberTest::byLibrary)) {
          out.add(((JavaField) m).getRawType());
        }
      }
      for (JavaAnnotation<?> a : annotations) {
        if (!a.getRawType().getPackageName().startsWith("picocli")) {
          continue;
        }
        if (a.getRawType().getSimpleName().equals("Command")) {
          out.add(c);
        }
        for (Object v : a.getProperties().values()) {
          Object[] vs = v instanceof Object[] ? (Object[]) v : new Object[] {v};
          for (Object o : vs) {
            if (o instanceof JavaClass) {
              out.add((JavaClass) o);
            }
          }
        }
      }
    }
    return out;
  }
}
