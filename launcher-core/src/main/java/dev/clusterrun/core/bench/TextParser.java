package dev.clusterrun.core.bench;

/**
 * A parser of one benchmark's text output: output that is empty (or only blank lines) is the
 * preset's {@link Verdict#PARSE_ERROR} saying so ({@link #emptyOutput}), and any other is {@link
 * #read}.
 */
abstract class TextParser implements BenchParser {
  /** A number in the output, as one group ({@link OutputText#number} reads it). */
  static final String N = OutputText.NUM;

  private final String preset;

  /** A parser of {@code preset}'s output. */
  TextParser(String preset) {
    this.preset = preset;
  }

  @Override
  public final BenchResult parse(String output) {
    if (OutputText.isBlank(output)) {
      return BenchResult.parseError(preset, emptyOutput());
    }
    return read(output);
  }

  /** Reads output that is not empty. */
  abstract BenchResult read(String output);

  /** What the parse error for empty output says. */
  String emptyOutput() {
    return "the output is empty";
  }

  /** The preset whose results these are. */
  final String preset() {
    return preset;
  }
}
