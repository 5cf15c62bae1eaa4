package dev.clusterrun.core.remote;

import java.time.Duration;

/**
 * Runs an action once a time is up, unless cancelled before: what bounds a whole SSH connect (TCP,
 * banner, key exchange, authentication, jump hosts) by its connect timeout. The session's fan-out
 * keeps the one timer thread behind it.
 */
public interface Deadlines {
  /** A pending action; cancelling an action that ran already does nothing. */
  interface Deadline {
    void cancel();
  }

  Deadline after(Duration delay, Runnable action);
}
