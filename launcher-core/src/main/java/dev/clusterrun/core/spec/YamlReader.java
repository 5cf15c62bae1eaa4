package dev.clusterrun.core.spec;

import com.fasterxml.jackson.core.JsonToken;
import dev.clusterrun.core.BadInputException;
import dev.clusterrun.core.spec.YamlTree.Entry;
import dev.clusterrun.core.spec.YamlTree.MapNode;
import dev.clusterrun.core.spec.YamlTree.Node;
import dev.clusterrun.core.spec.YamlTree.Scalar;
import dev.clusterrun.core.spec.YamlTree.Seq;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.LongToIntFunction;

/**
 * Typed reading of one YAML file ({@link YamlTree}), the one reader of the job file and of the
 * references file. Every problem is a {@link BadInputException} whose subject is {@code
 * FILE:LINE:COLUMN: key.path} (the place of the node at fault), in one wording per kind:
 *
 * <ul>
 *   <li>unknown key: {@code unknown key 'comand'; did you mean 'command'?}, else {@code ...;
 *       expected one of: np, per-node, ... (in mpi)};
 *   <li>wrong type: {@code expected a map of settings, found a list};
 *   <li>missing key: {@code a mount needs 'source:'};
 *   <li>bad value: {@code expected a whole number of at least 1, found 0} (text found is quoted,
 *       numbers are not).
 * </ul>
 *
 * <p>Getters taking an {@link Entry} return null when the key is absent or has no value ({@code
 * key:} or {@code ~}).
 */
public final class YamlReader {
  /** Words people write for a key, mapped to the key (only suggested, never accepted). */
  private static final Map<String, String> SYNONYMS =
      Map.of(
          "destination", "target",
          "dest", "target",
          "dst", "target",
          "src", "source",
          "options", "flags",
          "environment", "env",
          "cmd", "command",
          "hosts", "hostfile",
          "ranks", "np");

  /** YAML 1.2's booleans, the only words Jackson turns into VALUE_TRUE/FALSE that are kept. */
  private static final List<String> YAML12_BOOLEANS =
      List.of("true", "True", "TRUE", "false", "False", "FALSE");

  private final String source;
  private final Map<String, List<String>> sections;

  /**
   * @param source how messages name the file
   * @param sections the known keys of each fixed section by its path ({@code ""} the top level),
   *     for {@link #section} and to suggest a key that belongs to another section
   */
  public YamlReader(String source, Map<String, List<String>> sections) {
    this.source = source;
    this.sections = sections;
  }

  // ---------------------------------------------------------------- structure

  /**
   * A section read by {@code read} from its entries once its keys are checked, or {@code empty}
   * when it is absent or empty.
   */
  public <T> T section(Entry e, String path, T empty, Function<Map<String, Entry>, T> read) {
    MapNode m = map(e, path);
    if (m == null) {
      return empty;
    }
    keys(m, path);
    return read.apply(m.entries());
  }

  /** A map of settings, or null when absent or empty. */
  public MapNode map(Entry e, String path) {
    return e == null || YamlWords.isNull(e.value())
        ? null
        : map(e.value(), path, "a map of settings");
  }

  /**
   * A map that must be there.
   *
   * @param what what is expected, for "expected WHAT, found a list"
   */
  public MapNode map(Node n, String path, String what) {
    if (n instanceof MapNode m) {
      return m;
    }
    throw expected(n, path, what);
  }

  /** A list, or null when absent or empty. */
  public Seq list(Entry e, String path) {
    if (e == null || YamlWords.isNull(e.value())) {
      return null;
    }
    if (e.value() instanceof Seq s) {
      return s;
    }
    String example =
        e.value() instanceof Scalar s
            ? "; write it as a list, e.g. [" + YamlWords.flowWord(s.text()) + "]"
            : "";
    throw error(
        e.value(), path, "expected a list, found " + YamlWords.describe(e.value()) + example);
  }

