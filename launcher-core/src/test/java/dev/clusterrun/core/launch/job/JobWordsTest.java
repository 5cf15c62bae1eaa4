package dev.clusterrun.core.launch.job;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Which word is the job file and which start the command, as {@code run} and {@code plan} read. */
class JobWordsTest {
  @Test
  void aYamlFirstIsTheJobFile() {
    assertThat(JobWords.isJobFile("job.yaml")).isTrue();
    assertThat(JobWords.isJobFile("job.yml")).isTrue();
    assertThat(JobWords.isJobFile("hostname")).isFalse();
    JobWords w =
        JobWords.of(
            "job.yaml",
            2,
            List.of("echo", "hi"),
            List.of("--nodes", "h", "job.yaml", "echo", "hi"));
    assertThat(w).isEqualTo(new JobWords("job.yaml", List.of("echo", "hi")));
  }

  @Test
  void aYamlAfterTheDoubleDashIsTheCommand() {
    JobWords w =
        JobWords.of("cat.yaml", 1, List.of("x"), List.of("--nodes", "h", "--", "cat.yaml", "x"));
    assertThat(w).isEqualTo(new JobWords(null, List.of("cat.yaml", "x")));
  }

  @Test
  void aDoubleDashAfterTheJobFileLeavesIt() {
    JobWords w =
        JobWords.of("job.yaml", 2, List.of("-v"), List.of("--nodes", "h", "job.yaml", "--", "-v"));
    assertThat(w).isEqualTo(new JobWords("job.yaml", List.of("-v")));
  }
}
