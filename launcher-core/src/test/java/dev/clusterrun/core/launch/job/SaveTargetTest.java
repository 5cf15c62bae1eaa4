package dev.clusterrun.core.launch.job;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clusterrun.core.launch.plan.Plan;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --container-save} never writes over a directory or a file clusterrun did not save (Pyxis's
 * {@code --container-save=./} once deleted a user's files, NVIDIA/pyxis#151), and never leaves a
 * partial image under the name asked for. The export is a stand-in that writes a file, as {@code
 * enroot export} does; the decisions and the renaming are the real ones.
 */
class SaveTargetTest {
  @TempDir Path dir;

  final List<List<String>> ran = new ArrayList<>();

  /**
   * {@code enroot export --output FILE NAME}: writes FILE (refusing one that exists, as enroot).
   */
  SaveTarget.Runner export(String content) {
    return argv -> {
      ran.add(argv);
      Path out = Path.of(argv.get(3));
      if (Files.exists(out)) {
        return 1;
      }
      Files.writeString(out, content);
      return 0;
    };
  }

  static List<String> argv(Path target) {
    return List.of("enroot", "export", "--output", target.toString(), "job");
  }

  @Test
  void aNewFileIsWrittenUnderATemporaryNameThenRenamedWithItsRecord() throws Exception {
    Path target = dir.resolve("after.sqsh");
    assertThat(SaveTarget.decide(target).kind()).isEqualTo(SaveTarget.Kind.NEW);

    assertThat(SaveTarget.save(argv(target), "RUN1", export("image 1"))).isNull();

    assertThat(ran).hasSize(1);
    assertThat(ran.get(0).get(3))
        .isEqualTo(dir.resolve(".after.sqsh.clusterrun-RUN1.tmp").toString())
        .isNotEqualTo(target.toString());
    assertThat(target).hasContent("image 1");
    assertThat(SaveTarget.record(target)).exists();
    assertThat(Files.readString(SaveTarget.record(target))).contains("container=job", "run=RUN1");
    assertThat(SaveTarget.temporary(target, "RUN1")).doesNotExist();
  }

  @Test
  void aFileClusterrunSavedIsReplacedOnTheNextRun() throws Exception {
    Path target = dir.resolve("after.sqsh");
    assertThat(SaveTarget.save(argv(target), "RUN1", export("image 1"))).isNull();

    assertThat(SaveTarget.decide(target).kind()).isEqualTo(SaveTarget.Kind.REPLACE_OWN);
    assertThat(SaveTarget.save(argv(target), "RUN2", export("image 2"))).isNull();
    assertThat(target).hasContent("image 2");
    assertThat(Files.readString(SaveTarget.record(target))).contains("run=RUN2");
  }

  @Test
  void aDirectoryIsNeverWrittenOver() throws Exception {
    Path ws = Files.createDirectories(dir.resolve("work"));
    Files.writeString(ws.resolve("notes.txt"), "mine");

    SaveTarget.Decision d = SaveTarget.decide(ws);
    assertThat(d.kind()).isEqualTo(SaveTarget.Kind.REFUSED);
    assertThat(d.problem())
        .contains("is a directory")
        .contains(ws.resolve("container.sqsh").toString());

    assertThat(SaveTarget.save(argv(ws), "RUN1", export("image"))).contains("is a directory");
    assertThat(ran).isEmpty();
    assertThat(ws.resolve("notes.txt")).hasContent("mine");
  }

  @Test
  void aFileClusterrunDidNotSaveIsNeverWrittenOver() throws Exception {
    Path target = dir.resolve("mine.sqsh");
    Files.writeString(target, "the user's own");

    SaveTarget.Decision d = SaveTarget.decide(target);
    assertThat(d.kind()).isEqualTo(SaveTarget.Kind.REFUSED);
    assertThat(d.problem())
        .contains("clusterrun did not save it")
        .contains("mine.sqsh.clusterrun-save");
    // After the job, the image is kept beside it, under its temporary name.
    assertThat(SaveTarget.save(argv(target), "RUN1", export("image")))
        .contains("saved as " + SaveTarget.temporary(target, "RUN1"))
        .contains("clusterrun did not save it");
    assertThat(ran).hasSize(1);
    assertThat(target).hasContent("the user's own");
    assertThat(SaveTarget.temporary(target, "RUN1")).hasContent("image");
  }

  @Test
  void aSavedFileTheUserChangedSinceIsNotWrittenOver() throws Exception {
    Path target = dir.resolve("after.sqsh");
    assertThat(SaveTarget.save(argv(target), "RUN1", export("image 1"))).isNull();
    // The user puts a file of their own in its place (another inode, another time).
    Files.delete(target);
    Files.writeString(target, "replaced by hand");
    Files.setLastModifiedTime(target, FileTime.fromMillis(1_000_000_000_000L));

    SaveTarget.Decision d = SaveTarget.decide(target);
    assertThat(d.kind()).isEqualTo(SaveTarget.Kind.REFUSED);
    assertThat(d.problem()).contains("has changed since clusterrun saved it");
    assertThat(target).hasContent("replaced by hand");
  }

  @Test
  void aSymbolicLinkIsNotFollowed() throws Exception {
    Path elsewhere = Files.writeString(dir.resolve("precious"), "keep");
    Path link = Files.createSymbolicLink(dir.resolve("link.sqsh"), elsewhere);

    assertThat(SaveTarget.decide(link).problem()).contains("symbolic link");
    assertThat(SaveTarget.save(argv(link), "RUN1", export("image"))).isNotNull();
    assertThat(elsewhere).hasContent("keep");
  }

  @Test
  void aParentThatDoesNotExistIsRefused() {
    Path target = dir.resolve("no/such/dir/after.sqsh");
    SaveTarget.Decision d = SaveTarget.decide(target);
    assertThat(d.kind()).isEqualTo(SaveTarget.Kind.REFUSED);
    assertThat(d.problem())
        .contains("does not exist")
        .contains(dir.resolve("no/such/dir").toString());
  }

  @Test
  void whatAppearsDuringTheJobIsNotWrittenOverEither() throws Exception {
    Path target = dir.resolve("after.sqsh");
    SaveTarget.Runner exportWhileUserWrites =
        argv -> {
          int code = export("image").run(argv);
          Files.writeString(target, "written meanwhile");
          return code;
        };
    String problem = SaveTarget.save(argv(target), "RUN1", exportWhileUserWrites);
    assertThat(problem)
        .contains("saved as " + SaveTarget.temporary(target, "RUN1"))
        .contains("clusterrun did not save it");
    assertThat(target).hasContent("written meanwhile");
    assertThat(SaveTarget.temporary(target, "RUN1")).hasContent("image");
  }

  @Test
  void aFailedExportLeavesNothingBehind() throws IOException, InterruptedException {
    Path target = dir.resolve("after.sqsh");
    String problem =
        SaveTarget.save(
            argv(target),
            "RUN1",
            argv -> {
              Files.writeString(Path.of(argv.get(3)), "partial");
              return 3;
            });
    assertThat(problem).contains("exited 3");
    assertThat(target).doesNotExist();
    assertThat(SaveTarget.temporary(target, "RUN1")).doesNotExist();
  }

  @Test
  void onlyThePlansExportIsTheSaveStep() {
    assertThat(
            new Plan.Step(Plan.Step.Action.SAVE, "save", argv(dir.resolve("x.sqsh")), "after")
                .isSave())
        .isTrue();
    assertThat(
            new Plan.Step(
                    Plan.Step.Action.REMOVE,
                    "remove",
                    List.of("enroot", "remove", "--force", "job"),
                    "after")
                .isSave())
        .isFalse();
  }
}
