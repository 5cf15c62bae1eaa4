package dev.clusterrun.core.image;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.FileLockInterruptionException;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Exclusive locks on files of the shared workspace, between processes on any node (an fcntl lock,
 * which NFS and the cluster filesystems carry) and between threads of this process.
 *
 * <p>An fcntl lock belongs to the process, not to the channel: a second channel of this JVM on the
 * same file would neither wait for the lock nor leave it alone when closed (closing any descriptor
 * of a file drops every lock the process holds on it). So within this JVM each file has one permit,
 * taken before a channel is opened: only its holder ever has the file open for locking.
 */
final class FileLocks {
  private static final ConcurrentHashMap<Path, Semaphore> IN_THIS_JVM = new ConcurrentHashMap<>();

  private FileLocks() {}

  /** A lock held until closed; closing twice is harmless. */
  interface Held extends AutoCloseable {
    @Override
    void close();
  }

  /**
   * The file's lock (the file and its folder made when missing), after waiting for whoever holds
   * it; {@code onWait} runs once, before the wait, only when there is one.
   */
  static Held lock(Path file, Runnable onWait) throws IOException, InterruptedException {
    Semaphore local = permit(file);
    boolean said = false;
    if (!local.tryAcquire()) {
      onWait.run();
      said = true;
      local.acquire();
    }
    FileChannel ch = null;
    try {
      Files.createDirectories(file.toAbsolutePath().getParent());
      ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
      if (ch.tryLock() == null) {
        if (!said) {
          onWait.run();
        }
        ch.lock();
      }
      return held(ch, local);
    } catch (FileLockInterruptionException e) {
      release(ch, local);
      throw new InterruptedException("interrupted while waiting for the lock " + file);
    } catch (IOException | RuntimeException e) {
      release(ch, local);
      throw e;
    }
  }

  /**
   * The file's lock if nobody holds it, else null (also when the file does not exist and {@code
   * create} is false).
   */
  static Held tryLock(Path file, boolean create) throws IOException {
    Semaphore local = permit(file);
    if (!local.tryAcquire()) {
      return null;
    }
    FileChannel ch = null;
    try {
      ch =
          create
              ? FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE)
              : FileChannel.open(file, StandardOpenOption.WRITE);
      FileLock l = ch.tryLock();
      if (l == null) {
        release(ch, local);
        return null;
      }
      return held(ch, local);
    } catch (NoSuchFileException e) {
      release(ch, local);
      return null;
    } catch (OverlappingFileLockException e) {
      release(ch, local);
      return null;
    } catch (IOException | RuntimeException e) {
      release(ch, local);
      throw e;
    }
  }

  private static Semaphore permit(Path file) {
    return IN_THIS_JVM.computeIfAbsent(
        file.toAbsolutePath().normalize(), k -> new Semaphore(1, true));
  }

  private static Held held(FileChannel ch, Semaphore local) {
    AtomicBoolean open = new AtomicBoolean(true);
    return () -> {
      if (open.getAndSet(false)) {
        release(ch, local);
      }
    };
  }

  /** Closes the channel (which releases its lock), then gives the permit back. */
  private static void release(FileChannel ch, Semaphore local) {
    try {
      if (ch != null) {
        ch.close();
      }
    } catch (IOException e) {
      // the lock goes with the channel either way
    } finally {
      local.release();
    }
  }
}
