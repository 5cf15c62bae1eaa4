package dev.clusterrun.core.launch.container;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clusterrun.core.enroot.EnrootArgs;
import dev.clusterrun.core.enroot.LaunchAgent;
import dev.clusterrun.core.launch.head.HeadCommands;
import dev.clusterrun.core.launch.job.JobResolver;
import dev.clusterrun.core.launch.job.Source;
import dev.clusterrun.core.launch.plan.NodeContainers;
import dev.clusterrun.core.launch.plan.Plan;
import dev.clusterrun.core.launch.plan.PlanOptions;
import dev.clusterrun.core.launch.plan.PlanRenderer;
import dev.clusterrun.core.launch.plan.Planner;
import dev.clusterrun.core.launch.plan.PlannerTest;
import dev.clusterrun.core.spec.ImageRef;
import dev.clusterrun.core.spec.JobSpecBuilder;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The container cache as the head sees it: image files named so that no two URIs share one, a
 * record beside each saying which URI it holds, and named containers taken as given when no image
 * was given. The head's enroot is played by {@link Head}, which keeps containers in a map and
 * writes the URI into the files it "imports", so a test sees which image a container was made from.
 */
class ContainerPreparerTest {
  @TempDir Path ws;

  /** enroot list/import/create/remove on the head, in memory; every argv is kept. */
  static final class Head implements HeadCommands {
    final Map<String, String> containers = new LinkedHashMap<>();
    final List<List<String>> ran = new ArrayList<>();
    final Set<String> offline = new HashSet<>();

    @Override
    public int run(List<String> argv, Map<String, String> env, OutputStream out, OutputStream err)
        throws IOException {
      ran.add(argv);
      switch (argv.get(1)) {
        case "list" -> {
          for (String c : containers.keySet()) {
            out.write((c + "\n").getBytes(StandardCharsets.UTF_8));
          }
          return 0;
        }
        case "import" -> {
          if (offline.contains(argv.get(4))) {
            err.write("Could not resolve host\n".getBytes(StandardCharsets.UTF_8));
            return 1;
          }
          Files.writeString(Path.of(argv.get(3)), argv.get(4));
          return 0;
        }
        case "create" -> {
          containers.put(argv.get(3), Files.readString(Path.of(argv.get(4))));
          return 0;
        }
        case "remove" -> {
          containers.remove(argv.get(3));
          return 0;
        }
        case "export" -> {
          Files.writeString(Path.of(argv.get(3)), "snapshot of " + containers.get(argv.get(4)));
          return 0;
        }
        default -> throw new IllegalArgumentException("unexpected " + argv);
      }
    }

    long imports() {
      return ran.stream().filter(a -> a.get(1).equals("import")).count();
    }
  }

  Plan plan(String image, String name, Source nameSource, Source imageSource) {
    JobResolver r = new JobResolver();
    r.layer(
        JobSpecBuilder.layer("job.yaml")
            .name("job")
            .image(image)
            .containerName(name)
            .workspace(ws.toString(), "/app")
            .command("hostname")
            .build(),
        imageSource,
        "job.yaml");
    if (nameSource != imageSource && name != null) {
      // the name from another layer, above the image's
      r = new JobResolver();
      r.layer(
          JobSpecBuilder.layer("--container-name").containerName(name).build(),
          nameSource,
          "--container-name");
      r.layer(
          JobSpecBuilder.layer("preset")
              .name("job")
              .image(image)
              .workspace(ws.toString(), "/app")
              .command("hostname")
              .build(),
          imageSource,
          "preset");
    }
    return Planner.plan(
        r.resolve(PlannerTest.TWO_BY_EIGHT, "/home/alice"),
        PlannerTest.TWO_BY_EIGHT,
        new PlanOptions("RUN", LaunchAgent.Daemon.ORTED, true));
  }

  ContainerPreparer.Prepared prepare(Head head, Plan p) throws Exception {
    return new ContainerPreparer(head, new ByteArrayOutputStream()).prepare(p, ws.toString());
  }

