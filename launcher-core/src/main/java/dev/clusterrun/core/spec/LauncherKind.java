package dev.clusterrun.core.spec;

import dev.clusterrun.core.EnumWords;

/**
 * {@code launcher}: how a job's processes start. {@link #MPIRUN} (the default) starts {@code
 * mpirun} in the container on the head, with Open MPI's daemons in the same container on every
 * other node; {@link #PER_NODE} starts the command once on every node, each in the job's container
 * there (as {@code srun --ntasks-per-node=1} does for torchrun-style programs).
 */
public enum LauncherKind {
  MPIRUN,
  PER_NODE;

  /** The word the job file and {@code --launcher} take: {@code mpirun}, {@code per-node}. */
  public String word() {
    return EnumWords.word(this);
  }

  /**
   * @throws IllegalArgumentException naming the words accepted
   */
  public static LauncherKind parse(String text) {
    return EnumWords.byWord(values(), text)
        .orElseThrow(
            () ->
                new IllegalArgumentException("expected mpirun or per-node, found '" + text + "'"));
  }

  @Override
  public String toString() {
    return word();
  }
}
