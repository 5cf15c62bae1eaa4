package dev.clusterrun.core.enroot;

/**
 * One enroot setting as enroot itself would see it for one user on one node.
 *
 * @param name the setting, e.g. {@code ENROOT_DATA_PATH}
 * @param value the effective value after shell expansion; {@code null} when unset (never set, or
 *     set to {@code no}/{@code false}/{@code n}, which enroot treats as unset)
 * @param source where the value came from: {@code default}, {@code environment}, or the path of the
 *     configuration file whose line won
 * @param raw the text before expansion (the file's value, the default expression or the environment
 *     value); empty when unknown
 * @param error why a configuration line for it could not be expanded (enroot then carries on with
 *     the next line or its default), as {@code FILE:LINE: message}, or {@code null}
 * @param line the line of {@code source} that set the value, or {@code null} when not a file
 */
public record EnrootConfigValue(
    String name, String value, String source, String raw, String error, Integer line) {
  public static final String DEFAULT = "default";
  public static final String ENVIRONMENT = "environment";

  public EnrootConfigValue(String name, String value, String source, String raw, String error) {
    this(name, value, source, raw, error, null);
  }

  public boolean isSet() {
    return value != null && !value.isEmpty();
  }

  /** Whether a configuration file set it (as opposed to the environment or enroot's default). */
  public boolean fromFile() {
    return source != null
        && !source.isEmpty()
        && !DEFAULT.equals(source)
        && !ENVIRONMENT.equals(source);
  }

  /**
   * Where the value came from, for messages: {@code enroot's default}, {@code the environment
   * (ENROOT_DATA_PATH)}, or the file and line, e.g. {@code
   * /etc/enroot/enroot.conf.d/90-site.conf:1}.
   */
  public String describeSource() {
    if (source == null || source.isEmpty()) {
      return "unknown";
    }
    if (DEFAULT.equals(source)) {
      return "enroot's default";
    }
    if (ENVIRONMENT.equals(source)) {
      return "the environment (" + name + ")";
    }
    return line == null ? source : source + ":" + line;
  }
}
