package dev.clusterrun.core.image;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A netrc file as enroot's {@code .credentials} is read: enroot first replaces a password written
 * from the sixth field on as {@code $…} by the shell's {@code echo} of it ({@code
 * common::evalnetrc}), then curl reads the file: {@code machine NAME}, {@code default}, {@code
 * login}, {@code password}, {@code account}, {@code macdef NAME} (its lines, up to an empty one,
 * skipped), tokens separated by white space or double-quoted with {@code \"} {@code \\} {@code \n}
 * {@code \r} {@code \t} escapes, and {@code #} lines as comments.
 *
 * <p>A {@code $NAME} or {@code ${NAME}} password is taken from the environment given; one that is a
 * command ({@code $(…)}) is not run: its machine's credentials are then {@link Credentials#usable()
 * unusable} here.
 */
public final class Netrc {
  /** A machine's login and password. */
  public record Credentials(String login, String password) {
    /** False when enroot would run a command for the password, which clusterrun does not. */
    public boolean usable() {
      return login != null && password != null;
    }

    @Override
    public String toString() {
      return "Credentials[login="
          + login
          + ", password="
          + (password == null ? "none" : "***")
          + "]";
    }
  }

  private static final Pattern VARIABLE = Pattern.compile("\\$(?:\\{(\\w+)\\}|(\\w+))");

  /** Stands for a password enroot makes by running a command: never a real token. */
  private static final String COMMAND = "\u0000command";

  private final Map<String, Credentials> machines;
  private final Credentials fallback;

  private Netrc(Map<String, Credentials> machines, Credentials fallback) {
    this.machines = machines;
    this.fallback = fallback;
  }

  /** An empty file: no machine. */
  public static Netrc empty() {
    return new Netrc(Map.of(), null);
  }

  /** {@link #read(Path, Map)} without an environment: {@code $NAME} passwords are unusable. */
  public static Netrc read(Path file) throws IOException {
    return read(file, Map.of());
  }

  /**
   * Reads the file; a missing file has no machine.
   *
   * @param environment for {@code $NAME} passwords
   */
  public static Netrc read(Path file, Map<String, String> environment) throws IOException {
    String text;
    try {
      text = Files.readString(file);
    } catch (NoSuchFileException e) {
      return empty();
    }
    return parse(text, environment);
  }

  /** Parses netrc text. */
  static Netrc parse(String text, Map<String, String> environment) {
    Map<String, Credentials> machines = new LinkedHashMap<>();
    Credentials fallback = null;
    List<String> tokens = tokens(text, environment);
    String machine = null;
    boolean isDefault = false;
    String login = null;
    String password = null;
    for (int i = 0; i <= tokens.size(); i++) {
      String t = i < tokens.size() ? tokens.get(i) : null;
      if (t == null || t.equals("machine") || t.equals("default")) {
        if (isDefault && fallback == null) {
          fallback = credentials(login, password);
        } else if (machine != null) {
          machines.putIfAbsent(machine, credentials(login, password));
        }
        if (t == null) {
          break;
        }
        isDefault = t.equals("default");
        machine = isDefault || i + 1 >= tokens.size() ? null : tokens.get(++i);
        login = null;
        password = null;
      } else if (t.equals("login") && i + 1 < tokens.size()) {
        login = tokens.get(++i);
      } else if (t.equals("password") && i + 1 < tokens.size()) {
        password = tokens.get(++i);
      } else if (t.equals("account") && i + 1 < tokens.size()) {
        i++;
      }
    }
    return new Netrc(machines, fallback);
  }

  private static Credentials credentials(String login, String password) {
    return new Credentials(login, COMMAND.equals(password) ? null : password);
  }

  /** The tokens of the file, enroot's password substitution done and macdefs left out. */
  private static List<String> tokens(String text, Map<String, String> environment) {
    List<String> out = new ArrayList<>();
    String[] lines = text.split("\r?\n", -1);
    for (int n = 0; n < lines.length; n++) {
      String line = lines[n];
      if (line.strip().startsWith("#")) {
        continue;
      }
      List<String> words = split(line);
      int macdef = words.indexOf("macdef");
      if (macdef >= 0) {
        out.addAll(words.subList(0, macdef));
        while (n + 1 < lines.length && !lines[n + 1].isBlank()) {
          n++;
        }
        continue;
      }
      List<String> fields = List.of(line.strip().split("[ \t]+"));
      if (fields.size() >= 6 && fields.get(5).startsWith("$")) {
        out.addAll(words.subList(0, Math.min(5, words.size())));
        out.add(substitute(restFrom(line, 5), environment));
      } else {
        out.addAll(words);
      }
    }
    return out;
  }

  /** What enroot's {@code echo} makes of a {@code $…} password, or {@link #COMMAND}. */
  private static String substitute(String rest, Map<String, String> environment) {
    Matcher m = VARIABLE.matcher(rest.strip());
    if (m.matches()) {
      String name = m.group(1) != null ? m.group(1) : m.group(2);
      String v = environment.get(name);
      return v == null ? COMMAND : v;
    }
    return COMMAND;
  }

  /** The line from its field {@code n} (counting from 0) on. */
  private static String restFrom(String line, int n) {
    Matcher m = Pattern.compile("^[ \t]*(?:[^ \t]+[ \t]+){" + n + "}").matcher(line);
    return m.find() ? line.substring(m.end()) : "";
  }

  /** A line's tokens: white-space separated, or double-quoted with backslash escapes. */
  private static List<String> split(String line) {
    List<String> words = new ArrayList<>();
    int i = 0;
    while (i < line.length()) {
      char c = line.charAt(i);
      if (c == ' ' || c == '\t' || c == '\r') {
        i++;
        continue;
      }
      StringBuilder w = new StringBuilder();
      if (c == '"') {
        i++;
        while (i < line.length() && line.charAt(i) != '"') {
          char d = line.charAt(i++);
          if (d == '\\' && i < line.length()) {
            char e = line.charAt(i++);
            w.append(e == 'n' ? '\n' : e == 'r' ? '\r' : e == 't' ? '\t' : e);
          } else {
            w.append(d);
          }
        }
        i++;
      } else {
        while (i < line.length() && " \t\r".indexOf(line.charAt(i)) < 0) {
          w.append(line.charAt(i++));
        }
      }
      words.add(w.toString());
    }
    return words;
  }

  /** The credentials of {@code host} (without a port), else those of {@code default}. */
  public Optional<Credentials> machine(String host) {
    Credentials c = machines.get(host);
    return Optional.ofNullable(c != null ? c : fallback);
  }

  /** Whether the file names {@code host} itself ({@code default} does not count). */
  public boolean names(String host) {
    return machines.containsKey(host);
  }
}
