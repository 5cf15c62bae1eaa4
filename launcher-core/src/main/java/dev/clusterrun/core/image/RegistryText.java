package dev.clusterrun.core.image;

import java.net.ConnectException;
import java.nio.channels.UnresolvedAddressException;
import java.time.Duration;

/** The registry client's wording: where a refusal applies, status lines, one-line reasons. */
final class RegistryText {
  private RegistryText() {}

  static String connectReason(ConnectException e) {
    Throwable c = e.getCause();
    if (c instanceof UnresolvedAddressException) {
      return "unknown host";
    }
    String m = e.getMessage() != null ? e.getMessage() : c != null ? c.getMessage() : null;
    return m == null || m.isBlank() ? "connection refused" : oneLine(m);
  }

  /** Where a refusal applies: {@code registry R: repository P, tag T}. */
  static String subject(RegistryImage image) {
    return "registry "
        + image.registry()
        + ": repository "
        + image.repository()
        + (image.tag() != null ? ", tag " + image.tag() : "")
        + (image.digest() != null ? ", digest " + image.digest() : "");
  }

  /** {@code 401 Unauthorized}, or {@code HTTP 418} for a status without a known reason. */
  static String statusLine(int status) {
    String reason =
        switch (status) {
          case 400 -> "Bad Request";
          case 401 -> "Unauthorized";
          case 403 -> "Forbidden";
          case 404 -> "Not Found";
          case 405 -> "Method Not Allowed";
          case 406 -> "Not Acceptable";
          case 429 -> "Too Many Requests";
          case 500 -> "Internal Server Error";
          case 502 -> "Bad Gateway";
          case 503 -> "Service Unavailable";
          case 504 -> "Gateway Timeout";
          default -> "";
        };
    return reason.isEmpty() ? "HTTP " + status : status + " " + reason;
  }

  static String seconds(Duration d) {
    return d.toSeconds() + " s";
  }

  static String oneLine(String s) {
    return s.replaceAll("[\\r\\n]+", " ").strip();
  }
}
