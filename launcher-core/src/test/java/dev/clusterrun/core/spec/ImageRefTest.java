package dev.clusterrun.core.spec;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** How a scheme-less image with a registry host is read, and that clusterrun says so. */
class ImageRefTest {
  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "nvcr.io/nvidia/pytorch:25.01-py3   | docker://nvcr.io#nvidia/pytorch:25.01-py3",
        "localhost/lab/mpi                  | docker://localhost#lab/mpi",
        "localhost:5000/lab/mpi:1           | docker://localhost:5000#lab/mpi:1",
        "10.0.0.1:5000/lab/mpi              | docker://10.0.0.1:5000#lab/mpi",
        "me@registry.lab/team/app:main      | docker://me@registry.lab#team/app:main",
        "nvcr.io/nvidia/x:1@sha256:abc123   | docker://nvcr.io#nvidia/x:1@sha256:abc123",
      })
  void aRegistryHostBeforeTheFirstSlashIsTheRegistry(String text, String uri) {
    ImageRef r = ImageRef.parse(text);
    assertThat(r.value()).isEqualTo(uri);
    assertThat(r.readAs())
        .isEqualTo(
            "read "
                + text
                + " as "
                + uri.substring("docker://".length())
                + " (a registry host before the first '/')");
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({
    "ubuntu",
    "ubuntu:24.04",
    "library/ubuntu",
    "nvidia/cuda:12",
    "nvcr.io#nvidia/pytorch:25.01-py3",
    "me@nvcr.io#nvidia/x",
    "ubuntu@sha256:abc123",
    "docker://nvcr.io/nvidia/pytorch:25.01-py3",
    "docker://localhost/lab/mpi",
    "dockerd://reg.lab/x:1",
  })
  void everythingElseIsTakenAsWritten(String text) {
    ImageRef r = ImageRef.parse(text);
    assertThat(r.value()).isEqualTo(text.contains("://") ? text : "docker://" + text);
    assertThat(r.readAs()).isNull();
  }
}
