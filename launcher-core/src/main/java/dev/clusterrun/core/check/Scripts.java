package dev.clusterrun.core.check;

import dev.clusterrun.core.remote.ShellScript;

/** Shared pieces of the small scripts the checks send to nodes. */
final class Scripts {
  static final String BEGIN = "@clusterrun-begin";
  static final String END = "@clusterrun-end";

  /** Defines {@code kv KEY VALUE}, which prints an escaped {@code KEY=VALUE} line. */
  static final String KV = resource("kv.sh");

  private Scripts() {}

  static String resource(String name) {
    return ShellScript.text(Scripts.class, name);
  }

  /** Wraps a body so its output can be told from shell noise. */
  static String wrap(String body) {
    return KV + "printf '%s\\n' '" + BEGIN + "'\n" + body + "\nprintf '%s\\n' '" + END + "'\n";
  }

  static KeyValues.Parsed parse(String stdout) {
    return KeyValues.parse(stdout, BEGIN, END);
  }
}
