package dev.clusterrun.core;

import java.util.List;

/** Building command lines as words (a list, quoted once at the SSH boundary). */
public final class Argv {
  private Argv() {}

  /** Adds {@code flag} before each of {@code values}: {@code --env A --env B}. */
  public static void eachWith(List<String> argv, String flag, Iterable<String> values) {
    for (String v : values) {
      argv.add(flag);
      argv.add(v);
    }
  }
}
