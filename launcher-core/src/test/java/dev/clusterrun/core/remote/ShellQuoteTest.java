package dev.clusterrun.core.remote;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Every quoted word list must come back word for word from real shells. */
class ShellQuoteTest {

  /** Hostile words: each must survive quoting unchanged. */
  static final List<String> HOSTILE =
      List.of(
          "plain",
          "",
          " ",
          "two words",
          "it's",
          "'",
          "''",
          "\"",
          "say \"hi\"",
          "$(touch /tmp/clusterrun-pwned)",
          "`touch /tmp/clusterrun-pwned`",
          "$HOME",
          "${HOME}",
          "$1",
          "$@",
          "$*",
          "$$",
          "line1\nline2",
          "\n",
          "tab\there",
          "\t",
          "a;b",
          ";",
          "a && b",
          "&&",
          "a | b",
          "|",
          "a > b",
          "<in",
          "*",
          "?",
          "[abc]",
          "/*",
          "~",
          "~root",
          "~/x",
          "#comment",
          "#",
          "!",
          "!!",
          "!$",
          "\\",
          "\\\\",
          "back\\slash",
          "trailing\\",
          "é",
          "日本語",
          "😀 emoji",
          "-n",
          "-e",
          "--",
          "-",
          "NAME=value",
          "a=b c",
          "(sub)",
          "{a,b}",
          "{}",
          "x\r\ny",
          "%s",
          "\u00a0nbsp",
          "'\"'\"'",
          "a'b\"c$d`e\\f");

  private static boolean utf8Argv() {
    return "UTF-8".equalsIgnoreCase(System.getProperty("sun.jnu.encoding"));
  }

  /** {@code printf '%s\0'} and every word of {@link #words}. */
  private static List<String> printfWords() {
    List<String> argv = new ArrayList<>(List.of("printf", "%s\\0"));
    argv.addAll(words());
    return argv;
  }

  private static List<String> words() {
    if (utf8Argv()) {
      return HOSTILE;
    }
    // Without a UTF-8 locale the JVM cannot pass non-ASCII argv to a child process at all.
    return HOSTILE.stream().filter(w -> w.chars().allMatch(c -> c < 128)).toList();
  }

  private static boolean exists(String shell) {
    return Files.isExecutable(Path.of("/bin", shell))
        || Files.isExecutable(Path.of("/usr/bin", shell));
  }

  private static Result run(List<String> argv) throws IOException, InterruptedException {
    ProcessBuilder pb = new ProcessBuilder(argv);
    pb.environment().put("LC_ALL", "C.UTF-8");
    pb.environment().put("HOME", "/nonexistent-home");
    Process p = pb.start();
    p.getOutputStream().close();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    Thread t = new Thread(() -> copy(p.getErrorStream(), err));
    t.start();
    byte[] out = p.getInputStream().readAllBytes();
    t.join();
    assertThat(p.waitFor(20, TimeUnit.SECONDS)).isTrue();
    return new Result(p.exitValue(), out, err.toString(StandardCharsets.UTF_8));
  }

