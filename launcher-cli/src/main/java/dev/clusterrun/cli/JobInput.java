package dev.clusterrun.cli;

import dev.clusterrun.core.BadInputException;
import dev.clusterrun.core.cluster.Hostfile;
import dev.clusterrun.core.cluster.HostfileParser;
import dev.clusterrun.core.launch.JobResolver;
import dev.clusterrun.core.launch.ResolvedJob;
import dev.clusterrun.core.launch.Source;
import dev.clusterrun.core.spec.JobSpec;
import dev.clusterrun.core.spec.Mount;
import dev.clusterrun.core.spec.SpecLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Model.CommandSpec;

/**
 * A command's positional words ({@link CommandWords}: the optional job file and the command), and
 * flags, environment and file merged into a {@link ResolvedJob}.
 */
final class JobInput {
  final Path jobFile;
  final List<String> command;

  private JobInput(Path jobFile, List<String> command) {
    this.jobFile = jobFile;
    this.command = command;
  }

  static JobInput split(CommandSpec spec, CommandWords words) {
    List<String> original = spec.commandLine().getParseResult().originalArgs();
    CommandWords w = CommandWords.of(words, original);
    return new JobInput(w.jobFile == null ? null : Path.of(w.jobFile), new ArrayList<>(w.command));
  }

  static Hostfile hostfile(Path nodes) {
    return HostfileParser.read(nodes);
  }

  ResolvedJob resolve(JobOptions flags, Map<String, String> env, Hostfile hostfile) {
    JobResolver r = new JobResolver();
    r.layer(flags.toLayer(command), Source.FLAG, "flags");
    r.environment(env);
    if (jobFile != null) {
      JobSpec file = SpecLoader.load(jobFile);
      r.layer(file, Source.FILE, jobFile.toString());
    }
    String home = env.getOrDefault("HOME", System.getProperty("user.home"));
    ResolvedJob job = r.resolve(hostfile, home, Path.of("").toAbsolutePath());
    var image = job.image();
    if (image.value() != null && !image.value().isUri()) {
      Path p = Path.of(image.value().value());
      if (Files.exists(p) && !Files.isRegularFile(p)) {
        throw new BadInputException(
            JobResolver.subject(image, "container.image"),
            "'" + p + "' is not a file; give a squashfs image (e.g. made by enroot import)");
      }
    }
    return job;
  }

  /**
   * What {@code run} checks on the head before any node: every host path it mounts exists there
   * (the head's container, where mpirun runs, mounts them too), as Pyxis checks on its node, and
   * the container can be saved where {@code --container-save} says.
   */
  static void checkOnTheHead(ResolvedJob job) {
    for (Mount m : job.mounts().value()) {
      if (m.kind() == Mount.Kind.BIND
          && !m.flags().contains("nofail")
          && !Files.exists(Path.of(m.source()))) {
        throw new BadInputException(
            JobResolver.subject(job.mounts(), "container.mounts"),
            "mount source path does not exist: "
                + m.source()
                + " (add the nofail flag if it exists on some nodes only)");
      }
    }
    // Found now, not after the job: --container-save never writes over a directory or a file
    // clusterrun did not save (SaveTarget); the save step asks again before it writes.
    if (job.save().value() != null) {
      var d = dev.clusterrun.core.launch.SaveTarget.decide(Path.of(job.save().value()));
      if (!d.allowed()) {
        throw new BadInputException(JobResolver.subject(job.save(), "container.save"), d.problem());
      }
    }
  }
}
