package dev.clusterrun.core.spec;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.exc.StreamReadException;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;
import dev.clusterrun.core.BadInputException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.reader.ReaderException;

/**
 * A YAML document read with Jackson's streaming YAML parser (no databind) into a small tree that
 * remembers where every key and value stood, keeps the raw text of every scalar (so {@code 010}
 * stays {@code 010} and {@code yes} stays {@code yes}), and refuses duplicate keys, aliases and
 * multiple documents. Used by the job spec and by benchmark references, through {@link YamlReader}.
 */
public final class YamlTree {
  private static final YAMLFactory FACTORY = new YAMLFactory();

  /**
   * The most characters (Unicode code points) a job spec may hold: 3 MiB, the limit of the YAML
   * reader ({@code LoaderOptions.codePointLimit}), checked first so the message can say so.
   */
  static final int MAX_CODE_POINTS = 3 * 1024 * 1024;

  /** How deep maps and lists may nest; the deepest job spec field is 4 levels down. */
  static final int MAX_DEPTH = 32;

  private YamlTree() {}

  /**
   * What kind of file a document is, for its messages: {@code name} as in "a job spec is one
   * document", {@code deepest} the most levels of maps and lists its deepest field is nested in.
   */
  public record Kind(String name, int deepest) {
    public static final Kind JOB_SPEC = new Kind("job spec", 4);
  }

  /** A node and where it starts (1-based line and column). */
  public sealed interface Node permits Scalar, MapNode, Seq {
    int line();

    int column();
  }

  /**
   * A scalar. {@code token} is Jackson's reading of it under YAML 1.1 rules (VALUE_STRING for
   * quoted scalars and plain text, VALUE_NUMBER_INT, VALUE_TRUE for {@code yes}, VALUE_NULL for an
   * empty value or {@code ~}); {@code text} is the scalar as written.
   */
  public record Scalar(JsonToken token, String text, int line, int column) implements Node {
    public boolean isNull() {
      return token == JsonToken.VALUE_NULL;
    }
  }

  public record Entry(String key, int line, int column, Node value) {}

  /** A mapping, keys in file order. */
  public record MapNode(Map<String, Entry> entries, int line, int column) implements Node {}

  public record Seq(List<Node> items, int line, int column) implements Node {}

  /**
   * Reads one YAML document.
   *
   * @return the root, or null when the document is empty (nothing, comments, or a lone {@code ~})
   * @throws BadInputException for a syntax error, a duplicate key, an alias or a second document
   */
  public static Node read(String yaml, String source, Kind kind) {
    if (yaml.length() > MAX_CODE_POINTS
        && yaml.codePointCount(0, yaml.length()) > MAX_CODE_POINTS) {
      throw new BadInputException(
          source,
          "too large: "
              + yaml.codePointCount(0, yaml.length())
              + " characters; a "
              + kind.name()
              + " may hold at most "
              + MAX_CODE_POINTS
              + " (3 MiB)");
    }
    try (JsonParser p = FACTORY.createParser(yaml)) {
      JsonToken t = p.nextToken();
      if (t == null) {
        return null;
      }
      Node root = value(p, source, kind, "", 0);
      if (p.nextToken() != null) {
        JsonLocation l = p.currentTokenLocation();
        throw new BadInputException(
            source + ":" + l.getLineNr() + ":" + l.getColumnNr(),
            "a second YAML document (after '---'); a " + kind.name() + " is one document");
      }
      if (root instanceof Scalar s && s.isNull()) {
        return null;
      }
      return root;
    } catch (StreamReadException e) {
      throw syntaxError(e, yaml, source, kind);
    } catch (IOException e) {
      // Only the reader's other limits (StreamReadConstraints) land here: the text is in memory.
      throw new BadInputException(
          source,
          "invalid YAML: beyond what a " + kind.name() + " may hold (" + limitWords(e) + ")",
          e);
    }
  }

  private static String limitWords(IOException e) {
    String m = e.getMessage() == null ? "" : e.getMessage();
    int api = m.indexOf(", from `");
    return api > 0 ? m.substring(0, api) + ")" : m;
  }

