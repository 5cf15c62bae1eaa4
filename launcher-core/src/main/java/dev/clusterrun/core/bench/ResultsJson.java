package dev.clusterrun.core.bench;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.ValueInstantiationException;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.clusterrun.core.AtomicFiles;
import dev.clusterrun.core.BadInputException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * {@code results.json}: one {@link BenchResult} as a JSON object whose first field is {@code
 * schemaVersion}, followed by the record's fields under their record names; times are ISO-8601
 * instants ({@code 2026-11-21T05:54:03Z}). Absent values are written as {@code null}, so every file
 * has every field. Readers accept fields they do not know (a newer minor writer) but refuse a newer
 * {@code schemaVersion}.
 */
public final class ResultsJson {
  /** Bump when a field changes meaning or disappears; adding a field does not need a bump. */
  public static final int SCHEMA_VERSION = 1;

  public static final String FILE_NAME = "results.json";

  private static final ObjectMapper MAPPER = mapper();

  private ResultsJson() {}

  private static ObjectMapper mapper() {
    SimpleModule times = new SimpleModule("instants");
    times.addSerializer(
        Instant.class,
        new JsonSerializer<>() {
          @Override
          public void serialize(Instant value, JsonGenerator gen, SerializerProvider p)
              throws IOException {
            gen.writeString(value.toString());
          }
        });
    times.addDeserializer(
        Instant.class,
        new JsonDeserializer<>() {
          @Override
          public Instant deserialize(JsonParser parser, DeserializationContext ctx)
              throws IOException {
            String text = parser.getValueAsString();
            try {
              return text == null ? null : Instant.parse(text);
            } catch (DateTimeParseException e) {
              throw ctx.weirdStringException(text, Instant.class, "not an ISO-8601 instant");
            }
          }
        });
    return new ObjectMapper()
        .registerModule(times)
        .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
        .disable(SerializationFeature.FAIL_ON_EMPTY_BEANS);
  }

  static ObjectNode tree(BenchResult r) {
    ObjectNode node = MAPPER.createObjectNode();
    node.put("schemaVersion", SCHEMA_VERSION);
    node.setAll((ObjectNode) MAPPER.valueToTree(r));
    return node;
  }

  /** Pretty-printed JSON with a final newline, as written to {@code results.json}. */
  public static String toJson(BenchResult r) {
    try {
      return MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(tree(r)) + "\n";
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write a result as JSON", e);
    }
  }

  /** The same object on one line, without a newline: one line of a results log. */
  public static String toJsonLine(BenchResult r) {
    try {
      return MAPPER.writeValueAsString(tree(r));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write a result as JSON", e);
    }
  }

  /**
   * Reads one result.
   *
   * @param source how to name the text in messages, e.g. {@code baseline.json} or {@code
   *     results.jsonl:7}
   * @throws BadInputException when the text is not a result of a schema this code knows
   */
  public static BenchResult fromJson(String json, String source) {
    JsonNode node;
    try {
      node = MAPPER.readTree(json);
    } catch (JsonProcessingException e) {
      throw new BadInputException(source, "not valid JSON: " + e.getOriginalMessage());
    }
    if (node == null || !node.isObject()) {
      throw new BadInputException(source, "expected a JSON object with a benchmark result");
    }
    JsonNode version = node.get("schemaVersion");
    if (version == null || !version.canConvertToInt()) {
      throw new BadInputException(source, "no schemaVersion; not a clusterrun results file");
    }
    if (version.asInt() > SCHEMA_VERSION) {
      throw new BadInputException(
          source,
          "schemaVersion "
              + version.asInt()
              + " is newer than this clusterrun reads ("
              + SCHEMA_VERSION
              + "); upgrade clusterrun");
    }
    ObjectNode fields = ((ObjectNode) node).deepCopy();
    fields.remove("schemaVersion");
    for (String required : new String[] {"preset", "verdict"}) {
      if (!fields.hasNonNull(required)) {
        throw new BadInputException(source, "missing field '" + required + "'");
      }
    }
    try {
      return MAPPER.treeToValue(fields, BenchResult.class);
    } catch (JsonProcessingException | IllegalArgumentException e) {
      throw new BadInputException(source, "not a valid result: " + explain(e));
    }
  }

  /**
   * Jackson's failure in words for people: the field and what it should hold, never a Java class
   * name.
   */
  static String explain(Exception e) {
    Throwable cause = e.getCause();
    if (e instanceof ValueInstantiationException && cause != null) {
      // The record refused the values (e.g. FAILED without a reason).
      return cause.getMessage();
    }
    if (e instanceof JsonMappingException m) {
      String field = field(m);
      String where = field.isEmpty() ? "" : "field '" + field + "': ";
      if (m instanceof InvalidFormatException f) {
        return where + "'" + f.getValue() + "' is not " + expected(f.getTargetType());
      }
      if (m instanceof MismatchedInputException mi && mi.getTargetType() != null) {
        return where + "expected " + expected(mi.getTargetType());
      }
      return where + "does not hold a value of the right kind";
    }
    return e.getMessage();
  }

  private static String field(JsonMappingException m) {
    StringBuilder b = new StringBuilder();
    for (JsonMappingException.Reference r : m.getPath()) {
      if (r.getFieldName() != null) {
        b.append(b.length() == 0 ? "" : ".").append(r.getFieldName());
      } else if (r.getIndex() >= 0) {
        b.append('[').append(r.getIndex()).append(']');
      }
    }
    return b.toString();
  }

  private static String expected(Class<?> type) {
    if (type == null) {
      return "a value of the right kind";
    }
    if (type.isEnum()) {
      List<String> names = new ArrayList<>();
      for (Object c : type.getEnumConstants()) {
        names.add(((Enum<?>) c).name());
      }
      return "one of " + String.join(", ", names);
    }
    if (Number.class.isAssignableFrom(type) || type.isPrimitive()) {
      return "a number";
    }
    if (type == String.class) {
      return "text";
    }
    if (type == Instant.class) {
      return "an ISO-8601 instant such as 2026-11-21T05:54:03Z";
    }
    if (Collection.class.isAssignableFrom(type)) {
      return "a list";
    }
    return "an object";
  }

  /** Writes {@code results.json} atomically (a temporary file in the same folder, then a move). */
  public static void write(Path file, BenchResult r) throws IOException {
    AtomicFiles.write(file, toJson(r));
  }

  /**
   * Reads a {@code results.json}.
   *
   * @throws BadInputException naming the file when it is missing or not a result
   */
  public static BenchResult read(Path file) {
    String text;
    try {
      text = Files.readString(file, StandardCharsets.UTF_8);
    } catch (NoSuchFileException e) {
      throw new BadInputException(file.toString(), "no such file");
    } catch (IOException e) {
      throw new BadInputException(file.toString(), "cannot read: " + e.getMessage(), e);
    }
    return fromJson(text, file.toString());
  }
}
