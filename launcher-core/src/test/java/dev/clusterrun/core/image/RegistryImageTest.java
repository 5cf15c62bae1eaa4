package dev.clusterrun.core.image;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** enroot 4.1.2's reading of {@code docker://} URIs ({@code docker::_parse_uri}). */
class RegistryImageTest {
  static final String D = "sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      nullValues = "-",
      value = {
        // URI                                        | user | registry             | repository
        //       | tag        | digest
        "docker://ubuntu                              | -    | registry-1.docker.io | library/ubuntu       | latest     | -",
        "docker://ubuntu:24.04                        | -    | registry-1.docker.io | library/ubuntu       | 24.04      | -",
        "docker://library/ubuntu                      | -    | registry-1.docker.io | library/ubuntu       | latest     | -",
        "docker://nvidia/cuda:12.4.1-base             | -    | registry-1.docker.io | nvidia/cuda          | 12.4.1-base| -",
        "docker://nvcr.io#nvidia/pytorch:25.01-py3    | -    | nvcr.io              | nvidia/pytorch       | 25.01-py3  | -",
        "docker://nvcr.io/nvidia/pytorch:25.01-py3    | -    | nvcr.io              | nvidia/pytorch       | 25.01-py3  | -",
        "docker://10.0.0.1:5000#lab/mpi:1             | -    | 10.0.0.1:5000        | lab/mpi              | 1          | -",
        "docker://localhost:5000/lab/mpi              | -    | localhost:5000       | lab/mpi              | latest     | -",
        // enroot reads a first part without '.' or ':' as a Docker Hub namespace, localhost too
        "docker://localhost/lab/mpi                   | -    | registry-1.docker.io | localhost/lab/mpi    | latest     | -",
        "docker://$oauthtoken@nvcr.io#nvidia/x:1      | $oauthtoken | nvcr.io       | nvidia/x             | 1          | -",
        "docker://me@registry.lab/team/app:main       | me   | registry.lab         | team/app             | main       | -",
        "docker://ubuntu@"
            + D
            + "                    | -    | registry-1.docker.io | library/ubuntu       | -          | "
            + D,
        "docker://ubuntu:24.04@"
            + D
            + "              | -    | registry-1.docker.io | library/ubuntu       | 24.04      | "
            + D,
        "docker://nvcr.io#nvidia/x@"
            + D
            + "          | -    | nvcr.io              | nvidia/x             | -          | "
            + D,
        "docker://nvcr.io#nvidia/x:1@"
            + D
            + "        | -    | nvcr.io              | nvidia/x             | 1          | "
            + D,
        "docker://nvcr.io/nvidia/x:1@"
            + D
            + "        | -    | nvcr.io              | nvidia/x             | 1          | "
            + D,
      })
  void readsAsEnroot(
      String uri, String user, String registry, String repository, String tag, String digest) {
    assertThat(RegistryImage.parse(uri))
        .isEqualTo(new RegistryImage(user, registry, repository, tag, digest));
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({
    "docker://Ubuntu/X",
    "docker://nvcr.io#",
    "docker://reg.io#Img",
    "dockerd://ubuntu",
    "nvcr.io#nvidia/x",
    "docker://x@sha256:",
  })
  void refusesWhatEnrootRefuses(String uri) {
    assertThatThrownBy(() -> RegistryImage.parse(uri))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(uri);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "docker://nvcr.io#nvidia/pytorch:25.01-py3 | docker://nvcr.io#nvidia/pytorch:25.01-py3@"
            + D,
        "docker://ubuntu                           | docker://registry-1.docker.io#library/ubuntu:latest@"
            + D,
        "docker://me@10.0.0.1:5000/lab/mpi:1       | docker://me@10.0.0.1:5000#lab/mpi:1@" + D,
      })
  void aPinnedUriNamesTheDigestAndReadsBackAsIt(String uri, String pinned) {
    RegistryImage image = RegistryImage.parse(uri);
    assertThat(image.pinnedUri(D)).isEqualTo(pinned);
    RegistryImage back = RegistryImage.parse(pinned);
    assertThat(back.digest()).isEqualTo(D);
    assertThat(back.registry()).isEqualTo(image.registry());
    assertThat(back.repository()).isEqualTo(image.repository());
    assertThat(back.user()).isEqualTo(image.user());
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "docker://ubuntu:24.04            | registry-1.docker.io/library/ubuntu:24.04",
        "docker://10.0.0.1:5000#lab/mpi:1 | 10.0.0.1:5000/lab/mpi:1",
        "docker://nvcr.io#nvidia/x@" + D + " | nvcr.io/nvidia/x@" + D,
      })
  void displaysRegistryRepositoryTagAndDigest(String uri, String shown) {
    assertThat(RegistryImage.parse(uri).display()).isEqualTo(shown);
  }
}
