package dev.clusterrun.core.spec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clusterrun.core.BadInputException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class SpecLoaderTest {
  static List<Path> goldenInputs() {
    return Golden.inputs("specs", ".yaml");
  }

  @Test
  void theGoldenFolderHasEnoughCases() {
    assertThat(Golden.orphans("specs", ".yaml")).isEmpty();
    assertThat(goldenInputs()).hasSizeGreaterThanOrEqualTo(15);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("goldenInputs")
  void golden(Path input) {
    Golden.check(input, ".yaml", render(input));
  }

  /** Every field that is set, one per line, or the exact message a person would see. */
  static String render(Path input) {
    String name = input.getFileName().toString();
    try {
      return render(SpecLoader.parse(Golden.read(input), name));
    } catch (BadInputException e) {
      return "clusterrun: " + e.subject() + ": " + e.problem() + "\n";
    }
  }

  static String render(JobSpec j) {
    StringBuilder b = new StringBuilder();
    b.append("# source ").append(j.source()).append('\n');
    put(b, "name", j.name());
    ContainerSpec c = j.container();
    if (c.image() != null) {
      put(b, "container.image", c.image().kind() + " " + c.image().value());
    }
    put(b, "container.name", c.name());
    put(b, "container.mounts", c.mounts());
    put(b, "container.workdir", c.workdir());
    put(b, "container.writable", c.writable());
    put(b, "container.mount-home", c.mountHome());
    put(b, "container.remap-root", c.remapRoot());
    put(b, "container.env", c.env());
    put(b, "container.env-from-host", c.envFromHost());
    put(b, "container.save", c.save());
    put(b, "container.entrypoint", c.entrypoint());
    put(b, "workspace.path", j.workspace().path());
    put(b, "workspace.mount", j.workspace().mount());
    MpiSpec m = j.mpi();
    put(b, "mpi.np", m.np());
    put(b, "mpi.per-node", m.perNode());
    put(b, "mpi.mca", m.mca());
    put(b, "mpi.env", m.env());
    put(b, "mpi.args", m.args());
    put(b, "mpi.hostfile", m.hostfile());
    put(b, "command", j.command());
    SshSpec s = j.ssh();
    put(b, "ssh.user", s.user());
    put(b, "ssh.port", s.port());
    put(b, "ssh.identity", s.identity());
    put(b, "ssh.known-hosts", s.knownHosts());
    put(b, "ssh.connect-timeout", s.connectTimeout());
    put(b, "ssh.fanout", s.fanout());
    return b.toString();
  }

  private static void put(StringBuilder b, String key, Object value) {
    if (value == null) {
      return;
    }
    if (value instanceof List<?> list) {
      b.append(key).append(": [").append(list.size()).append("]\n");
      for (int i = 0; i < list.size(); i++) {
        b.append("  [").append(i).append("] ").append(show(list.get(i))).append('\n');
      }
    } else if (value instanceof Map<?, ?> map) {
      b.append(key).append(": {").append(map.size()).append("}\n");
      map.forEach((k, v) -> b.append("  ").append(k).append(" = ").append(show(v)).append('\n'));
    } else {
      b.append(key).append(": ").append(show(value)).append('\n');
    }
  }

  private static String show(Object v) {
    if (v instanceof String s) {
      return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }
    if (v instanceof Mount m) {
      return m.kind()
          + " source="
          + m.source()
          + " target="
          + m.target()
          + " flags="
          + String.join(",", m.flags());
    }
    return String.valueOf(v);
  }

  @Test
  void absentSectionsAreEmptyAndAbsentFieldsNull() {
    JobSpec j = SpecLoader.parse("name: x\n", "job.yaml");
    assertThat(j.container()).isEqualTo(ContainerSpec.EMPTY);
    assertThat(j.workspace()).isEqualTo(WorkspaceSpec.EMPTY);
    assertThat(j.mpi()).isEqualTo(MpiSpec.EMPTY);
    assertThat(j.ssh()).isEqualTo(SshSpec.EMPTY);
    assertThat(j.command()).isNull();
    assertThat(j.source()).isEqualTo("job.yaml");
  }

  @Test
  void mcaKeepsFileOrder() {
    JobSpec j = SpecLoader.parse("mpi:\n  mca: {z: 1, a: 2, m: 3}\n", "j");
    assertThat(j.mpi().mca().keySet()).containsExactly("z", "a", "m");
  }

  @Test
  void loadNamesTheFileAsGiven(@TempDir Path dir) throws IOException {
    Path f = dir.resolve("job.yaml");
    Files.writeString(f, "name: a\nmpi:\n  np: -1\n");
    assertThatThrownBy(() -> SpecLoader.load(f))
        .isInstanceOf(BadInputException.class)
        .hasMessage(f + ":3:7: mpi.np: expected a whole number of at least 1, found -1");
    Files.writeString(f, "name: a\n");
    assertThat(SpecLoader.load(f).source()).isEqualTo(f.toString());

    Path missing = dir.resolve("missing.yaml");
    assertThatThrownBy(() -> SpecLoader.load(missing)).hasMessage(missing + ": no such file");
    assertThatThrownBy(() -> SpecLoader.load(dir))
        .hasMessage(dir + ": is a directory, not a job spec");
  }

  @Test
  void didYouMeanFindsTyposAndSpellings() {
    assertThat(DidYouMean.suggest("mount_home", SpecLoader.CONTAINER_KEYS)).hasValue("mount-home");
    assertThat(DidYouMean.suggest("mount", SpecLoader.CONTAINER_KEYS)).hasValue("mounts");
    assertThat(DidYouMean.suggest("mounts", SpecLoader.WORKSPACE_KEYS)).hasValue("mount");
    assertThat(DidYouMean.suggest("imgae", SpecLoader.CONTAINER_KEYS)).hasValue("image");
    assertThat(DidYouMean.suggest("envfromhost", SpecLoader.CONTAINER_KEYS))
        .hasValue("env-from-host");
    assertThat(DidYouMean.suggest("banana", SpecLoader.CONTAINER_KEYS)).isEmpty();
    assertThat(DidYouMean.suggest("np", SpecLoader.SSH_KEYS)).isEmpty();
  }
}
