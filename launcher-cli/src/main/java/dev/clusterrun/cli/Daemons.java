package dev.clusterrun.cli;

import dev.clusterrun.core.BadInputException;
import dev.clusterrun.core.enroot.LaunchAgent;

final class Daemons {
  private Daemons() {}

  static LaunchAgent.Daemon parse(String s) {
    return switch (s) {
      case "orted" -> LaunchAgent.Daemon.ORTED;
      case "prted" -> LaunchAgent.Daemon.PRTED;
      default ->
          throw new BadInputException(
              "--mpi-daemon", "expected auto, orted or prted, got '" + s + "'");
    };
  }
}
