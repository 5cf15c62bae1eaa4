package dev.clusterrun;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.thirdparty.org.objectweb.asm.ClassReader;
import com.tngtech.archunit.thirdparty.org.objectweb.asm.ClassVisitor;
import com.tngtech.archunit.thirdparty.org.objectweb.asm.Label;
import com.tngtech.archunit.thirdparty.org.objectweb.asm.MethodVisitor;
import com.tngtech.archunit.thirdparty.org.objectweb.asm.Opcodes;
import com.tngtech.archunit.thirdparty.org.objectweb.asm.Type;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * No method of launcher-core is longer than {@value #LIMIT} source lines: from the first to the
 * last line its code sits on (the class files' line tables), the lambdas written inside it counted
 * as its own lines. A constructor counts from its own first line, not the field initializers the
 * compiler copies into it.
 */
class MethodLengthTest {
  static final int LIMIT = 100;

  /** One method as the class file tells it: its name, its parameters, its lines. */
  static final class Span {
    final String name;
    final String params;
    final boolean lambda;
    int first = Integer.MAX_VALUE;
    int last = Integer.MIN_VALUE;

    Span(String name, String descriptor, boolean lambda) {
      this.name = name;
      this.params =
          Stream.of(Type.getArgumentTypes(descriptor))
              .map(t -> t.getClassName().replaceAll(".*[.$]", ""))
              .collect(Collectors.joining(", "));
      this.lambda = lambda;
    }

    void line(int n, boolean firstEntry) {
      if (name.equals("<init>") && !firstEntry && n < first) {
        return; // a field initializer above the constructor, copied into it by the compiler
      }
      first = Math.min(first, n);
      last = Math.max(last, n);
    }

    int length() {
      return first > last ? 0 : last - first + 1;
    }

    /** The method a lambda named {@code lambda$NAME$N} was written in. */
    String enclosing() {
      String n = name.substring("lambda$".length(), name.lastIndexOf('$'));
      return n.equals("new") ? "<init>" : n;
    }
  }

  @Test
  void everyCoreMethodIsAtMostTheLimit() throws IOException {
    List<String> tooLong = new ArrayList<>();
    for (JavaClass c : ArchitectureTest.CLASSES) {
      if (!c.getPackageName().startsWith("dev.clusterrun.core")) {
        continue;
      }
      for (Span s : methods(c.getName())) {
        if (s.length() > LIMIT) {
          tooLong.add(
              String.format(
                  "%s.%s(%s): %d lines (%d-%d)",
                  c.getName(), s.name, s.params, s.length(), s.first, s.last));
        }
      }
    }
    assertThat(tooLong)
        .as("methods of launcher-core longer than %d lines; split them", LIMIT)
        .isEmpty();
  }

  @Test
  void aLambdaCountsTowardItsMethod() throws IOException {
    List<Span> spans = methods(Sample.class.getName());
    Span m = spans.stream().filter(s -> s.name.equals("withLambda")).findFirst().orElseThrow();
    assertThat(m.length()).isEqualTo(6);
  }

  /** For {@link #aLambdaCountsTowardItsMethod}: the lambda's body ends the method. */
  static final class Sample {
    static Runnable withLambda() {
      return () -> {
        System.getenv("A");
        System.getenv("B");
        System.getenv("C");
        System.getenv("D");
      };
    }
  }

  /**
   * The source methods of a class, each with its lambdas' lines; compiler-made methods left out.
   */
  static List<Span> methods(String className) throws IOException {
    List<Span> all = new ArrayList<>();
    try (InputStream in =
        MethodLengthTest.class
            .getClassLoader()
            .getResourceAsStream(className.replace('.', '/') + ".class")) {
      assertThat(in).as("class file of %s", className).isNotNull();
      new ClassReader(in).accept(new Collector(all), ClassReader.SKIP_FRAMES);
    }
    List<Span> methods = all.stream().filter(s -> !s.lambda).collect(Collectors.toList());
    for (Span l : all) {
      if (!l.lambda) {
        continue;
      }
      // Written in the method of its name that starts last before it (overloads, nested lambdas
      // named after the same method); a lambda of a static initializer has none and is left out.
      methods.stream()
          .filter(m -> m.name.equals(l.enclosing()) && m.first <= l.first)
          .max(Comparator.comparingInt(m -> m.first))
          .ifPresent(
              m -> {
                m.first = Math.min(m.first, l.first);
                m.last = Math.max(m.last, l.last);
              });
    }
    return methods;
  }

  private static final class Collector extends ClassVisitor {
    private final List<Span> spans;

    Collector(List<Span> spans) {
      super(Opcodes.ASM9);
      this.spans = spans;
    }

    @Override
    public MethodVisitor visitMethod(
        int access, String name, String descriptor, String signature, String[] exceptions) {
      boolean lambda = name.startsWith("lambda$");
      boolean compilerMade = (access & (Opcodes.ACC_SYNTHETIC | Opcodes.ACC_BRIDGE)) != 0;
      if (name.equals("<clinit>") || (compilerMade && !lambda)) {
        return null;
      }
      Span s = new Span(name, descriptor, lambda);
      spans.add(s);
      return new MethodVisitor(Opcodes.ASM9) {
        boolean firstEntry = true;

        @Override
        public void visitLineNumber(int line, Label start) {
          s.line(line, firstEntry);
          firstEntry = false;
        }
      };
    }
  }
}
