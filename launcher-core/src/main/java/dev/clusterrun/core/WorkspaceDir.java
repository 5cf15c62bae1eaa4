package dev.clusterrun.core;

import java.nio.file.Path;
import java.util.Map;

/**
 * The workspace a command works in, found as {@code run} finds it: {@code --workspace}, else {@code
 * CLUSTERRUN_WORKSPACE}, else {@code ~/clusterrun}.
 *
 * @param given the workspace given with {@code --workspace}, or null
 * @param env the environment ({@code CLUSTERRUN_WORKSPACE}, {@code HOME})
 */
public record WorkspaceDir(Path given, Map<String, String> env) {
  /**
   * The variable {@code run} reads the workspace from (core.launch's EnvironmentLayer.WORKSPACE).
   */
  static final String ENV = "CLUSTERRUN_WORKSPACE";

  /** The default workspace's name in the user's home. */
  private static final String DIR = "clusterrun";

  public WorkspaceDir {
    env = Map.copyOf(env);
  }

  public Path path() {
    return path(null);
  }

  /**
   * The workspace when a job file names one ({@code workspace.path}): {@code --workspace}, else
   * {@code CLUSTERRUN_WORKSPACE}, else the job file's, else {@code ~/clusterrun}.
   *
   * @param jobFile the job file's {@code workspace.path}, or null
   */
  public Path path(String jobFile) {
    if (given != null) {
      return given;
    }
    String e = env.get(ENV);
    if (e != null && !e.isBlank()) {
      return Path.of(e);
    }
    if (jobFile != null && !jobFile.isBlank()) {
      return Path.of(jobFile);
    }
    return Path.of(env.getOrDefault("HOME", System.getProperty("user.home")), DIR);
  }

  /** The default workspace of a user whose home is {@code home}: {@code HOME/clusterrun}. */
  public static String inHome(String home) {
    return home + "/" + DIR;
  }

  /** Where the workspace came from, to name in messages. */
  public String subject() {
    if (given != null) {
      return "--workspace";
    }
    String e = env.get(ENV);
    return e != null && !e.isBlank() ? ENV : "workspace";
  }
}
