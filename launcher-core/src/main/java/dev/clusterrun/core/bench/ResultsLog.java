package dev.clusterrun.core.bench;

import dev.clusterrun.core.BadInputException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.MalformedInputException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * The workspace's history of runs: {@code results.jsonl}, one {@link ResultsJson} object per line,
 * appended after each run and read back for {@code clusterrun results}. A damaged line does not
 * hide the others: it comes back as a problem naming the file and line.
 */
public final class ResultsLog {
  public static final String FILE_NAME = "results.jsonl";

  private final Path file;

  public ResultsLog(Path file) {
    this.file = file;
  }

  /** The log in a workspace directory ({@code <workspace>/results.jsonl}). */
  public static ResultsLog inWorkspace(Path workspace) {
    return new ResultsLog(workspace.resolve(FILE_NAME));
  }

  public Path file() {
    return file;
  }

  /** What {@link #read} found: the readable results in file order and the unreadable lines. */
  public record Contents(List<BenchResult> results, List<String> problems) {
    public Contents {
      results = List.copyOf(results);
      problems = List.copyOf(problems);
    }
  }

  /**
   * Appends one line. The line goes out in a single write to a file opened for append, so
   * concurrent runs in one workspace do not interleave within a line.
   */
  public void append(BenchResult result) throws IOException {
    Path dir = file.toAbsolutePath().getParent();
    if (dir != null) {
      Files.createDirectories(dir);
    }
    byte[] line = (ResultsJson.toJsonLine(result) + "\n").getBytes(StandardCharsets.UTF_8);
    try (FileChannel ch =
        FileChannel.open(
            file, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.APPEND)) {
      ByteBuffer buf = ByteBuffer.wrap(line);
      while (buf.hasRemaining()) {
        ch.write(buf);
      }
    }
  }

  /**
   * Why this log cannot be read or appended to, as a problem to follow a subject, or null: the
   * workspace is a file, or {@code results.jsonl} is a directory.
   */
  public String problem() {
    Path dir = file.toAbsolutePath().getParent();
    if (dir != null && Files.exists(dir) && !Files.isDirectory(dir)) {
      return dir + " is a file, not a workspace directory";
    }
    if (Files.exists(file) && !Files.isRegularFile(file)) {
      return file
          + " is "
          + (Files.isDirectory(file) ? "a directory" : "not a regular file")
          + "; the results log must be a file (move it away, and runs append to a new one)";
    }
    return null;
  }

  /**
   * Reads every line; a missing log is an empty history.
   *
   * @throws BadInputException when the log is not a readable file ({@link #problem})
   */
  public Contents read() throws IOException {
    String problem = problem();
    if (problem != null) {
      throw new BadInputException(file.toString(), problem);
    }
    List<String> lines;
    try {
      lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    } catch (NoSuchFileException e) {
      return new Contents(List.of(), List.of());
    } catch (MalformedInputException e) {
      throw new BadInputException(file.toString(), "not UTF-8 text; is this a results log?");
    } catch (AccessDeniedException e) {
      throw new BadInputException(file.toString(), "permission denied");
    }
    List<BenchResult> results = new ArrayList<>();
    List<String> problems = new ArrayList<>();
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i);
      if (line.isBlank()) {
        continue;
      }
      try {
        results.add(ResultsJson.fromJson(line, file + ":" + (i + 1)));
      } catch (BadInputException e) {
        problems.add(e.getMessage());
      }
    }
    return new Contents(results, problems);
  }
}
