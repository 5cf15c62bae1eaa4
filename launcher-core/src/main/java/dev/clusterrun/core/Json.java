package dev.clusterrun.core;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

/** The JSON clusterrun writes for people and tools: indented, with a newline at the end. */
public final class Json {
  private static final ObjectMapper PRETTY =
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  private Json() {}

  /**
   * {@code value} (maps, lists, records, Jackson's trees) as indented JSON ending with a newline.
   *
   * @throws IllegalStateException when Jackson cannot write it (a type it does not know)
   */
  public static String pretty(Object value) {
    try {
      return PRETTY.writeValueAsString(value) + "\n";
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }
}
