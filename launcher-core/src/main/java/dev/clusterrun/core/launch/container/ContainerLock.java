package dev.clusterrun.core.launch.container;

import dev.clusterrun.core.session.Progress;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLockInterruptionException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The workspace's lock of one named container ({@code <workspace>/.clusterrun/locks/NAME.lock}),
 * which {@link ContainerPreparer} holds exclusively while it makes the container. The checks of
 * another run hold it shared while they look at the container: a container being made is then
 * neither missing on some nodes nor proof of an unshared data path, because the checks wait for it
 * to be made, and judge what is there afterwards.
 */
public final class ContainerLock {
  private ContainerLock() {}

  static Path file(String workspace, String name) {
    return Path.of(workspace, ".clusterrun", "locks", name + ".lock");
  }

  /** The lock held shared until closed (closing twice is harmless). */
  public interface Held extends AutoCloseable {
    Held NONE = () -> {};

    @Override
    void close();
  }

  /**
   * Takes the container's lock shared, after waiting (and saying so) for a run that holds it to
   * make the container. Without a name, or when the lock file cannot be made (the workspace is not
   * there yet: the checks say why), nothing is held.
   */
  public static Held hold(String workspace, String name, Progress progress)
      throws InterruptedException {
    if (name == null || workspace == null) {
      return Held.NONE;
    }
    Path f = file(workspace, name);
    FileChannel ch;
    try {
      Files.createDirectories(f.getParent());
      ch =
          FileChannel.open(
              f, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
    } catch (IOException | RuntimeException e) {
      return Held.NONE;
    }
    try {
      if (ch.tryLock(0, Long.MAX_VALUE, true) == null) {
        progress.note(
            "container "
                + name
                + " is being made by another run: waiting for it before the checks");
        ch.lock(0, Long.MAX_VALUE, true);
      }
    } catch (FileLockInterruptionException e) {
      close(ch);
      throw new InterruptedException("interrupted while waiting for container " + name);
    } catch (IOException | RuntimeException e) {
      close(ch);
      return Held.NONE;
    }
    return () -> close(ch); // releases the lock
  }

  private static void close(FileChannel ch) {
    try {
      ch.close();
    } catch (IOException e) {
      // the lock goes with the channel either way
    }
  }
}