  private static void copy(InputStream in, ByteArrayOutputStream out) {
    try {
      in.transferTo(out);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  record Result(int code, byte[] out, String err) {
    List<String> nulSeparated() {
      String s = new String(out, StandardCharsets.UTF_8);
      List<String> words = new ArrayList<>(Arrays.asList(s.split("\0", -1)));
      assertThat(words.remove(words.size() - 1)).isEmpty(); // printf ends every word with NUL
      return words;
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"bash", "dash", "sh"})
  void printfReturnsExactlyTheWords(String shell) throws Exception {
    assumeTrue(exists(shell), shell + " not installed");
    List<String> words = words();
    Result r = run(List.of(shell, "-c", "printf '%s\\0' " + ShellQuote.join(words)));
    assertThat(r.err()).isEmpty();
    assertThat(r.code()).isZero();
    assertThat(r.nulSeparated()).containsExactlyElementsOf(words);
    assertThat(Path.of("/tmp/clusterrun-pwned")).doesNotExist();
  }

  @ParameterizedTest
  @ValueSource(strings = {"bash", "dash", "sh"})
  void eachWordAloneSurvives(String shell) throws Exception {
    assumeTrue(exists(shell), shell + " not installed");
    for (String w : words()) {
      Result r = run(List.of(shell, "-c", "printf '%s\\0' " + ShellQuote.quote(w)));
      assertThat(r.nulSeparated()).as("word %s", w).containsExactly(w);
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"bash", "dash", "sh"})
  void joinedArgvRunsTheFirstWordAsTheCommand(String shell) throws Exception {
    assumeTrue(exists(shell), shell + " not installed");
    List<String> argv = printfWords();
    Result r = run(List.of(shell, "-c", ShellQuote.join(argv)));
    assertThat(r.code()).isZero();
    assertThat(r.nulSeparated()).containsExactlyElementsOf(words());
  }

  @ParameterizedTest
  @ValueSource(strings = {"bash", "dash", "sh"})
  void oneLineJoinIsReadAsOneLineAndEvalGivesBackEveryWord(String shell) throws Exception {
    assumeTrue(exists(shell), shell + " not installed");
    List<String> argv = printfWords();
    String line = ShellQuote.joinOnOneLine(argv, "nl");
    assertThat(line).doesNotContain("\n");
    // The line on standard input, after it a line that must not be read.
    Path in = Files.createTempFile("oneline", ".txt");
    try {
      Files.writeString(in, "exec " + line + "\nexit 99\n", StandardCharsets.UTF_8);
      Result r =
          run(
              List.of(
                  shell,
                  "-c",
                  "nl='\n'\nIFS= read -r l < \"$1\" || exit 3\neval \"$l\"",
                  shell,
                  in.toString()));
      assertThat(r.err()).isEmpty();
      assertThat(r.code()).isZero();
      assertThat(r.nulSeparated()).containsExactlyElementsOf(words());
      assertThat(Path.of("/tmp/clusterrun-pwned")).doesNotExist();
    } finally {
      Files.delete(in);
    }
  }

  @Test
  void oneLineJoinNeedsAVariableName() {
    assertThatThrownBy(() -> ShellQuote.joinOnOneLine(List.of("a"), "a b"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(ShellQuote.joinOnOneLine(List.of("a\nb", "c"), "nl")).isEqualTo("'a'\"$nl\"'b' c");
  }

  @ParameterizedTest
  @ValueSource(strings = {"bash", "dash"})
  void assignmentAsFirstWordIsACommandNotAnAssignment(String shell) throws Exception {
    assumeTrue(exists(shell), shell + " not installed");
    Result r = run(List.of(shell, "-c", ShellQuote.join(List.of("FOO=bar", "x"))));
    assertThat(r.code()).isEqualTo(127);
    assertThat(r.err()).contains("FOO=bar");
  }

  @ParameterizedTest
  @ValueSource(strings = {"if", "while", "{", "!", "until", "do"})
  void reservedWordAsFirstWordIsACommandNotSyntax(String word) throws Exception {
    Result r = run(List.of("bash", "-c", ShellQuote.join(List.of(word, "x"))));
    assertThat(r.code()).as(r.err()).isEqualTo(127);
    assertThat(r.err()).contains("command not found").doesNotContain("syntax error");
  }

  @ParameterizedTest
  @ValueSource(strings = {"bash", "dash"})
  void tildeAndGlobsAreNotExpandedEvenWhenTheyWouldMatch(String shell) throws Exception {
    assumeTrue(exists(shell), shell + " not installed");
    Result r =
        run(
            List.of(
                shell,
                "-c",
                "cd / && printf '%s\\0' " + ShellQuote.join(List.of("*", "~", "/b?n", "/[u]sr"))));
    assertThat(r.nulSeparated()).containsExactly("*", "~", "/b?n", "/[u]sr");
  }

  @org.junit.jupiter.api.Test
  void safeWordsStayReadable() {
    assertThat(ShellQuote.join(List.of("enroot", "start", "--rw", "-m", "/data:/data", "name")))
        .isEqualTo("enroot start --rw -m /data:/data name");
    assertThat(ShellQuote.join(List.of("env", "A=b", "prog"))).isEqualTo("env A=b prog");
    assertThat(ShellQuote.quote("")).isEqualTo("''");
    assertThat(ShellQuote.quote("it's")).isEqualTo("'it'\\''s'");
  }

  @org.junit.jupiter.api.Test
  void nulCannotBeQuoted() {
    assertThatThrownBy(() -> ShellQuote.quote("a\0b"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("NUL");
  }
}
