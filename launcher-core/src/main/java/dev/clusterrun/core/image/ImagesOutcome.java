package dev.clusterrun.core.image;

import java.util.List;

/**
 * How an {@code images} command ended.
 *
 * @param stdout lines for stdout (the table, or JSON)
 * @param notes lines for people (stderr): damaged records, images kept, the totals
 */
public record ImagesOutcome(List<String> stdout, List<String> notes, int exitCode) {
  public ImagesOutcome {
    stdout = List.copyOf(stdout);
    notes = List.copyOf(notes);
  }
}
