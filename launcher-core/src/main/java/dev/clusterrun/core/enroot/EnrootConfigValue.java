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
 * @param error why the value could not be expanded, or {@code null}
 */
public record EnrootConfigValue(
    String name, String value, String source, String raw, String error) {
  public static final String DEFAULT = "default";
  public static final String ENVIRONMENT = "environment";

  public boolean isSet() {
    return value != null && !value.isEmpty();
  }

  /** Where the value came from, for messages: "default", "environment", "/etc/enroot/x.conf". */
  public String describeSource() {
    if (source == null || source.isEmpty()) {
      return "unknown";
    }
    return source;
  }
}