  private static Node value(JsonParser p, String source, Kind kind, String path, int depth)
      throws IOException {
    JsonToken t = p.currentToken();
    JsonLocation loc = p.currentTokenLocation();
    int line = loc.getLineNr();
    int col = loc.getColumnNr();
    if ((t == JsonToken.START_OBJECT || t == JsonToken.START_ARRAY) && depth >= MAX_DEPTH) {
      throw new BadInputException(
          source + ":" + line + ":" + col,
          "maps and lists nested more than "
              + MAX_DEPTH
              + " levels deep; no "
              + kind.name()
              + " field is deeper than "
              + kind.deepest());
    }
    if (t == JsonToken.START_OBJECT) {
      Map<String, Entry> entries = new LinkedHashMap<>();
      while ((t = p.nextToken()) != JsonToken.END_OBJECT) {
        String key = p.currentName();
        JsonLocation kl = p.currentTokenLocation();
        String child = path.isEmpty() ? key : path + "." + key;
        Entry first = entries.get(key);
        if (first != null) {
          throw new BadInputException(
              source + ":" + kl.getLineNr() + ":" + kl.getColumnNr() + ": " + child,
              "duplicate key '" + key + "' (first at line " + first.line() + ")");
        }
        p.nextToken();
        Node v = value(p, source, kind, child, depth + 1);
        entries.put(key, new Entry(key, kl.getLineNr(), kl.getColumnNr(), v));
      }
      return new MapNode(Collections.unmodifiableMap(entries), line, col);
    }
    if (t == JsonToken.START_ARRAY) {
      List<Node> items = new ArrayList<>();
      while (p.nextToken() != JsonToken.END_ARRAY) {
        items.add(value(p, source, kind, path + "[" + items.size() + "]", depth + 1));
      }
      return new Seq(List.copyOf(items), line, col);
    }
    if (p instanceof YAMLParser yp && yp.isCurrentAlias()) {
      throw new BadInputException(
          source + ":" + line + ":" + col + (path.isEmpty() ? "" : ": " + path),
          "YAML aliases ('*" + p.getText() + "') are not supported; write the value out");
    }
    String text = t == JsonToken.VALUE_NULL ? "" : p.getText();
    return new Scalar(t, text == null ? "" : text, line, col);
  }

  /**
   * Turns the YAML reader's complaint into clusterrun's words, at the place it names: {@code
   * FILE:LINE:COLUMN}, never the reader's token names ({@code <block end>}) or its limits' API.
   */
  private static BadInputException syntaxError(
      StreamReadException e, String yaml, String source, Kind kind) {
    Throwable cause = e.getCause();
    if (cause instanceof MarkedYAMLException m && m.getProblemMark() != null) {
      return marked(m, source, kind, e);
    }
    if (cause instanceof ReaderException r) {
      int[] at = lineColumn(yaml, r.getPosition());
      return new BadInputException(
          source + ":" + at[0] + ":" + at[1],
          "invalid YAML: the control character "
              + codePoint(r.getCodePoint())
              + " is not allowed in YAML text (is this a text file?)",
          e);
    }
    JsonLocation l = e.getLocation();
    int line = l == null ? 0 : l.getLineNr();
    int col = l == null ? 0 : l.getColumnNr();
    String problem = e.getOriginalMessage();
    if (problem != null && problem.startsWith("Expected a field name")) {
      problem = "a key must be a plain word, not a list or a map";
    } else if (cause != null && cause.getMessage() != null) {
      problem = cause.getMessage();
    }
    String subject = line > 0 ? source + ":" + line + ":" + col : source;
    return new BadInputException(subject, "invalid YAML: " + problem, e);
  }

  private static BadInputException marked(
      MarkedYAMLException m, String source, Kind kind, Exception e) {
    Mark mark = m.getProblemMark();
    Mark cm = m.getContextMark();
    String problem = m.getProblem() == null ? "" : m.getProblem();
    String context = m.getContext() == null ? "" : m.getContext();
    String ctxAt =
        cm == null ? "" : " at line " + (cm.getLine() + 1) + ", column " + (cm.getColumn() + 1);
    Mark at = mark;
    String words = null;
    String found = foundToken(problem);
    if (problem.contains("(TAB)") || problem.contains("tab character")) {
      words = "a tab character; YAML indents with spaces only";
    } else if (context.startsWith("while parsing a flow sequence")
        && problem.startsWith("expected ',' or ']'")
        && cm != null) {
      words = "the '['" + ctxAt + " is not closed with ']' (or a ',' is missing)";
    } else if (context.startsWith("while parsing a flow mapping")
        && problem.startsWith("expected ',' or '}'")
        && cm != null) {
      words = "the '{'" + ctxAt + " is not closed with '}' (or a ',' is missing)";
    } else if (problem.startsWith("expected <block end>") && found != null) {
      words = blockEnd(context, ctxAt, found);
    } else if (problem.startsWith("expected the node content") && found != null) {
      words =
          found.equals("]") || found.equals("}")
              ? "a '" + found + "' that closes nothing; a value was expected here"
              : "a value was expected here, found " + tokenWords(found);
    } else if (problem.startsWith("mapping values are not allowed here")) {
      words =
          "a ': ' where no key can start; a value that contains ': ' must be quoted, and a"
              + " nested map goes on the next lines, indented under its key (check the"
              + " indentation of this line and the one above)";
    } else if (problem.startsWith("sequence entries are not allowed here")) {
      words =
          "a '- ' list item where no list can start; put the list on the next lines, indented"
              + " under its key, or write it as [a, b]";
    } else if (problem.startsWith("mapping keys are not allowed here")) {
      words = "a '? ' key where no key can start; quote the value if it starts with '?'";
    } else if (problem.startsWith("could not find expected ':'") && cm != null) {
      at = cm;
      words =
          "a line without ':'; every line of a map is 'key: value' (a value that goes on over"
              + " several lines must be indented more than its key)";
    } else if (problem.startsWith("found unexpected end of stream")
        && context.contains("quoted scalar")
        && cm != null) {
      at = cm;
      words = "this quote is never closed";
    } else if (problem.startsWith("found unknown escape character")) {
      String c = problem.substring("found unknown escape character".length()).strip();
      int paren = c.indexOf('(');
      c = paren > 0 ? c.substring(0, paren) : c;
      words =
          "'\\"
              + c
              + "' is not an escape sequence of double-quoted YAML text; write '\\\\' for a"
              + " backslash, or use single quotes, where '\\' is an ordinary character";
    } else if (problem.startsWith("expected escape sequence of")) {
      words =
          "a '\\x', '\\u' or '\\U' escape without enough hexadecimal digits; write '\\\\'"
              + " for a backslash, or use single quotes";
    } else if (problem.startsWith("found character '")
        && problem.length() > "found character '".length()) {
      char c = problem.charAt("found character '".length());
      words = "a plain value cannot start with '" + c + "'; put the value in quotes";
    } else if (context.startsWith("while scanning an anchor")
        || context.startsWith("while scanning an alias")) {
      words =
          "YAML anchors and aliases ('&name', '*name') are not supported; put a value that"
              + " starts with '&' or '*' in quotes";
    } else if (problem.startsWith("found unexpected document separator")) {
      words = "a '---' inside a quoted value; a " + kind.name() + " is one document";
    } else if (problem.startsWith("expected '<document start>'")) {
      words = "text after the end of the document ('...'); a " + kind.name() + " is one document";
    }
    if (words == null) {
      // Anything rarer: the reader's words, with its token names spelled out.
      words = problem;
      for (Map.Entry<String, String> t : TOKEN_WORDS.entrySet()) {
        words =
            words.replace("'" + t.getKey() + "'", t.getValue()).replace(t.getKey(), t.getValue());
      }
      if (cm != null && cm.getLine() != mark.getLine()) {
        words += " (in the block starting" + ctxAt + ")";
      }
    }
    return new BadInputException(
        source + ":" + (at.getLine() + 1) + ":" + (at.getColumn() + 1),
        "invalid YAML: " + words,
        e);
  }

