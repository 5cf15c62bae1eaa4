package dev.clusterrun.core.image;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.clusterrun.core.AtomicFiles;
import dev.clusterrun.core.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;

/**
 * The record beside a cached image ({@code sha256-HEX.json}), written atomically:
 *
 * <pre>
 * {"digest": "sha256:HEX", "references": ["docker://…", …], "size": BYTES,
 *  "imported": "2026-11-27T03:50:00Z", "lastUsed": "2026-11-27T05:10:00Z"}
 * </pre>
 *
 * @param references the enroot URIs it was imported for, oldest first
 */
record CacheRecord(
    String digest, List<String> references, long size, Instant imported, Instant lastUsed) {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  CacheRecord {
    references = List.copyOf(references);
  }

  /** A record that could not be read, and why (one line, for people). */
  static final class Unreadable extends Exception {
    private static final long serialVersionUID = 1L;

    Unreadable(String message) {
      super(message);
    }
  }

  /** The same record with {@code reference} among its references (added last when new). */
  CacheRecord withReference(String reference) {
    if (reference == null || references.contains(reference)) {
      return this;
    }
    List<String> refs = new ArrayList<>(references);
    refs.add(reference);
    return new CacheRecord(digest, refs, size, imported, lastUsed);
  }

  CacheRecord usedAt(Instant when) {
    return new CacheRecord(digest, references, size, imported, when);
  }

  void write(Path file) throws IOException {
    ObjectNode o = MAPPER.createObjectNode();
    o.put("digest", digest);
    references.forEach(o.putArray("references")::add);
    o.put("size", size);
    o.put("imported", imported.toString());
    o.put("lastUsed", lastUsed.toString());
    AtomicFiles.write(file, Json.pretty(o));
  }

  /**
   * The record in {@code file}, which must be of {@code digest}.
   *
   * @throws Unreadable when it is missing, not JSON, lacks a field or is of another digest
   */
  static CacheRecord read(Path file, String digest) throws Unreadable, IOException {
    JsonNode o;
    try {
      o = MAPPER.readTree(Files.readString(file, StandardCharsets.UTF_8));
    } catch (NoSuchFileException e) {
      throw new Unreadable(file + ": missing");
    } catch (IOException e) {
      if (e instanceof JsonProcessingException) {
        throw new Unreadable(file + ": not JSON (" + firstLine(e.getMessage()) + ")");
      }
      throw e;
    }
    try {
      if (o == null || !o.isObject()) {
        throw new Unreadable(file + ": not a JSON object");
      }
      String d = text(o, "digest", file);
      if (!d.equals(digest)) {
        throw new Unreadable(file + ": holds the record of " + d + ", not of " + digest);
      }
      JsonNode refs = o.get("references");
      if (refs == null || !refs.isArray()) {
        throw new Unreadable(file + ": no list of references");
      }
      List<String> references = new ArrayList<>();
      refs.forEach(r -> references.add(r.asText()));
      JsonNode size = o.get("size");
      if (size == null || !size.canConvertToLong() || size.asLong() < 0) {
        throw new Unreadable(file + ": no size");
      }
      return new CacheRecord(
          d,
          references,
          size.asLong(),
          Instant.parse(text(o, "imported", file)),
          Instant.parse(text(o, "lastUsed", file)));
    } catch (DateTimeParseException e) {
      throw new Unreadable(file + ": a time that is not an ISO-8601 instant");
    }
  }

  private static String text(JsonNode o, String field, Path file) throws Unreadable {
    JsonNode v = o.get(field);
    if (v == null || !v.isTextual()) {
      throw new Unreadable(file + ": no " + field);
    }
    return v.asText();
  }

  private static String firstLine(String s) {
    String t = s == null ? "" : s.strip();
    int nl = t.indexOf('\n');
    return nl < 0 ? t : t.substring(0, nl);
  }
}
