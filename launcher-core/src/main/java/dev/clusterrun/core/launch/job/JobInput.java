package dev.clusterrun.core.launch.job;

import dev.clusterrun.core.BadInputException;
import dev.clusterrun.core.cluster.Hostfile;
import dev.clusterrun.core.cluster.NodeSelection;
import dev.clusterrun.core.spec.JobFlags;
import dev.clusterrun.core.spec.JobSpec;
import dev.clusterrun.core.spec.Mount;
import dev.clusterrun.core.spec.SpecLoader;
import dev.clusterrun.core.spec.SshFlags;
import dev.clusterrun.core.spec.SshSpec;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * What a person gave for one job, before any merging: the nodes, the job file (or none), the flags
 * as one job layer (the SSH flags included), the environment ({@code CLUSTERRUN_*}, {@code
 * PYXIS_CONTAINER_*}, {@code HOME}) and the directory relative paths are given from.
 */
public record JobInput(
    NodeSelection nodes, Path jobFile, JobSpec flags, Map<String, String> env, Path cwd) {
  public JobInput {
    env = Map.copyOf(env);
  }

  /**
   * What a person gave, as the command line holds it: the SSH flags, then the job flags (with the
   * command's words) checked, each by its rule, and made the flags' layer.
   *
   * @param words the job file and the command, or {@link JobWords#NONE}
   * @param cwd where relative paths are given from
   */
  public static JobInput of(
      NodeSelection nodes,
      JobWords words,
      JobFlags flags,
      SshFlags ssh,
      Map<String, String> env,
      Path cwd) {
    SshSpec sshLayer = ssh.toSpec();
    return new JobInput(
        nodes,
        words.jobFile() == null ? null : Path.of(words.jobFile()),
        flags.toLayer(words.command(), sshLayer),
        env,
        cwd);
  }

  /** The nodes: {@code --nodes} and its companions, else the allocation in {@code env}. */
  public Hostfile readHostfile() {
    return nodes.read(env, cwd);
  }

  /** The hostfile {@code --nodes} names, or null when the nodes come from elsewhere. */
  public Path hostfile() {
    return nodes.file();
  }

  /** The job user's home: {@code HOME}, else this JVM's. */
  public String home() {
    return env.getOrDefault("HOME", System.getProperty("user.home"));
  }

  /** The job file's text, kept in the run directory; null without a job file. */
  public String jobFileText() throws IOException {
    return jobFile == null ? null : Files.readString(jobFile, StandardCharsets.UTF_8);
  }

  /** Flags over the environment over the job file over the defaults. */
  public ResolvedJob resolve(Hostfile hf) {
    JobResolver r = new JobResolver();
    r.layer(flags, Source.FLAG, "flags");
    r.environment(env);
    if (jobFile != null) {
      JobSpec file = SpecLoader.load(jobFile);
      r.layer(file, Source.FILE, jobFile.toString());
    }
    ResolvedJob job = r.resolve(hf, home(), cwd);
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
  public static void checkOnTheHead(ResolvedJob job) {
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
      SaveTarget.Decision d = SaveTarget.decide(Path.of(job.save().value()));
      if (!d.allowed()) {
        throw new BadInputException(JobResolver.subject(job.save(), "container.save"), d.problem());
      }
    }
  }
}