  /** A list of scalar words, kept as written, or null when absent or empty. */
  public List<String> words(Entry e, String path) {
    Seq seq = list(e, path);
    if (seq == null) {
      return null;
    }
    List<String> out = new ArrayList<>();
    for (int i = 0; i < seq.items().size(); i++) {
      Node n = seq.items().get(i);
      String p = path + "[" + i + "]";
      if (n instanceof MapNode m && m.entries().size() == 1) {
        Entry only = m.entries().values().iterator().next();
        String shown =
            only.value() instanceof Scalar s ? only.key() + "=" + s.text() : only.key() + "=…";
        throw error(
            n,
            p,
            "expected a word, found a map ('"
                + only.key()
                + ": …'); a ': ' makes a map in YAML, write '"
                + shown
                + "' or quote the word");
      }
      if (!(n instanceof Scalar s) || s.isNull()) {
        throw expected(n, p, "a word");
      }
      out.add(s.text());
    }
    return List.copyOf(out);
  }

  /** The entry for a key that must be there: {@code a reference needs 'metrics:'}. */
  public Entry required(MapNode m, String key, String path, String noun) {
    Entry e = m.entries().get(key);
    if (e == null) {
      throw needs(m, path, noun, key);
    }
    return e;
  }

  /** The one wording of a missing key, at {@code at}. */
  public BadInputException needs(Node at, String path, String noun, String key) {
    return error(at, path, noun + " needs '" + key + ":'");
  }

  /** Refuses every key of {@code m} that its section (by {@code path}) does not know. */
  public void keys(MapNode m, String path) {
    keys(m, path, sections.get(path));
  }

  /** Refuses every key of {@code m} not in {@code allowed}. */
  public void keys(MapNode m, String path, List<String> allowed) {
    for (Entry e : m.entries().values()) {
      if (!allowed.contains(e.key())) {
        throw unknown(e, path.isEmpty() ? e.key() : path + "." + e.key(), "key", allowed, path);
      }
    }
  }

  /**
   * The one wording of a name that is not known here (a key, a preset): with the nearest known
   * name, a synonym's, or the one in another section, else every name known here.
   *
   * @param within the path of the map it is in, for "(in mpi)"
   */
  public BadInputException unknown(
      Entry e, String path, String what, List<String> allowed, String within) {
    Optional<String> here = DidYouMean.suggest(e.key(), allowed);
    String synonym = SYNONYMS.get(e.key().toLowerCase(Locale.ROOT));
    if (here.isEmpty() && synonym != null && allowed.contains(synonym)) {
      here = Optional.of(synonym);
    }
    if (here.isEmpty()) {
      here = elsewhere(e.key(), within);
    }
    String hint =
        here.map(s -> "; did you mean '" + s + "'?")
            .orElse(
                "; expected one of: "
                    + String.join(", ", allowed)
                    + (within.isEmpty() ? "" : " (in " + within + ")"));
    return error(e, path, "unknown " + what + " '" + e.key() + "'" + hint);
  }

  /** A key that is right in another section, e.g. {@code image} at the top level. */
  private Optional<String> elsewhere(String key, String path) {
    String k = key.toLowerCase(Locale.ROOT).replace('_', '-');
    for (Map.Entry<String, List<String>> s : sections.entrySet()) {
      if (s.getKey().equals(path)) {
        continue;
      }
      for (String candidate : s.getValue()) {
        if (candidate.equals(k) && !sections.containsKey(candidate)) {
          return Optional.of(s.getKey().isEmpty() ? candidate : s.getKey() + "." + candidate);
        }
      }
    }
    return Optional.empty();
  }

  // ---------------------------------------------------------------- scalars

  /** The text of a single value, or null when absent or empty. */
  public String string(Entry e, String path) {
    return e == null || YamlWords.isNull(e.value()) ? null : scalar(e.value(), path).text();
  }

  /** A single value that must be there. */
  public Scalar scalar(Node n, String path) {
    if (n instanceof Scalar s && !s.isNull()) {
      return s;
    }
    throw expected(n, path, "a single value");
  }

  /** A text value checked by its one rule ({@link SettingRules}), or null when absent. */
  public <T> T checked(Entry e, String path, Function<String, T> rule) {
    String s = string(e, path);
    if (s == null) {
      return null;
    }
    try {
      return rule.apply(s);
    } catch (IllegalArgumentException ex) {
      throw error(e.value(), path, ex.getMessage());
    }
  }

  /** One of {@code words}: {@code expected strict or accept-new, found 'x'; did you mean ...}. */
  public String choice(Entry e, String path, List<String> words) {
    String s = string(e, path);
    if (s == null || words.contains(s)) {
      return s;
    }
    String last = words.get(words.size() - 1);
    String all = String.join(", ", words.subList(0, words.size() - 1));
    throw error(
        e.value(),
        path,
        "expected "
            + (words.size() > 2 ? "one of " + all + " or " : all + " or ")
            + last
            + ", found '"
            + s
            + "'"
            + DidYouMean.hint(s, words));
  }

