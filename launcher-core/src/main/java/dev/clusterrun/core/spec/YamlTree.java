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
import java.util.Map;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;

/**
 * A YAML document read with Jackson's streaming YAML parser (no databind) into a small tree that
 * remembers where every key and value stood, keeps the raw text of every scalar (so {@code 010}
 * stays {@code 010} and {@code yes} stays {@code yes}), and refuses duplicate keys, aliases and
 * multiple documents. Used by the job spec and by benchmark references.
 */
public final class YamlTree {
  private static final YAMLFactory FACTORY = new YAMLFactory();

  private YamlTree() {}

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
  public static Node read(String yaml, String source) {
    try (JsonParser p = FACTORY.createParser(yaml)) {
      JsonToken t = p.nextToken();
      if (t == null) {
        return null;
      }
      Node root = value(p, source, "");
      if (p.nextToken() != null) {
        JsonLocation l = p.currentTokenLocation();
        throw new BadInputException(
            source + ":" + l.getLineNr() + ":" + l.getColumnNr(),
            "a second YAML document (after '---'); a job spec is one document");
      }
      if (root instanceof Scalar s && s.isNull()) {
        return null;
      }
      return root;
    } catch (StreamReadException e) {
      throw syntaxError(e, source);
    } catch (IOException e) {
      throw new BadInputException(source, "cannot be read: " + e.getMessage(), e);
    }
  }

  private static Node value(JsonParser p, String source, String path) throws IOException {
    JsonToken t = p.currentToken();
    JsonLocation loc = p.currentTokenLocation();
    int line = loc.getLineNr();
    int col = loc.getColumnNr();
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
        Node v = value(p, source, child);
        entries.put(key, new Entry(key, kl.getLineNr(), kl.getColumnNr(), v));
      }
      return new MapNode(Collections.unmodifiableMap(entries), line, col);
    }
    if (t == JsonToken.START_ARRAY) {
      List<Node> items = new ArrayList<>();
      while (p.nextToken() != JsonToken.END_ARRAY) {
        items.add(value(p, source, path + "[" + items.size() + "]"));
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

  private static BadInputException syntaxError(StreamReadException e, String source) {
    int line;
    int col;
    String problem;
    if (e.getCause() instanceof MarkedYAMLException m && m.getProblemMark() != null) {
      Mark mark = m.getProblemMark();
      line = mark.getLine() + 1;
      col = mark.getColumn() + 1;
      problem = m.getProblem();
      if (problem.contains("(TAB)")) {
        problem = "a tab character; YAML indents with spaces only";
      }
      Mark cm = m.getContextMark();
      String context = m.getContext() == null ? "" : m.getContext();
      boolean unclosedSeq =
          context.startsWith("while parsing a flow sequence")
              && problem.startsWith("expected ',' or ']'");
      boolean unclosedMap =
          context.startsWith("while parsing a flow mapping")
              && problem.startsWith("expected ',' or '}'");
      if ((unclosedSeq || unclosedMap) && cm != null) {
        problem =
            "the '"
                + (unclosedSeq ? "[" : "{")
                + "' at line "
                + (cm.getLine() + 1)
                + ", column "
                + (cm.getColumn() + 1)
                + " is not closed with '"
                + (unclosedSeq ? "]" : "}")
                + "' (or a ',' is missing)";
      } else if (m.getContext() != null && cm != null && cm.getLine() != mark.getLine()) {
        problem +=
            " ("
                + m.getContext()
                + " at line "
                + (cm.getLine() + 1)
                + ", column "
                + (cm.getColumn() + 1)
                + ")";
      } else if (m.getContext() != null) {
        problem += " (" + m.getContext() + ")";
      }
    } else {
      JsonLocation l = e.getLocation();
      line = l == null ? 0 : l.getLineNr();
      col = l == null ? 0 : l.getColumnNr();
      problem = e.getOriginalMessage();
      if (problem != null && problem.startsWith("Expected a field name")) {
        problem = "a key must be a plain word, not a list or a map";
      }
    }
    String subject = line > 0 ? source + ":" + line + ":" + col : source;
    return new BadInputException(subject, "invalid YAML: " + problem, e);
  }
}
