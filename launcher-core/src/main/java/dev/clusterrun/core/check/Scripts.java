package dev.clusterrun.core.check;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/** Shared pieces of the small scripts the checks send to nodes. */
final class Scripts {
  static final String BEGIN = "@clusterrun-begin";
  static final String END = "@clusterrun-end";

  /** Defines {@code kv KEY VALUE}, which prints an escaped {@code KEY=VALUE} line. */
  static final String KV = resource("kv.sh");

  private Scripts() {}

  static String resource(String name) {
    try (InputStream in = Scripts.class.getResourceAsStream(name)) {
      if (in == null) {
        throw new IllegalStateException(name + " missing from the class path");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Wraps a body so its output can be told from shell noise. */
  static String wrap(String body) {
    return KV + "printf '%s\\n' '" + BEGIN + "'\n" + body + "\nprintf '%s\\n' '" + END + "'\n";
  }

  static KeyValues.Parsed parse(String stdout) {
    return KeyValues.parse(stdout, BEGIN, END);
  }
}
