package dev.clusterrun.cli;

import dev.clusterrun.core.bench.BenchPreset;
import java.util.Iterator;
import java.util.List;

/** Values bash completion offers ({@code completionCandidates} of options and parameters). */
final class Candidates {
  private Candidates() {}

  /** {@code --launcher}: mpirun (the default) or per-node. */
  static final class Launchers implements Iterable<String> {
    static final List<String> VALUES = List.of("mpirun", "per-node");

    @Override
    public Iterator<String> iterator() {
      return VALUES.iterator();
    }
  }

  /** {@code --mpi-daemon}: auto (detected in the container), orted (Open MPI 4), prted (5). */
  static final class MpiDaemons implements Iterable<String> {
    static final List<String> VALUES = List.of("auto", "orted", "prted");

    @Override
    public Iterator<String> iterator() {
      return VALUES.iterator();
    }
  }

  /** {@code bench PRESET}: every preset, as its command-line name. */
  static final class Presets implements Iterable<String> {
    @Override
    public Iterator<String> iterator() {
      return BenchPreset.ids().iterator();
    }
  }
}
