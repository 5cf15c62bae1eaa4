package dev.clusterrun.core.image;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.clusterrun.core.BadInputException;
import dev.clusterrun.core.Columns;
import dev.clusterrun.core.ExitCode;
import dev.clusterrun.core.WorkspaceDir;
import dev.clusterrun.core.image.ImageCache.Entry;
import dev.clusterrun.core.spec.ByteSize;
import dev.clusterrun.core.spec.Durations;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** {@code clusterrun images} and {@code images prune}: the workspace's image cache, for people. */
public final class ImagesFlow {
  private static final ObjectMapper MAPPER =
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  private ImagesFlow() {}

  /**
   * The workspace's image cache; a workspace (or its images folder) that is not a folder is bad
   * input.
   */
  private static ImageCache cache(WorkspaceDir where) {
    Path ws = where.path();
    for (Path p : List.of(ws, ws.resolve(ImageCache.DIR))) {
      if (Files.exists(p) && !Files.isDirectory(p)) {
        throw new BadInputException(where.subject(), p + " is not a directory");
      }
    }
    return ImageCache.inWorkspace(ws);
  }

  public record ListRequest(WorkspaceDir where, boolean json) {}

  /**
   * @param olderThan an age ({@code 30m}, {@code 12h}, {@code 7d}, {@code 2w}) or null
   * @param all every image no running job uses
   */
  public record PruneRequest(WorkspaceDir where, String olderThan, boolean all, boolean json) {}

  public static ImagesOutcome list(ListRequest rq) throws IOException {
    Clock clock = Clock.systemUTC();
    ImageCache cache = cache(rq.where());
    List<Entry> entries = cache.list();
    List<String> notes = problems(entries);
    if (rq.json()) {
      ArrayNode a = MAPPER.createArrayNode();
      entries.forEach(e -> a.add(json(e)));
      return new ImagesOutcome(List.of(MAPPER.writeValueAsString(a)), notes, ExitCode.OK.value());
    }
    if (entries.isEmpty()) {
      notes.add("no images cached in " + cache.dir());
      return new ImagesOutcome(List.of(), notes, ExitCode.OK.value());
    }
    long total = entries.stream().mapToLong(Entry::size).sum();
    notes.add(
        entries.size()
            + (entries.size() == 1 ? " image, " : " images, ")
            + ByteSize.human(total)
            + " in "
            + cache.dir());
    return new ImagesOutcome(table(entries, clock.instant()), notes, ExitCode.OK.value());
  }

  public static ImagesOutcome prune(PruneRequest rq) throws IOException {
    Duration age = null;
    if (rq.olderThan() != null) {
      if (rq.all()) {
        throw new BadInputException("--older-than", "contradicts --all; give only one of them");
      }
      age = Durations.age(rq.olderThan().strip());
      if (age == null) {
        throw new BadInputException(
            "--older-than",
            "expected an age such as 30m, 12h, 7d or 2w, got '" + rq.olderThan() + "'");
      }
    } else if (!rq.all()) {
      throw new BadInputException(
          "images prune", "say what to remove: --older-than AGE (e.g. 7d) or --all");
    }
    Clock clock = Clock.systemUTC();
    ImageCache cache = cache(rq.where());
    ImageCache.Pruned p = cache.prune(age, rq.all());
    List<String> notes = problems(p.removed());
    notes.addAll(problems(p.kept()));
    for (Entry k : p.kept()) {
      notes.add(
          "kept "
              + references(k)
              + " ("
              + digest(k)
              + "): a running job uses it, or it is being imported");
    }
    long freed = p.removed().stream().mapToLong(Entry::size).sum();
    if (rq.json()) {
      ObjectNode o = MAPPER.createObjectNode();
      ArrayNode removed = o.putArray("removed");
      p.removed().forEach(e -> removed.add(json(e)));
      ArrayNode kept = o.putArray("kept");
      p.kept().forEach(e -> kept.add(json(e)));
      o.put("freed", freed);
      return new ImagesOutcome(List.of(MAPPER.writeValueAsString(o)), notes, ExitCode.OK.value());
    }
    notes.add(
        p.removed().isEmpty()
            ? "nothing to remove in " + cache.dir()
            : "removed "
                + p.removed().size()
                + (p.removed().size() == 1 ? " image, " : " images, ")
                + ByteSize.human(freed)
                + " freed");
    return new ImagesOutcome(
        p.removed().isEmpty() ? List.of() : table(p.removed(), clock.instant()),
        notes,
        ExitCode.OK.value());
  }

  private static List<String> problems(List<Entry> entries) {
    List<String> out = new ArrayList<>();
    for (Entry e : entries) {
      if (e.problem() != null) {
        out.add(e.problem());
      }
    }
    return out;
  }

  private static ObjectNode json(Entry e) {
    ObjectNode o = MAPPER.createObjectNode();
    e.references().forEach(o.putArray("references")::add);
    o.put("digest", e.digest());
    o.put("file", e.file().toString());
    o.put("size", e.size());
    o.put("imported", e.imported().toString());
    o.put("lastUsed", e.lastUsed().toString());
    o.put("inUse", e.inUse());
    if (e.problem() != null) {
      o.put("problem", e.problem());
    }
    return o;
  }

  /** REFERENCE, DIGEST (short), SIZE, LAST USED (an age), IN USE; columns padded. */
  static List<String> table(List<Entry> entries, Instant now) {
    List<String[]> rows = new ArrayList<>();
    rows.add(new String[] {"REFERENCE", "DIGEST", "SIZE", "LAST USED", "IN USE"});
    for (Entry e : entries) {
      rows.add(
          new String[] {
            references(e),
            digest(e),
            ByteSize.human(e.size()),
            ago(Duration.between(e.lastUsed(), now)),
            e.inUse() ? "yes" : "no"
          });
    }
    return Columns.align(rows, "");
  }

  private static String references(Entry e) {
    return e.references().isEmpty()
        ? "(unknown)"
        : BadInputException.visible(String.join(",", e.references()));
  }

  /** The digest as people compare it: {@code sha256:} and its first 12 hex digits. */
  private static String digest(Entry e) {
    return e.isLegacy() ? "(before digests)" : e.digest().substring(0, 7 + 12);
  }

  static String ago(Duration d) {
    long s = Math.max(0, d.toSeconds());
    if (s < 60) {
      return "just now";
    }
    if (s < 3600) {
      return s / 60 + "m ago";
    }
    if (s < 86400) {
      return s / 3600 + "h ago";
    }
    return s / 86400 + "d ago";
  }
}
