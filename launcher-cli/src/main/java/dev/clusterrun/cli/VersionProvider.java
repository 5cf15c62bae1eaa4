package dev.clusterrun.cli;

import picocli.CommandLine.IVersionProvider;

final class VersionProvider implements IVersionProvider {
  @Override
  public String[] getVersion() {
    return new String[] {version()};
  }

  /** {@code clusterrun 0.1.0}, or {@code clusterrun (development build)}. */
  static String version() {
    String v = Main.class.getPackage().getImplementationVersion();
    return "clusterrun " + (v == null ? "(development build)" : v);
  }
}
