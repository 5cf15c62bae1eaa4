package dev.clusterrun.core.image;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;

/**
 * Another clusterrun process on the shared workspace, for {@link ImageCacheTest}: a separate JVM
 * that uses the cache as a run would, and says on stdout what it does.
 *
 * <ul>
 *   <li>{@code import DIR DIGEST REF COUNTER RELEASE}: {@code acquire}; its importer appends a line
 *       to COUNTER, prints {@code importing}, waits until the file RELEASE exists, then writes the
 *       image; prints {@code waiting} when told to wait, then {@code done FILE};
 *   <li>{@code lease DIR DIGEST RUN}: takes a lease, prints {@code leased}, holds it until its
 *       standard input ends, then prints {@code released}.
 * </ul>
 */
public final class CacheChild {
  private CacheChild() {}

  public static void main(String[] a) throws Exception {
    ImageCache cache = new ImageCache(Path.of(a[1]), Clock.systemUTC());
    if (a[0].equals("import")) {
      Path counter = Path.of(a[4]);
      Path release = Path.of(a[5]);
      ImageCache.Entry e =
          cache.acquire(
              a[2],
              a[3],
              tmp -> {
                Files.writeString(
                    counter, "import\n", StandardOpenOption.CREATE, StandardOpenOption.APPEND);
                say("importing");
                for (int i = 0; i < 600 && !Files.exists(release); i++) {
                  Thread.sleep(50);
                }
                Files.write(tmp, new byte[4096]);
              },
              (ref, digest) -> say("waiting"));
      say("done " + e.file());
    } else {
      try (ImageCache.Lease l = cache.lease(a[2], a[3])) {
        say("leased");
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
      }
      say("released");
    }
  }

  private static void say(String line) {
    System.out.println(line);
    System.out.flush();
  }
}
