package dev.clusterrun.core.screen;

import dev.clusterrun.core.launch.LaunchOutcome;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How a screen ended: judged ({@code verdict}), or stopped by a launch that could not run ({@code
 * failed}, its outcome) or by nodes that gave no figure ({@code notRun}, node → why, in hostfile
 * order); {@code notes} say what was written (the hostfile, JUnit XML, the results log).
 */
public record ScreenOutcome(
    int exitCode,
    ScreenJudge.Verdict verdict,
    LaunchOutcome failed,
    Map<String, String> notRun,
    List<String> notes) {
  public ScreenOutcome {
    notRun = notRun == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(notRun));
    notes = notes == null ? List.of() : List.copyOf(notes);
  }

  /** What goes to stdout: the verdict as a table, or JSON; nothing when nothing was judged. */
  public String stdout(boolean json) {
    return verdict == null ? "" : ScreenReport.render(verdict, json);
  }

  /** What goes to stderr for people, a line each ({@link ScreenReport#messages}). */
  public List<String> messages() {
    return ScreenReport.messages(this);
  }
}
