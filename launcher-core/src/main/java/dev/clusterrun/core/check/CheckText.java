package dev.clusterrun.core.check;

import dev.clusterrun.core.enroot.EnrootConfigValue;
import java.util.List;
import java.util.Locale;

/** Wording shared by the checks' reasons and fixes. */
final class CheckText {
  private CheckText() {}

  static boolean mountHomeEffective(CheckInput in, Facts f) {
    return in.job().mountHome() != null
        ? in.job().mountHome()
        : f.enroot().settings().mountHomeOn();
  }

  static String fsText(Facts f) {
    if (f.storage().dataFsType() == null) {
      return "";
    }
    return " ["
        + f.storage().dataFsType()
        + (f.storage().dataMountPoint() != null ? " on " + f.storage().dataMountPoint() : "")
        + "]";
  }

  /**
   * Where an effective value comes from, for every message that judges one: {@code (from
   * /etc/enroot/enroot.conf.d/90-site.conf:1)}, {@code (from ENROOT_DATA_PATH in the environment)}
   * or {@code (enroot's default)}. A file's value that enroot expanded (a per-user template such as
   * {@code /shared/enroot/$(id -u)}) is shown as written too: {@code (= /shared/enroot/$(id -u),
   * from /etc/enroot/enroot.conf.d/50-clusterrun.conf:9)}.
   */
  static String from(EnrootConfigValue v) {
    String s = v.source();
    if (v.fromFile() && v.isSet() && v.raw() != null && !v.raw().equals(v.value())) {
      return "(= " + v.raw() + ", from " + v.describeSource() + ")";
    }
    if (EnrootConfigValue.DEFAULT.equals(s)) {
      return "(enroot's default)";
    }
    if (EnrootConfigValue.ENVIRONMENT.equals(s)) {
      return "(from " + v.name() + " in the environment)";
    }
    return "(from " + v.describeSource() + ")";
  }

  static String unsetReason(EnrootConfigValue v) {
    if ((v.fromFile() || EnrootConfigValue.ENVIRONMENT.equals(v.source()))
        && v.raw() != null
        && !v.raw().isBlank()) {
      return v.name() + " " + v.raw() + " " + from(v) + " unsets it";
    }
    return v.name() + " is unset " + from(v);
  }

  /**
   * A configuration line enroot could not expand: enroot carries on as if it were not there, so the
   * value silently became its default. {@code null} when there is none.
   */
  static String unexpanded(EnrootConfigValue v) {
    if (v.error() == null) {
      return null;
    }
    return v.name()
        + " cannot be expanded at "
        + oneLine(v.error())
        + "; enroot ignores that line and uses "
        + (v.isSet() ? v.value() + " " + from(v) : "no value");
  }

  static String names(List<String> nodes) {
    if (nodes.size() <= 4) {
      return String.join(", ", nodes);
    }
    return String.join(", ", nodes.subList(0, 3)) + " and " + (nodes.size() - 3) + " other nodes";
  }

  static String shortSha(String sha) {
    return sha == null ? "?" : sha.substring(0, Math.min(12, sha.length()));
  }

  static String shortName(String hostname) {
    int dot = hostname.indexOf('.');
    return (dot > 0 ? hostname.substring(0, dot) : hostname).toLowerCase(Locale.ROOT);
  }

  static String oneLine(String s) {
    if (s == null) {
      return "";
    }
    return s.strip().replace('\n', ' ');
  }

  static String lastMeaningfulLine(String err) {
    String[] lines = err.strip().split("\n");
    for (int i = lines.length - 1; i >= 0; i--) {
      String l = lines[i].strip();
      if (!l.isEmpty() && !l.startsWith("Warning: Permanently added")) {
        return l;
      }
    }
    return "";
  }

  static double seconds(Facts f) {
    return f.elapsed() == null ? 0 : f.elapsed().toMillis() / 1000.0;
  }
}
