package dev.clusterrun.core.launch.proof;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The job's output streams while the launch proves itself ({@link DaemonProof}): proof lines are
 * taken out of mpirun's standard error into the {@link DaemonProof.Tally}; everything else goes to
 * the logs at once, and to the person only once every daemon has proved itself. Until then it is
 * held, in order, so that a job whose daemons were not started by this run's agent cannot show its
 * output as a success; ranks cannot start before every daemon has called back, so in a sound run
 * nothing waits.
 */
public final class ProofGate {
  /** How long output may wait for a daemon's proof once ranks print. */
  public static final Duration GRACE = Duration.ofSeconds(5);

  /** How long the daemons may take to prove themselves at all. */
  public static final Duration DEADLINE = Duration.ofSeconds(120);

  private final DaemonProof.Tally tally;
  private final List<byte[]> held = new ArrayList<>();
  private final List<OutputStream> heldTo = new ArrayList<>();
  private long firstHeldNanos = -1;
  private boolean open;
  private boolean closed;
  private final Runnable onProven;

  /**
   * @param onProven called once, when every daemon has proved itself, before held output goes out
   */
  public ProofGate(DaemonProof.Tally tally, Runnable onProven) {
    this.tally = tally;
    this.onProven = onProven;
    if (tally.proven()) {
      open = true;
      onProven.run();
    }
  }

  /** Every daemon proved itself: output flows. */
  public synchronized boolean opened() {
    return open;
  }

  public DaemonProof.Tally tally() {
    return tally;
  }

  /** The job's standard output: to {@code log} at once, to {@code console} through the gate. */
  public OutputStream out(OutputStream console, OutputStream log) {
    return new Gated(console, log, false);
  }

  /** mpirun's standard error, proof lines taken out. */
  public OutputStream err(OutputStream console, OutputStream log) {
    return new Gated(console, log, true);
  }

  /** When output was first held back, or -1 ({@link System#nanoTime}). */
  public synchronized long firstHeld() {
    return firstHeldNanos;
  }

  /** Opens the gate if every daemon has proved itself: held output goes out, in order. */
  synchronized void openIfProven() throws IOException {
    if (!open && !closed && tally.proven()) {
      open = true;
      onProven.run();
      for (int i = 0; i < held.size(); i++) {
        heldTo.get(i).write(held.get(i));
        heldTo.get(i).flush();
      }
      held.clear();
      heldTo.clear();
    }
  }

  /**
   * The proof failed: held output never reaches the person, except mpirun's own error messages
   * (held standard error), which say what went wrong.
   */
  public synchronized void close(OutputStream errConsole) throws IOException {
    if (open || closed) {
      return;
    }
    closed = true;
    for (int i = 0; i < held.size(); i++) {
      if (heldTo.get(i) == errConsole) {
        errConsole.write(held.get(i));
      }
    }
    errConsole.flush();
    held.clear();
    heldTo.clear();
  }

  /**
   * @param clock whether this output starts the wait for proof ({@link #firstHeld}): ranks' output
   *     does (they start once every daemon has called back), mpirun's own diagnostics do not
   */
  private synchronized void toConsole(
      OutputStream console, byte[] b, int off, int len, boolean clock) throws IOException {
    if (open) {
      console.write(b, off, len);
      console.flush();
    } else if (!closed) {
      if (firstHeldNanos < 0 && clock) {
        firstHeldNanos = System.nanoTime();
      }
      byte[] copy = new byte[len];
      System.arraycopy(b, off, copy, 0, len);
      held.add(copy);
      heldTo.add(console);
    }
  }

  /** One stream; on stderr, whole lines that start with the proof tag are taken out. */
  private final class Gated extends OutputStream {
    private final OutputStream console;
    private final OutputStream log;
    private final boolean proofs;
    private final ByteArrayOutputStream line = new ByteArrayOutputStream();
    private final ByteArrayOutputStream text = new ByteArrayOutputStream();

    /** The current line cannot be a proof line: it has been passed on as it came. */
    private boolean passing;

    /**
     * The current line is one of mpirun's own (on standard error, {@code [HOST:PID] …}, as Open MPI
     * and PRRTE write their warnings, e.g. {@code plm:rsh: Warning: setpgid(…) failed} on a busy
     * head while the daemons are still starting): held like any other, but no rank's output.
     */
    private boolean mpirunsOwn;

    Gated(OutputStream console, OutputStream log, boolean proofs) {
      this.console = console == null ? OutputStream.nullOutputStream() : console;
      this.log = log;
      this.proofs = proofs;
    }

    @Override
    public void write(int b) throws IOException {
      write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public synchronized void write(byte[] b, int off, int len) throws IOException {
      if (!proofs) {
        pass(b, off, len);
        return;
      }
      byte[] tag = (DaemonProof.TAG + " ").getBytes(StandardCharsets.US_ASCII);
      int start = off;
      for (int i = off; i < off + len; i++) {
        if (passing) {
          if (b[i] == '\n') {
            pass(b, start, i + 1 - start);
            start = i + 1;
            passing = false;
            mpirunsOwn = false;
          }
          continue;
        }
        line.write(b[i]);
        start = i + 1;
        byte[] sofar = line.toByteArray();
        boolean prefix = true;
        for (int k = 0; k < Math.min(sofar.length, tag.length); k++) {
          if (sofar[k] != tag[k]) {
            prefix = false;
            break;
          }
        }
        if (!prefix) {
          // Not a proof line: what was kept goes on, and the rest of the line as it comes.
          line.reset();
          mpirunsOwn = sofar[0] == '[';
          pass(sofar, 0, sofar.length);
          passing = b[i] != '\n';
          mpirunsOwn &= passing;
        } else if (b[i] == '\n') {
          line.reset();
          DaemonProof.Line p =
              DaemonProof.parse(new String(sofar, StandardCharsets.UTF_8).stripTrailing());
          if (p != null) {
            tally.add(p);
            openIfProven();
          } else {
            pass(sofar, 0, sofar.length);
          }
        }
      }
      if (passing && start < off + len) {
        pass(b, start, off + len - start);
      }
    }

    private void pass(byte[] b, int off, int len) throws IOException {
      if (len <= 0) {
        return;
      }
      if (proofs) {
        // Each whole line of mpirun's standard error, for the tally to name the nodes' errors.
        for (int k = off; k < off + len; k++) {
          if (b[k] == '\n') {
            tally.heard(text.toString(StandardCharsets.UTF_8));
            text.reset();
          } else if (text.size() < 1024) {
            text.write(b[k]);
          }
        }
      }
      log.write(b, off, len);
      log.flush();
      toConsole(console, b, off, len, !mpirunsOwn);
    }

    @Override
    public synchronized void flush() throws IOException {
      log.flush();
    }

    @Override
    public synchronized void close() throws IOException {
      byte[] rest = line.toByteArray();
      line.reset();
      if (rest.length > 0) {
        pass(rest, 0, rest.length);
      }
    }
  }
}
