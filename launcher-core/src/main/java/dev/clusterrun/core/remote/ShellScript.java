package dev.clusterrun.core.remote;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A POSIX {@code sh} script that clusterrun sends or writes, kept as a resource beside the class
 * that uses it (like {@code check/facts.sh}): the script text never changes with the input. Values
 * reach it only as positional parameters, set by a first line {@code set -- WORD...} whose words
 * are quoted with {@link ShellQuote}. Every such resource is checked by shellcheck in the build.
 */
public final class ShellScript {
  private final String body;

  private ShellScript(String body) {
    this.body = body;
  }

  /**
   * The resource {@code name} in the package of {@code anchor}.
   *
   * @throws IllegalStateException when it is missing from the class path (a broken build)
   */
  public static ShellScript load(Class<?> anchor, String name) {
    return new ShellScript(text(anchor, name));
  }

  /**
   * The text of the resource {@code name} in the package of {@code anchor}, for a script that takes
   * no positional parameters or is put together with others (the checks' scripts).
   *
   * @throws IllegalStateException when it is missing from the class path (a broken build)
   */
  public static String text(Class<?> anchor, String name) {
    try (InputStream in = anchor.getResourceAsStream(name)) {
      if (in == null) {
        throw new IllegalStateException(name + " missing from the class path");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * {@link #text} without the comment lines it opens with: for a script that people see whole as
   * part of a command ({@code running: …}, {@code ps}), where its header would only be noise.
   *
   * @throws IllegalStateException when it is missing from the class path (a broken build)
   */
  public static String code(Class<?> anchor, String name) {
    String t = text(anchor, name);
    int at = 0;
    while (t.startsWith("#", at)) {
      int nl = t.indexOf('\n', at);
      at = nl < 0 ? t.length() : nl + 1;
    }
    return t.substring(at);
  }

  /**
   * This script followed by {@code next}: a script of shell functions put before the script that
   * calls them (as {@code launch/run-processes.sh} before the scripts that find a run's processes).
   */
  public ShellScript then(ShellScript next) {
    return new ShellScript(body + next.body);
  }

  /** The script preceded by {@code set --} with {@code args}: its {@code $1}, {@code $2}, ... */
  public String with(List<String> args) {
    return setLine(args) + "\n" + body;
  }

  /**
   * The script preceded by {@code set --} with {@code args} and then the script's own positional
   * parameters ({@code "$@"}): for a script file run as {@code sh FILE ARG...}.
   */
  public String before(List<String> args) {
    return setLine(args) + " \"$@\"\n" + body;
  }

  private static String setLine(List<String> args) {
    List<String> words = new ArrayList<>(args.size() + 2);
    words.add("set");
    words.add("--");
    words.addAll(args);
    return ShellQuote.join(words);
  }
}
