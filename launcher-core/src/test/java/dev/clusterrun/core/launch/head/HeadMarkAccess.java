package dev.clusterrun.core.launch.head;

/** {@link HeadMark}'s parser, for tests of other packages. */
public final class HeadMarkAccess {
  private HeadMarkAccess() {}

  public static String startTicks(String stat) {
    return HeadMark.startTicks(stat);
  }
}
