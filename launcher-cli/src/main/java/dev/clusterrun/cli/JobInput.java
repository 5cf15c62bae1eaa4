package dev.clusterrun.cli;

import dev.clusterrun.core.BadInputException;
import dev.clusterrun.core.cluster.Hostfile;
import dev.clusterrun.core.cluster.HostfileParser;
import dev.clusterrun.core.launch.EnvironmentLayer;
import dev.clusterrun.core.launch.JobResolver;
import dev.clusterrun.core.launch.ResolvedJob;
import dev.clusterrun.core.launch.Source;
import dev.clusterrun.core.spec.JobSpec;
import dev.clusterrun.core.spec.SpecLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Model.CommandSpec;

/**
 * Splits a command's positional words into the optional job file (before {@code --}) and the
 * command (after it), and merges flags, environment and file into a {@link ResolvedJob}.
 */
final class JobInput {
  final Path jobFile;
  final List<String> command;

  private JobInput(Path jobFile, List<String> command) {
    this.jobFile = jobFile;
    this.command = command;
  }

  static JobInput split(CommandSpec spec, List<String> positionals) {
    List<String> original = spec.commandLine().getParseResult().originalArgs();
    int dd = original.indexOf("--");
    List<String> words = positionals == null ? List.of() : positionals;
    List<String> before;
    List<String> after;
    if (dd < 0) {
      before = words;
      after = List.of();
    } else {
      int nAfter = original.size() - dd - 1;
      before = words.subList(0, Math.max(0, words.size() - nAfter));
      after = words.subList(words.size() - nAfter, words.size());
    }
    if (before.size() > 1) {
      throw new BadInputException(
          before.get(1),
          "unexpected word; give at most one job file, and put the command after `--` (e.g. `-- hostname`)");
    }
    return new JobInput(before.isEmpty() ? null : Path.of(before.get(0)), new ArrayList<>(after));
  }

  static Hostfile hostfile(Path nodes) {
    return HostfileParser.read(nodes);
  }

  ResolvedJob resolve(JobOptions flags, Map<String, String> env, Hostfile hostfile) {
    JobResolver r = new JobResolver();
    r.layer(flags.toLayer(command), Source.FLAG, "flags");
    r.layer(EnvironmentLayer.read(env), Source.ENVIRONMENT, "CLUSTERRUN_* environment");
    if (jobFile != null) {
      JobSpec file = SpecLoader.load(jobFile);
      r.layer(file, Source.FILE, jobFile.toString());
    }
    String home = env.getOrDefault("HOME", System.getProperty("user.home"));
    return r.resolve(hostfile, home);
  }
}
