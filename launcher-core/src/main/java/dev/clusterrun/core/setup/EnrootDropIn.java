package dev.clusterrun.core.setup;

import dev.clusterrun.core.enroot.PathTemplate;
import dev.clusterrun.core.remote.ShellQuote;
import java.util.OptionalInt;

/**
 * The enroot configuration drop-in {@code <sysconf>/enroot.conf.d/50-clusterrun.conf}. enroot reads
 * it after {@code enroot.conf} (the environment of {@code enroot} still overrides both), as {@code
 * NAME VALUE} lines whose values it expands with the shell ({@code eval echo}) for each user. So
 * literal paths are quoted with {@link ShellQuote}, and per-user templates ({@link PathTemplate},
 * e.g. {@code /shared/enroot/$(id -u)}) are written unquoted, as given, on purpose: this line is
 * the one place a template reaches a shell, enroot's own. enroot also syntax-checks the file with
 * bash, which the generated text always passes.
 */
public final class EnrootDropIn {
  private EnrootDropIn() {}

  /** Bumped whenever the layout of {@link #content} changes. */
  public static final int VERSION = 1;

  public static final String FILE_NAME = "50-clusterrun.conf";

  /** Path of the drop-in relative to enroot's sysconf dir. */
  public static final String RELATIVE_PATH = "enroot.conf.d/" + FILE_NAME;

  /** The first line starts with this, followed by the version and {@link #HEADER_SUFFIX}. */
  public static final String HEADER_PREFIX = "# clusterrun enroot drop-in version ";

  public static final String HEADER_SUFFIX = " — managed by clusterrun setup; do not edit";

  /** The drop-in's text for {@code spec}, ending with a newline. */
  public static String content(SetupSpec spec) {
    StringBuilder b = new StringBuilder();
    b.append(HEADER_PREFIX).append(VERSION).append(HEADER_SUFFIX).append('\n');
    b.append("# enroot keeps the first value it reads for a setting: its environment, then\n");
    b.append(
        "# enroot.conf, then enroot.conf.d/*.conf in name order; `clusterrun check` names any\n");
    b.append("# file that sets one of these before this one does.\n");
    b.append("# enroot expands each value with the shell, for each user, when it starts.\n");
    b.append('\n');
    b.append(
        "# Containers live on storage shared by all nodes: one `enroot create` serves a job.\n");
    if (spec.dataPathTemplate().isTemplate()) {
      b.append("# One directory per user, as enroot expands the value for the user it runs as.\n");
    }
    b.append("ENROOT_DATA_PATH ").append(spec.dataPathTemplate().dropInValue()).append('\n');
    b.append('\n');
    b.append(
        "# The home directory (with ~/.ssh) inside containers: Open MPI's daemons ssh onward.\n");
    b.append("ENROOT_MOUNT_HOME ").append(spec.mountHome() ? "yes" : "no").append('\n');
    b.append('\n');
    b.append("# Non-interactive SSH sessions have no XDG_RUNTIME_DIR, and enroot's fallback\n");
    b.append(
        "# /run/enroot cannot be created by users. Trade-off of the fallback under /tmp: its\n");
    b.append(
        "# name is predictable, so on a node shared with untrusted local users another user\n");
    b.append(
        "# can create it first, and enroot (mkdir -p, whatever owns it) then fails or works in\n");
    b.append(
        "# a directory that user controls. Where that matters, use a per-user directory made\n");
    b.append("# by root or by the login system (e.g. /run/user/<uid>).\n");
    b.append("ENROOT_RUNTIME_PATH ").append(spec.runtimePath().dropInValue()).append('\n');
    if (spec.cachePath() != null) {
      b.append('\n');
      b.append("# Image layers and credentials cache.\n");
      b.append("ENROOT_CACHE_PATH ").append(spec.cachePathTemplate().dropInValue()).append('\n');
    }
    return b.toString();
  }

  /**
   * The version in a drop-in's header, or empty when the text is not a clusterrun drop-in (its
   * first line does not start with {@link #HEADER_PREFIX}).
   */
  public static OptionalInt versionOf(String text) {
    int end = text.indexOf('\n');
    String first = end < 0 ? text : text.substring(0, end);
    if (!first.startsWith(HEADER_PREFIX)) {
      return OptionalInt.empty();
    }
    String rest = first.substring(HEADER_PREFIX.length());
    int digits = 0;
    while (digits < rest.length() && digits < 9 && Character.isDigit(rest.charAt(digits))) {
      digits++;
    }
    if (digits == 0) {
      return OptionalInt.empty();
    }
    return OptionalInt.of(Integer.parseInt(rest.substring(0, digits)));
  }
}
