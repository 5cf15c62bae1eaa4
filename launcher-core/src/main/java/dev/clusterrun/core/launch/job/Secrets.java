package dev.clusterrun.core.launch.job;

import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Masks values of variables whose names look secret, wherever clusterrun shows them. */
public final class Secrets {
  private static final Pattern SECRET =
      Pattern.compile(
          "(?i).*(TOKEN|SECRET|PASSWORD|PASSWD|PASSPHRASE|CREDENTIAL|PRIVATE|API_?KEY|ACCESS_?KEY|AUTH).*");
  public static final String MASK = "***";

  private Secrets() {}

  public static boolean isSecretName(String name) {
    return SECRET.matcher(name.toUpperCase(Locale.ROOT)).matches();
  }

  private static final Pattern ASSIGNMENT =
      Pattern.compile("([A-Za-z_][A-Za-z0-9_]*)=('[^']*'|\"[^\"]*\"|[^\\s'\"]*)");

  /**
   * {@code NAME=value} → {@code NAME=***} when NAME looks secret, also inside longer text such as a
   * launch agent string that carries {@code --env NAME=value}; a word that is itself one assignment
   * is masked whole, whatever its value holds.
   */
  public static String maskAssignment(String word) {
    int eq = word.indexOf('=');
    if (eq > 0 && isSecretName(word.substring(0, eq)) && EnvName.is(word.substring(0, eq))) {
      return word.substring(0, eq + 1) + MASK;
    }
    Matcher m = ASSIGNMENT.matcher(word);
    StringBuilder b = new StringBuilder();
    while (m.find()) {
      String repl = isSecretName(m.group(1)) ? m.group(1) + "=" + MASK : m.group();
      m.appendReplacement(b, Matcher.quoteReplacement(repl));
    }
    m.appendTail(b);
    return b.toString();
  }

  private static final class EnvName {
    static boolean is(String s) {
      return s.matches("[A-Za-z_][A-Za-z0-9_]*");
    }
  }

  /** Masks every NAME=value word of an argv whose NAME looks secret. */
  public static List<String> maskArgv(List<String> argv) {
    return argv.stream().map(Secrets::maskAssignment).toList();
  }
}
