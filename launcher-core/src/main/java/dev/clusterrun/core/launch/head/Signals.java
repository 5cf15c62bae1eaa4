package dev.clusterrun.core.launch.head;

import jnr.posix.POSIX;
import jnr.posix.POSIXFactory;

/**
 * POSIX signals the JDK cannot send (it has only SIGTERM and SIGKILL): mpirun turns SIGINT into an
 * orderly stop of every rank and daemon. jnr-posix is loaded only when a signal is sent.
 */
public final class Signals {
  public static final int SIGINT = 2;
  public static final int SIGKILL = 9;
  public static final int SIGTERM = 15;

  private Signals() {}

  /** The signal's name ({@code SIGINT}), for people and for summary.json; else {@code signal N}. */
  public static String name(int signal) {
    return switch (signal) {
      case 1 -> "SIGHUP";
      case 2 -> "SIGINT";
      case 9 -> "SIGKILL";
      case 13 -> "SIGPIPE";
      case 15 -> "SIGTERM";
      default -> "signal " + signal;
    };
  }

  private static final class Holder {
    static final POSIX POSIX = POSIXFactory.getNativePOSIX();
  }

  /** Returns true when the signal was delivered. */
  public static boolean send(long pid, int signal) {
    try {
      return Holder.POSIX.kill((int) pid, signal) == 0;
    } catch (RuntimeException | LinkageError e) {
      // No native POSIX: fall back to what the JDK can do.
      return ProcessHandle.of(pid)
          .map(signal == SIGKILL ? ProcessHandle::destroyForcibly : ProcessHandle::destroy)
          .orElse(false);
    }
  }
}
