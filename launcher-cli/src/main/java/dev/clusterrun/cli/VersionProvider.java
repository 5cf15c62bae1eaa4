package dev.clusterrun.cli;

import picocli.CommandLine.IVersionProvider;

final class VersionProvider implements IVersionProvider {
  @Override
  public String[] getVersion() {
    String v = Main.class.getPackage().getImplementationVersion();
    return new String[] {"clusterrun " + (v == null ? "(development build)" : v)};
  }
}
