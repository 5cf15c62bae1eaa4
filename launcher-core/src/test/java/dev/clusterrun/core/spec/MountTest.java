package dev.clusterrun.core.spec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clusterrun.core.enroot.EnrootArgs;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Pyxis's {@code --container-mounts} entries and the enroot {@code --mount} words they become. What
 * enroot does with the words is read from its source (v4.1.2): {@code runtime::start} refuses a
 * mount that does not match {@link #ENROOT_MOUNT}; {@code runtime::_do_mounts_fini} turns ':' into
 * fields; {@code enroot-mount}'s {@code mount_fstab} completes only {@code SRC DST} to {@code none
 * rbind,x-create=auto}, so any other entry must spell out its type and options.
 */
class MountTest {
  /** enroot's own check of a {@code --mount} argument ({@code src/runtime.sh}). */
  static final Pattern ENROOT_MOUNT = Pattern.compile("[^\\s]+(:[^\\s]+)*");

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        // Pyxis: SRC DST x-create=auto,rbind[,FLAGS]; without flags enroot completes SRC:DST to it.
        "/data:/data                       | /data:/data",
        "/data:/mnt:ro                     | /data:/mnt:none:x-create=auto,rbind,ro",
        "/tmp:/mnt:unbindable+ro           | /tmp:/mnt:none:x-create=auto,rbind,unbindable,ro",
        "/data:/data:ro,rprivate           | /data:/data:none:x-create=auto,rbind,ro,rprivate",
        "/data:/data:rbind                 | /data:/data",
        "/data:/data:ro+rbind              | /data:/data:none:x-create=auto,rbind,ro",
        // A bare source is mounted at the same path.
        "/var/lib                          | /var/lib:/var/lib",
        "/var/lib/                         | /var/lib/:/var/lib",
        // tmpfs: x-create=dir, type tmpfs; umount: x-detach.
        "tmpfs:/mytmpfs                    | tmpfs:/mytmpfs:tmpfs:x-create=dir",
        "tmpfs:/t:huge=within_size+size=1g | tmpfs:/t:tmpfs:x-create=dir,huge=within_size,size=1g",
        "umount:/root                      | umount:/root:none:x-detach",
        "umount:/root:nofail               | umount:/root:none:x-detach,nofail",
      })
  void pyxisEntriesBecomeTheEnrootWordsThatMeanTheSame(String pyxis, String enroot) {
    Mount m = Mount.parse(pyxis);
    assertThat(EnrootArgs.mount(m)).isEqualTo(enroot);
    assertThat(EnrootArgs.mount(m)).matches(ENROOT_MOUNT);
    // Exactly two fields (which enroot completes) or four (nothing left for enroot to guess).
    assertThat(EnrootArgs.mount(m).split(":", -1).length).isIn(2, 4);
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "''                | empty mount",
        ":                 | has no source",
        "/tmp:             | has an empty destination",
        "/a:/b:            | has no flags after the last ':'",
        "/a:/b:ro:x        | has 4 ':'-separated fields",
        "/a:/b:bogus       | unknown flag 'bogus'",
        "/a:/b:ro++rw      | has an empty flag",
        "/a:/b:x-create=file | unknown flag 'x-create=file'",
        "/a:/b:size=1g     | unknown flag 'size=1g'",
        "tmpfs:/t:size=lots | unknown flag 'size=lots'",
        "umount:/root:ro   | unknown flag 'ro'; flags for umount: nofail",
        "tmpfs             | needs a destination: tmpfs:/PATH",
        "./data            | a bare source must be an absolute path",
        "data:/data        | must be an absolute path, a path relative to the current directory"
            + " starting with ./ or ../ (e.g. ./data), tmpfs or umount",
        ".hidden:/h        | starting with ./ or ../ (e.g. ./.hidden)",
        "devpts:/p:ro      | mount source 'devpts' must be",
        "/tmp:mnt:ro       | must be an absolute path inside the container (e.g. /mnt)",
        "/home:../home     | must be an absolute path inside the container",
        "/home:/../home    | must not contain '..'",
        "/home:/           | would hide the container's root",
        "'/a b:/c'         | contains white space",
        "'/a:/c d'         | contains white space",
      })
  void badMountsSayWhatIsWrong(String text, String problem) {
    assertThatThrownBy(() -> Mount.parse(text))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(problem);
  }

  @ParameterizedTest
  @ValueSource(strings = {"/a,b", "/a:b"})
  void aPathCannotHoldTheSeparators(String source) {
    assertThatThrownBy(() -> Mount.of(source, "/x", List.of()))
        .hasMessageContaining("mount source '" + source + "' contains '");
  }

  @ParameterizedTest
  @CsvSource({
    "./data,/home/u/proj/data",
    "../data,/home/u/data",
    ".,/home/u/proj",
    "./,/home/u/proj"
  })
  void aRelativeSourceBecomesAbsoluteFromTheCurrentDirectory(String src, String abs) {
    Mount m = Mount.parse(src + ":/data:ro").resolve(Path.of("/home/u/proj"));
    assertThat(m.source()).isEqualTo(abs);
    assertThat(EnrootArgs.mount(m)).isEqualTo(abs + ":/data:none:x-create=auto,rbind,ro");
    assertThat(m.isRelative()).isFalse();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "ro",
        "rw",
        "nosuid",
        "nodev",
        "noexec",
        "noatime",
        "relatime",
        "private",
        "rprivate",
        "shared",
        "rshared",
        "slave",
        "rslave",
        "unbindable",
        "runbindable",
        "nofail",
        "rbind",
        "bind"
      })
  void everyDocumentedBindFlagIsAccepted(String flag) {
    assertThat(Mount.parse("/a:/b:" + flag).flags()).containsExactly(flag);
  }

  @ParameterizedTest
  @ValueSource(strings = {"size=512m", "size=50%", "nr_inodes=1k", "mode=1777", "huge=always"})
  void tmpfsTakesItsOwnOptions(String flag) {
    assertThat(Mount.parse("tmpfs:/t:" + flag).enrootOptions())
        .containsExactly("x-create=dir", flag);
  }
}
