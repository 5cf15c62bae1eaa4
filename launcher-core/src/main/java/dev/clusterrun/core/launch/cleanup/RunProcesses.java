package dev.clusterrun.core.launch.cleanup;

import dev.clusterrun.core.remote.ShellScript;

/**
 * The one way clusterrun finds a run's processes on a node: every process of the job user that
 * carries {@code CLUSTERRUN_RUN_ID=ID} in its environment (the launch agent puts it there for every
 * remote daemon, the head's {@code enroot start} for mpirun, and the ranks inherit it) or as a word
 * of its command line (the head's {@code ssh} to a node while it starts the daemon there). One
 * {@code grep} over every process's environment and one over every command line: reading a few
 * processes per PID took seconds on a node with hundreds.
 *
 * <p>The shell functions that do it are {@code run-processes.sh} beside this class: {@code
 * run_processes WANT NETWORK} prints the words {@code PID:RUN_ID}, {@code pids_of WORDS} their
 * PIDs. The variable's name never appears in the script's text (it is put together when the script
 * runs, and reaches grep on its standard input): the shell running the script, and the login shell
 * around it, must not look like a process of a run.
 */
public final class RunProcesses {
  private static final ShellScript FUNCTIONS =
      ShellScript.load(RunProcesses.class, "run-processes.sh");

  private RunProcesses() {}

  /** {@code main} with the functions {@code run_processes} and {@code pids_of} before it. */
  public static ShellScript before(ShellScript main) {
    return FUNCTIONS.then(main);
  }
}