  /**
   * A named container's snapshot, which every node but the head starts (docs/scale.md): taken once
   * of the container as it is, reused while nothing changed it, taken again when the container is
   * re-made from another image or a writable run of it has ended.
   */
  @Test
  void theSnapshotIsTakenOnceAndAgainOnlyWhenTheContainerChanged() throws Exception {
    Head head = new Head();
    Path snap = NodeContainers.snapshotOf(ws, "mine");
    Plan p = plan("docker://img:1", "mine", Source.FLAG, Source.FLAG);
    assertThat(p.prepare())
        .anySatisfy(
            s -> {
              assertThat(s.action()).isEqualTo(Plan.Step.Action.SNAPSHOT);
              assertThat(s.argv())
                  .containsExactly("enroot", "export", "--output", snap.toString(), "mine");
            });
    assertThat(p.agent()).contains(snap.toString()).doesNotContain("mine");
    prepare(head, p);
    assertThat(Files.readString(snap)).isEqualTo("snapshot of docker://img:1");
    assertThat(exports(head)).isEqualTo(1);
    ContainerPreparer.Prepared again = prepare(head, p);
    assertThat(exports(head)).isEqualTo(1);
    assertThat(again.actions()).last().asString().contains("the other nodes start the snapshot");
    // a read-only run changes nothing; a writable one may have
    ContainerPreparer readOnly = new ContainerPreparer(head, new ByteArrayOutputStream());
    readOnly.finished(p, ws.toString());
    prepare(head, p);
    assertThat(exports(head)).isEqualTo(1);
    Plan writable = writable(p);
    new ContainerPreparer(head, new ByteArrayOutputStream()).finished(writable, ws.toString());
    prepare(head, p);
    assertThat(exports(head)).isEqualTo(2);
    // re-made from another image: taken again, of the new container
    prepare(head, plan("docker://img:2", "mine", Source.FLAG, Source.FLAG));
    assertThat(exports(head)).isEqualTo(3);
    assertThat(Files.readString(snap)).isEqualTo("snapshot of docker://img:2");
    try (var files = Files.list(snap.getParent())) {
      assertThat(files.map(f -> f.getFileName().toString())).noneMatch(n -> n.contains(".part-"));
    }
  }

  static long exports(Head head) {
    return head.ran.stream().filter(a -> a.get(1).equals("export")).count();
  }

  /** {@code p} as a --container-writable run's plan. */
  Plan writable(Plan p) {
    JobResolver r = new JobResolver();
    r.layer(
        JobSpecBuilder.layer("job.yaml")
            .name("job")
            .image(p.image())
            .containerName(p.containerName())
            .workspace(ws.toString(), "/app")
            .parts(c -> c.writable = true)
            .command("hostname")
            .build(),
        Source.FLAG,
        "job.yaml");
    return Planner.plan(
        r.resolve(PlannerTest.TWO_BY_EIGHT, "/home/alice"),
        PlannerTest.TWO_BY_EIGHT,
        new PlanOptions("RUN", LaunchAgent.Daemon.ORTED, true));
  }

  @Test
  void fourUrisThatOnceSharedAFileGetFourFiles() {
    List<String> names = new ArrayList<>();
    for (String uri : List.of("docker://img:1", "dockerd://img:1", "podman://img:1", "img#1")) {
      names.add(EnrootArgs.squashfsName(ImageRef.parse(uri)));
    }
    assertThat(new HashSet<>(names)).hasSize(4);
    assertThat(names.get(0)).matches("docker\\+img\\+1-[0-9a-f]{16}\\.sqsh");
    assertThat(names.get(1)).startsWith("dockerd+img+1-");
    assertThat(names.get(3)).startsWith("docker+img+1-"); // registry img, image 1: another hash
    assertThat(EnrootArgs.squashfsName(ImageRef.parse("nvcr.io#nvidia/hpc-benchmarks:25.04")))
        .startsWith("docker+nvcr.io+nvidia+hpc-benchmarks+25.04-");
    // a very long URI still makes a file name a filesystem takes
    String longUri = "docker://registry.example.com#" + "x/".repeat(200) + "img:1";
    assertThat(EnrootArgs.squashfsName(ImageRef.parse(longUri)).length()).isLessThan(140);
  }

  @Test
  void eachImageRunsAsItselfNeverAsAnotherThatOnceSharedItsCacheName() throws Exception {
    Head head = new Head();
    Map<String, String> madeFrom = new LinkedHashMap<>();
    for (String uri : List.of("docker://img:1", "dockerd://img:1", "podman://img:1", "img#1")) {
      String name = "c" + madeFrom.size();
      prepare(head, plan(uri, name, Source.FILE, Source.FILE));
      madeFrom.put(name, ImageRef.parse(uri).value());
    }
    madeFrom.forEach((c, uri) -> assertThat(head.containers.get(c)).as(c).isEqualTo(uri));
    assertThat(head.imports()).isEqualTo(4);
    // each file has its record, saying exactly what it holds
    try (var files = Files.list(ws.resolve("images"))) {
      List<Path> records = files.filter(f -> f.toString().endsWith(".sqsh.uri")).toList();
      assertThat(records).hasSize(4);
      for (Path rec : records) {
        Path sqsh = Path.of(rec.toString().replaceFirst("\\.uri$", ""));
        assertThat(Files.readString(rec)).isEqualTo(Files.readString(sqsh) + "\n");
      }
    }
    // the same image again: imported once, reused
    prepare(head, plan("docker://img:1", "c9", Source.FILE, Source.FILE));
    assertThat(head.imports()).isEqualTo(4);
    assertThat(head.containers.get("c9")).isEqualTo("docker://img:1");
  }