  /** A whole number (unquoted) checked by {@code rule}, or null when absent. */
  public Integer integer(Entry e, String path, LongToIntFunction rule) {
    if (e == null || YamlWords.isNull(e.value())) {
      return null;
    }
    Node n = e.value();
    if (n instanceof Scalar s
        && s.token() == JsonToken.VALUE_NUMBER_INT
        && YamlWords.WHOLE.matcher(s.text()).matches()) {
      String t = s.text();
      long v;
      try {
        v = Long.parseLong(t.startsWith("+") ? t.substring(1) : t);
      } catch (NumberFormatException tooLong) {
        v = t.startsWith("-") ? Long.MIN_VALUE : Long.MAX_VALUE;
      }
      try {
        return rule.applyAsInt(v);
      } catch (IllegalArgumentException ex) {
        throw error(n, path, ex.getMessage().replace("found " + v, "found " + YamlWords.clip(t)));
      }
    }
    throw error(n, path, "expected a whole number, found " + YamlWords.describeNumeric(n));
  }

  /**
   * {@code true} or {@code false} as YAML 1.2 has them (also {@code True}, {@code TRUE}, {@code
   * False}, {@code FALSE}); YAML 1.1's {@code yes}/{@code no}/{@code on}/{@code off} are refused
   * with a hint, since YAML readers disagree on them.
   */
  public Boolean bool(Entry e, String path) {
    if (e == null || YamlWords.isNull(e.value())) {
      return null;
    }
    Node n = e.value();
    if (n instanceof Scalar s) {
      boolean yaml12 = YAML12_BOOLEANS.contains(s.text());
      if ((s.token() == JsonToken.VALUE_TRUE || s.token() == JsonToken.VALUE_FALSE) && yaml12) {
        return s.token() == JsonToken.VALUE_TRUE;
      }
      String why = YamlWords.notBoolean(s, yaml12);
      if (why != null) {
        throw error(n, path, "expected true or false, found " + why);
      }
    }
    throw expected(n, path, "true or false");
  }

  /** A duration above 0 ({@code 500ms}, {@code 10s}, {@code 2m}, whole seconds), or null. */
  public Duration duration(Entry e, String path) {
    if (e == null || YamlWords.isNull(e.value())) {
      return null;
    }
    Node n = e.value();
    if (n instanceof Scalar s) {
      String t = s.text();
      Duration d = null;
      if (s.token() == JsonToken.VALUE_NUMBER_INT) {
        d = Durations.seconds(t);
      } else if (s.token() == JsonToken.VALUE_STRING) {
        d = Durations.withUnit(t);
      }
      if (d != null) {
        if (d.isZero()) {
          throw error(n, path, "expected a duration greater than 0, found " + t);
        }
        return d;
      }
    }
    throw error(
        n,
        path,
        "expected a duration such as 500ms, 10s or 2m (or whole seconds), found "
            + YamlWords.describeNumeric(n));
  }

  // ---------------------------------------------------------------- places

  /** {@code FILE:LINE:COLUMN} of a node. */
  public String where(Node n) {
    return source + ":" + n.line() + ":" + n.column();
  }

  /** {@code FILE:LINE:COLUMN} of a key. */
  public String where(Entry e) {
    return source + ":" + e.line() + ":" + e.column();
  }

  /** The value {@code n} is not {@code what}: "expected WHAT, found" what it is, at the value. */
  public BadInputException expected(Node n, String path, String what) {
    return error(n, path, "expected " + what + ", found " + YamlWords.describe(n));
  }

  /** A problem with a value, at the value. */
  public BadInputException error(Node n, String path, String problem) {
    return errorAt(n.line(), n.column(), path, problem);
  }

  /** A problem with a key (unknown, not a valid name), at the key. */
  public BadInputException error(Entry e, String path, String problem) {
    return errorAt(e.line(), e.column(), path, problem);
  }

  private BadInputException errorAt(int line, int column, String path, String problem) {
    return new BadInputException(
        source + ":" + line + ":" + column + (path.isEmpty() ? "" : ": " + path), problem);
  }
}
