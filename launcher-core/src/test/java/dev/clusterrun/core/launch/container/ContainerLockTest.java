package dev.clusterrun.core.launch.container;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clusterrun.core.session.Progress;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The checks of a run wait while another process (another run's {@link ContainerPreparer}) holds
 * the container's lock, i.e. makes the container; they do not wait when nobody does.
 */
class ContainerLockTest {
  /** A second JVM that holds the lock exclusively, as ContainerPreparer does, for a while. */
  static final String HOLDER =
      "import java.nio.channels.*; import java.nio.file.*;\n"
          + "class Holder { public static void main(String[] a) throws Exception {\n"
          + "  try (FileChannel ch = FileChannel.open(Path.of(a[0]), StandardOpenOption.CREATE,"
          + " StandardOpenOption.WRITE); FileLock l = ch.lock()) {\n"
          + "    System.out.println(\"locked\"); System.out.flush();\n"
          + "    Thread.sleep(Long.parseLong(a[1]));\n"
          + "  }\n"
          + "  System.out.println(\"released\"); System.out.flush();\n"
          + "} }\n";

  @Test
  void checksWaitForAContainerBeingMadeThenRun(@TempDir Path ws) throws Exception {
    Path lock = ContainerLock.file(ws.toString(), "shared-name");
    Files.createDirectories(lock.getParent());
    Path src = ws.resolve("Holder.java");
    Files.writeString(src, HOLDER);
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    Process holder =
        new ProcessBuilder(java.toString(), src.toString(), lock.toString(), "1500")
            .redirectErrorStream(true)
            .start();
    try (BufferedReader out =
        new BufferedReader(
            new InputStreamReader(holder.getInputStream(), StandardCharsets.UTF_8))) {
      assertThat(out.readLine()).isEqualTo("locked");
      long locked = System.nanoTime();
      List<String> notes = new ArrayList<>();
      Progress p =
          new Progress() {
            @Override
            public void note(String line) {
              notes.add(line);
            }
          };
      double[] waited = new double[1];
      try (ContainerLock.Held held = ContainerLock.hold(ws.toString(), "shared-name", p)) {
        waited[0] = (System.nanoTime() - locked) / 1e9;
      }
      // The holder keeps the lock 1.5 s after it said so: the checks ran only after that.
      assertThat(waited[0]).as("seconds the checks waited").isGreaterThan(1.0);
      assertThat(notes)
          .containsExactly(
              "container shared-name is being made by another run: waiting for it before the"
                  + " checks");
    } finally {
      holder.destroy();
      holder.waitFor();
    }
    // Nobody holds it: no wait, nothing said.
    List<String> none = new ArrayList<>();
    try (ContainerLock.Held held =
        ContainerLock.hold(
            ws.toString(),
            "shared-name",
            new Progress() {
              @Override
              public void note(String line) {
                none.add(line);
              }
            })) {
      assertThat(held).isNotSameAs(ContainerLock.Held.NONE);
    }
    assertThat(none).isEmpty();
  }

  @Test
  void withoutANameOrAWorkspaceTheChecksRunAsTheyAre() throws Exception {
    assertThat(ContainerLock.hold("/nonexistent-ws", null, Progress.NONE))
        .isSameAs(ContainerLock.Held.NONE);
    assertThat(ContainerLock.hold(null, "x", Progress.NONE)).isSameAs(ContainerLock.Held.NONE);
  }
}
