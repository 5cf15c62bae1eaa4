package dev.clusterrun.core;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Locale;

/** Reads a file a person named, turning every failure into a {@link BadInputException}. */
public final class InputFiles {
  private InputFiles() {}

  /** The most a file may hold when the caller gives no limit: 16 MiB. */
  public static final int DEFAULT_MAX_BYTES = 16 * 1024 * 1024;

  /**
   * Reads a UTF-8 text file of at most {@link #DEFAULT_MAX_BYTES}.
   *
   * @param what what the file should be, for "is a directory, not a hostfile"
   * @throws BadInputException with the path as given for subject
   */
  public static String read(Path file, String what) {
    return read(file, file.toString(), what, DEFAULT_MAX_BYTES);
  }

  /**
   * Reads a UTF-8 text file; pipes ({@code <(…)}) work too, as only {@code maxBytes} are ever read.
   *
   * @param subject how to name the file when it cannot be read at all (missing, a directory, too
   *     large), e.g. {@code --nodes hosts.txt}; a problem inside the file is named by the path and
   *     its line and column
   * @param what what the file should be, for "is a directory, not a hostfile"
   * @param maxBytes the most the file may hold
   * @throws BadInputException naming the subject, or {@code PATH:LINE:COLUMN} for bytes that are
   *     not UTF-8
   */
  public static String read(Path file, String subject, String what, int maxBytes) {
    byte[] bytes;
    try (InputStream in = Files.newInputStream(file)) {
      bytes = in.readNBytes(maxBytes + 1);
    } catch (NoSuchFileException e) {
      throw new BadInputException(subject, "no such file", e);
    } catch (AccessDeniedException e) {
      throw new BadInputException(subject, "permission denied", e);
    } catch (IOException e) {
      if (Files.isDirectory(file)) {
        throw new BadInputException(subject, "is a directory, not " + what, e);
      }
      throw new BadInputException(subject, "cannot be read: " + e.getMessage(), e);
    }
    if (bytes.length > maxBytes) {
      throw new BadInputException(
          subject, "larger than " + size(maxBytes) + ", the most " + what + " may hold");
    }
    return utf8(bytes, file.toString());
  }

  /**
   * Decodes UTF-8, naming the first byte that is not: {@code PATH:LINE:COLUMN}, its offset and
   * value.
   */
  static String utf8(byte[] bytes, String name) {
    CharsetDecoder d =
        StandardCharsets.UTF_8
            .newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT);
    ByteBuffer in = ByteBuffer.wrap(bytes);
    CharBuffer out = CharBuffer.allocate(bytes.length + 1);
    CoderResult r = d.decode(in, out, true);
    if (!r.isError()) {
      r = d.flush(out);
    }
    if (r.isError()) {
      int offset = in.position();
      int line = 1;
      int lineStart = 0;
      for (int i = 0; i < offset; i++) {
        if (bytes[i] == '\n') {
          line++;
          lineStart = i + 1;
        }
      }
      String before = new String(bytes, lineStart, offset - lineStart, StandardCharsets.UTF_8);
      int column = before.codePointCount(0, before.length()) + 1;
      String problem =
          offset + r.length() >= bytes.length && r.isMalformed() && isLead(bytes[offset])
              ? "the file ends inside a UTF-8 character"
              : String.format(
                  Locale.ROOT,
                  "byte 0x%02X (at byte offset %d) is not valid UTF-8",
                  bytes[offset],
                  offset);
      throw new BadInputException(
          name + ":" + line + ":" + column,
          problem + "; the file must be UTF-8 text (convert it, e.g. with iconv -t UTF-8)");
    }
    out.flip();
    return out.toString();
  }

  private static boolean isLead(byte b) {
    return (b & 0xC0) == 0xC0;
  }

  private static String size(int bytes) {
    return bytes % (1024 * 1024) == 0
        ? bytes / (1024 * 1024) + " MiB"
        : bytes % 1024 == 0 ? bytes / 1024 + " KiB" : bytes + " bytes";
  }
}