  /** What {@code expected <block end>, but found X} means: something the indentation refuses. */
  private static String blockEnd(String context, String ctxAt, String found) {
    boolean inList = context.startsWith("while parsing a block collection");
    String block = (inList ? "the list" : "the map") + ctxAt;
    return switch (found) {
      case "<block mapping start>", "<block sequence start>" ->
          "this line's indentation matches no block above it: the "
              + (inList ? "items of " : "keys of ")
              + block
              + " start in one column, and what belongs to "
              + (inList ? "an item" : "a key")
              + " is indented more";
      case "?" ->
          inList
              ? "a key among the items of "
                  + block
                  + "; each item starts with '- ' (indent the key to put it inside an item, or"
                  + " move it left to the map the list belongs to)"
              : "a key in a column no key of " + block + " uses; line it up with the other keys";
      case "-" ->
          "a '- ' list item among the keys of "
              + block
              + "; a list belongs under a key, on the next lines, indented ('key:' then '  - item')";
      case "<scalar>" ->
          "unexpected text; the value before it has ended (put a value that goes on in quotes,"
              + " and start each key on a new line as 'key: value')";
      case "]", "}" -> "a '" + found + "' that closes nothing";
      default -> "unexpected " + tokenWords(found) + " in " + block;
    };
  }

  /** The token in the reader's {@code but found 'X'}, or null. */
  private static String foundToken(String problem) {
    int i = problem.indexOf("but found '");
    if (i < 0) {
      return null;
    }
    int start = i + "but found '".length();
    int end = problem.lastIndexOf('\'');
    return end > start ? problem.substring(start, end) : null;
  }

  private static String tokenWords(String token) {
    String w = TOKEN_WORDS.get(token);
    return w != null ? w : "'" + token + "'";
  }

  /** The YAML reader's token names, as a person would say them. */
  private static final Map<String, String> TOKEN_WORDS =
      Map.ofEntries(
          Map.entry("<block end>", "the end of an indented block"),
          Map.entry("<block mapping start>", "a new map"),
          Map.entry("<block sequence start>", "a new list"),
          Map.entry("<scalar>", "a value"),
          Map.entry("<document start>", "'---'"),
          Map.entry("<document end>", "'...'"),
          Map.entry("<stream end>", "the end of the file"),
          Map.entry("<alias>", "an alias ('*name')"),
          Map.entry("<anchor>", "an anchor ('&name')"),
          Map.entry("<tag>", "a tag ('!name')"),
          Map.entry("<directive>", "a directive ('%...')"));

  /** 1-based line and column of a code-point index into {@code text}. */
  static int[] lineColumn(String text, int codePointIndex) {
    int line = 1;
    int col = 1;
    int i = 0;
    for (int n = 0; n < codePointIndex && i < text.length(); n++) {
      int c = text.codePointAt(i);
      i += Character.charCount(c);
      if (c == '\n' || (c == '\r' && (i >= text.length() || text.charAt(i) != '\n'))) {
        line++;
        col = 1;
      } else if (c != '\r') {
        col++;
      }
    }
    return new int[] {line, col};
  }

  static String codePoint(int c) {
    return String.format(Locale.ROOT, "U+%04X", c);
  }
}