  @Test
  void aFileWhoseRecordSaysAnotherImageOrNothingIsImportedAgain() throws Exception {
    Head head = new Head();
    Plan p = plan("docker://img:1", "c", Source.FILE, Source.FILE);
    Path sqsh = Path.of(p.prepare().get(0).argv().get(3));
    Files.createDirectories(sqsh.getParent());
    // an old cache: the file is there without a record (or with another image's)
    Files.writeString(sqsh, "podman://img:1");
    ContainerPreparer.Prepared o = prepare(head, p);
    assertThat(head.imports()).isOne();
    assertThat(o.actions()).anyMatch(a -> a.contains("has no image record; importing"));
    assertThat(head.containers.get("c")).isEqualTo("docker://img:1");

    Files.writeString(ContainerPreparer.imageRecord(sqsh), "podman://img:1\n");
    head.containers.clear();
    o = prepare(head, p);
    assertThat(head.imports()).isEqualTo(2);
    assertThat(o.actions()).anyMatch(a -> a.contains("holds podman://img:1; importing"));
    assertThat(Files.readString(ContainerPreparer.imageRecord(sqsh))).isEqualTo("docker://img:1\n");
  }

  @Test
  void aNamedContainerThatExistsIsTakenAsGivenWhenNoImageWasGiven() throws Exception {
    Head head = new Head();
    head.containers.put("mine", "made by hand");
    head.offline.add("docker://nvcr.io#nvidia/hpc-benchmarks:25.04");
    // hpl --container-name=mine: the name is the user's, the image the preset's default
    Plan p = plan("nvcr.io#nvidia/hpc-benchmarks:25.04", "mine", Source.FLAG, Source.DEFAULT);
    assertThat(p.imageOnlyIfMissing()).isTrue();
    assertThat(PlanRenderer.text(p)).contains("only if container mine is missing");
    ContainerPreparer.Prepared o = prepare(head, p);
    assertThat(head.imports()).isZero();
    assertThat(head.containers.get("mine")).isEqualTo("made by hand");
    assertThat(o.created()).isFalse();
    assertThat(o.actions())
        .first()
        .asString()
        .startsWith("used existing container mine as it is (made outside clusterrun)");

    // missing, the preset's image makes it (and the record says so)
    head.containers.clear();
    head.offline.clear();
    prepare(head, p);
    assertThat(head.containers.get("mine"))
        .isEqualTo("docker://nvcr.io#nvidia/hpc-benchmarks:25.04");
    assertThat(ContainerPreparer.recordedImage(ws, "mine"))
        .isEqualTo("docker://nvcr.io#nvidia/hpc-benchmarks:25.04");

    // an image the user gives still re-creates a container made from another
    Plan given = plan("docker://img:2", "mine", Source.FLAG, Source.FLAG);
    assertThat(given.imageOnlyIfMissing()).isFalse();
    prepare(head, given);
    assertThat(head.containers.get("mine")).isEqualTo("docker://img:2");
  }

  @Test
  void aContainerInTheHeadsDataPathNeedsNoEnrootListAndAMissingOneAsksEnroot() throws Exception {
    Path data = Files.createDirectories(ws.resolve("enroot-data"));
    Files.createDirectories(data.resolve("mine"));
    Head head = new Head(); // its enroot lists nothing: only the directory says "there"
    Plan p = plan(null, "mine", Source.FLAG, Source.FLAG);
    ContainerPreparer.Prepared o =
        new ContainerPreparer(head, new ByteArrayOutputStream())
            .dataPath(data + "/")
            .prepare(p, ws.toString());
    assertThat(o.actions()).first().isEqualTo("used existing container mine");
    // no enroot list; only the snapshot the other nodes start is taken
    assertThat(head.ran).allMatch(a -> a.get(1).equals("export"));

    // not in that directory: enroot itself is asked (the facts may not be its view)
    head.containers.put("other", "made elsewhere");
    Plan other = plan(null, "other", Source.FLAG, Source.FLAG);
    o =
        new ContainerPreparer(head, new ByteArrayOutputStream())
            .dataPath(data.toString())
            .prepare(other, ws.toString());
    assertThat(o.actions()).first().isEqualTo("used existing container other");
    assertThat(head.ran).contains(List.of("enroot", "list"));
  }

  @Test
  void thePlanSaysWhatTheNamedContainerHolds() throws Exception {
    Plan p = plan("nvcr.io#nvidia/hpc-benchmarks:25.04", "mine", Source.FLAG, Source.DEFAULT);
    assertThat(PlanRenderer.text(ContainerPreparer.lookUp(p, ws.toString())))
        .contains("# container mine holds: unknown: made outside clusterrun (or not made yet)\n");
    prepare(new Head(), p);
    assertThat(PlanRenderer.text(ContainerPreparer.lookUp(p, ws.toString())))
        .contains(
            "# container mine holds: docker://nvcr.io#nvidia/hpc-benchmarks:25.04"
                + " (clusterrun's record of what made it)\n");
    assertThat(PlanRenderer.json(ContainerPreparer.lookUp(p, ws.toString())))
        .contains("\"holds\" : \"docker://nvcr.io#nvidia/hpc-benchmarks:25.04");
    assertThat(ContainerPreparer.lookUp(p, ws.resolve("elsewhere").toString()).containerHolds())
        .startsWith("unknown here: the workspace");
  }
}
