package dev.clusterrun.cli;

import dev.clusterrun.core.bench.BenchPreset;
import dev.clusterrun.core.launch.job.LaunchOptions;
import dev.clusterrun.core.spec.LauncherKind;
import java.util.Iterator;
import java.util.List;
import java.util.stream.Stream;

/** Values bash completion offers ({@code completionCandidates} of options and parameters). */
final class Candidates {
  private Candidates() {}

  /** {@code --launcher}: mpirun (the default) or per-node. */
  static final class Launchers implements Iterable<String> {
    @Override
    public Iterator<String> iterator() {
      return Stream.of(LauncherKind.values()).map(LauncherKind::word).iterator();
    }
  }

  /** {@code --mpi-daemon}: auto (detected in the container), orted (Open MPI 4), prted (5). */
  static final class MpiDaemons implements Iterable<String> {
    @Override
    public Iterator<String> iterator() {
      return LaunchOptions.Daemon.words().iterator();
    }
  }

  /** {@code --stdin}: the words it takes besides a rank. */
  static final class StdinTargets implements Iterable<String> {
    @Override
    public Iterator<String> iterator() {
      return List.of("none", "0", "all").iterator();
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
