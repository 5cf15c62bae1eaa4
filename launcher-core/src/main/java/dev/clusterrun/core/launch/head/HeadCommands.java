package dev.clusterrun.core.launch.head;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/** Runs short commands on the head and returns their exit code and output. */
public interface HeadCommands {
  /** Exit code and captured output of a command. */
  record Captured(int exitCode, String stdout, String stderr) {}

  int run(List<String> argv, Map<String, String> env, OutputStream out, OutputStream err)
      throws IOException, InterruptedException;

  default Captured capture(List<String> argv, Map<String, String> env)
      throws IOException, InterruptedException {
    ByteArrayOutputStream o = new ByteArrayOutputStream();
    ByteArrayOutputStream e = new ByteArrayOutputStream();
    int code = run(argv, env, o, e);
    return new Captured(
        code, o.toString(StandardCharsets.UTF_8), e.toString(StandardCharsets.UTF_8));
  }

  /** The real thing: local processes through commons-exec. */
  HeadCommands LOCAL =
      (argv, env, out, err) -> {
        HeadProcess p = HeadProcess.start(argv, env, null, out, err);
        try {
          return p.waitFor();
        } catch (InterruptedException ie) {
          p.interrupt();
          p.killTree();
          throw ie;
        }
      };
}
