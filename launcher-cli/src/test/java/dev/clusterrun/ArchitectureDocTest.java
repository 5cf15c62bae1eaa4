package dev.clusterrun;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaMember;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import picocli.CommandLine.Command;

/**
 * docs/architecture.md names the code as it is: every class it writes as code ({@code
 * `RunAttempt`}, {@code `remote.ShellScript`}, {@code `Session.Reach`}) exists, in the package it
 * says and with the members it names ({@code `RunAttempt.open`}); and every command class of the
 * CLI is in it.
 */
class ArchitectureDocTest {
  static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
  static final Path DOC = ROOT.resolve("docs/architecture.md");

  /** Code in the doc's text. */
  static final Pattern CODE = Pattern.compile("`([^`\\n]+)`");

  /** A type's name: a capital, then at least one small letter (not a constant such as DIRECT). */
  static final Pattern TYPE = Pattern.compile("[A-Z][A-Za-z0-9]*[a-z][A-Za-z0-9]*");

  /** A package's name, or a part of one ({@code remote}, {@code core.session}). */
  static final Pattern PACKAGE_PART = Pattern.compile("[a-z][a-z0-9]*");

  /** Code that names a file, not a class ({@code Help.properties}, {@code check/facts.sh}). */
  static final Pattern FILE =
      Pattern.compile(".*\\.(sh|md|properties|json|yaml|yml|log|deb|txt|conf|xml|java)");

  /** Names the doc writes as code that are not classes of clusterrun: OpenSSH's option. */
  static final Set<String> NOT_OURS = Set.of("ControlPath");

  @Test
  void everyClassTheDocNamesExistsWithTheMembersItNames() throws IOException {
    Map<String, List<JavaClass>> main = mainClassesBySimpleName();
    Set<String> tests = testClassNames();
    List<String> wrong = new ArrayList<>();
    Set<String> named = new LinkedHashSet<>();
    for (String code : codeInDoc()) {
      String problem = check(code, main, tests, named);
      if (problem != null) {
        wrong.add("`" + code + "`: " + problem);
      }
    }
    assertThat(named).as("the doc names classes (the test reads it)").contains("RunAttempt");
    assertThat(wrong).as("docs/architecture.md names what the code no longer has").isEmpty();
  }

  @Test
  void everyCommandClassIsInTheDoc() throws IOException {
    Set<String> code = new LinkedHashSet<>(codeInDoc());
    List<String> commands =
        ArchitectureTest.CLASSES.stream()
            .filter(c -> c.getPackageName().equals("dev.clusterrun.cli"))
            .filter(c -> c.isAnnotatedWith(Command.class))
            .map(JavaClass::getSimpleName)
            .filter(n -> !n.equals("BaseCommand") && !n.equals("RootCommand"))
            .sorted()
            .toList();
    assertThat(commands).as("the CLI's command classes").contains("RunCommand", "ScreenCommand");
    assertThat(commands.stream().filter(c -> !code.contains(c)).toList())
        .as("command classes docs/architecture.md does not name (as `NameCommand`)")
        .isEmpty();
  }

  /**
   * Null when {@code code} names nothing or names what exists; else what is missing. The code is
   * read as {@code [package.]Type[.Nested][.member[/member]]}; anything else (flags, paths, shell,
   * constants) names no class.
   */
  static String check(
      String code, Map<String, List<JavaClass>> main, Set<String> tests, Set<String> named) {
    if (!code.matches("[A-Za-z0-9_.#/]+") || FILE.matcher(code).matches()) {
      return null;
    }
    String[] parts = code.split("[.#]");
    int i = 0;
    List<String> pkg = new ArrayList<>();
    while (i < parts.length && PACKAGE_PART.matcher(parts[i]).matches()) {
      pkg.add(parts[i++]);
    }
    if (i == parts.length || !TYPE.matcher(parts[i]).matches()) {
      return null;
    }
    String type = parts[i++];
    if (NOT_OURS.contains(type) || isLibraryClass(type)) {
      return null;
    }
    named.add(type);
    List<JavaClass> found = main.get(type);
    if (found == null) {
      return tests.contains(type) && i == parts.length && pkg.isEmpty()
          ? null
          : "no class " + type + " in launcher-core or launcher-cli";
    }
    String suffix = pkg.isEmpty() ? "" : "." + String.join(".", pkg);
    List<JavaClass> inPackage =
        found.stream().filter(c -> c.getPackageName().endsWith(suffix)).toList();
    if (inPackage.isEmpty()) {
      return type + " is not in a package " + String.join(".", pkg);
    }
    JavaClass c = inPackage.get(0);
    for (; i < parts.length; i++) {
      String part = parts[i];
      if (TYPE.matcher(part).matches() && nested(c, part) != null) {
        c = nested(c, part);
        continue;
      }
      for (String member : part.split("/")) {
        if (!members(c).contains(member)) {
          return c.getSimpleName() + " has no member " + member;
        }
      }
      return null;
    }
    return null;
  }

  /** A class of the JDK's java.lang or of picocli ({@code System.out}, {@code AutoComplete}). */
  private static boolean isLibraryClass(String type) {
    for (String pkg : List.of("java.lang.", "picocli.")) {
      try {
        Class.forName(pkg + type);
        return true;
      } catch (ClassNotFoundException e) {
        // not there
      }
    }
    return false;
  }

  private static JavaClass nested(JavaClass outer, String name) {
    String wanted = outer.getName() + "$" + name;
    return ArchitectureTest.CLASSES.contain(wanted) ? ArchitectureTest.CLASSES.get(wanted) : null;
  }

  private static Set<String> members(JavaClass c) {
    return c.getAllMembers().stream().map(JavaMember::getName).collect(Collectors.toSet());
  }

  private static Map<String, List<JavaClass>> mainClassesBySimpleName() {
    Map<String, List<JavaClass>> m = new HashMap<>();
    for (JavaClass c : ArchitectureTest.CLASSES) {
      if (!c.getSimpleName().isEmpty()) {
        m.computeIfAbsent(c.getSimpleName(), k -> new ArrayList<>()).add(c);
      }
    }
    return m;
  }

  /** The test classes of both modules, by simple name ({@code TestFacts}, {@code ChecksTest}). */
  private static Set<String> testClassNames() throws IOException {
    Set<String> names = new LinkedHashSet<>();
    for (String module : List.of("launcher-core", "launcher-cli")) {
      try (Stream<Path> files = Files.walk(ROOT.resolve(module).resolve("src/test/java"))) {
        files
            .map(p -> p.getFileName().toString())
            .filter(n -> n.endsWith(".java"))
            .forEach(n -> names.add(n.substring(0, n.length() - ".java".length())));
      }
    }
    return names;
  }

  /** Every piece of inline code in the doc, in order. */
  static List<String> codeInDoc() throws IOException {
    List<String> out = new ArrayList<>();
    Matcher m = CODE.matcher(Files.readString(DOC));
    while (m.find()) {
      out.add(m.group(1));
    }
    return out;
  }
}
