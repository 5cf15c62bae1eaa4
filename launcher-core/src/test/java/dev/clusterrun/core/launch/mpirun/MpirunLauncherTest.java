package dev.clusterrun.core.launch.mpirun;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clusterrun.core.enroot.LaunchAgent;
import dev.clusterrun.core.launch.container.ContainerPreparer;
import dev.clusterrun.core.launch.plan.Plan;
import dev.clusterrun.core.launch.plan.PlannerTest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MpirunLauncherTest {
  @TempDir Path ws;

  private Plan plan(String image, String name) {
    return PlannerTest.planOf(ws, image, name);
  }

  @Test
  void theDaemonIsRememberedOnlyForContentsThatCannotChangeUnseen() throws Exception {
    Path img = ws.resolve("i.sqsh");
    Files.writeString(img, "one");
    Plan direct = plan(img.toString(), null);
    String key = DaemonDetection.contentKey(direct, ws, null);
    assertThat(key).startsWith("image " + img + " 3 ");
    // A rebuilt image is other contents.
    Files.writeString(img, "other");
    Files.setLastModifiedTime(img, FileTime.fromMillis(1000));
    assertThat(DaemonDetection.contentKey(direct, ws, null)).isNotEqualTo(key);

    // A named container: only with clusterrun's record of what made it, which a re-creation
    // rewrites.
    Plan named = plan(img.toString(), "mine");
    assertThat(DaemonDetection.contentKey(named, ws, null)).isNull();
    Path rec = ContainerPreparer.containerRecord(ws, "mine");
    Files.createDirectories(rec.getParent());
    Files.writeString(rec, "/x/i.sqsh 3 100\n");
    String before = DaemonDetection.contentKey(named, ws, null);
    assertThat(before).startsWith("container mine /x/i.sqsh 3 100 ");
    Files.setLastModifiedTime(rec, FileTime.fromMillis(5000));
    assertThat(DaemonDetection.contentKey(named, ws, null)).isNotEqualTo(before);

    // Made outside clusterrun (no record): known by its root directory in the head's data path,
    // which a removal and a new `enroot create` replace.
    Plan outside = plan(img.toString(), "theirs");
    Path data = Files.createDirectories(ws.resolve("data"));
    assertThat(DaemonDetection.contentKey(outside, ws, data.toString())).isNull();
    Path rootfs = Files.createDirectories(data.resolve("theirs"));
    String made = DaemonDetection.contentKey(outside, ws, data.toString());
    assertThat(made).startsWith("container theirs rootfs " + rootfs + " ");
    assertThat(DaemonDetection.contentKey(outside, ws, data.toString())).isEqualTo(made);
    Files.delete(rootfs);
    Thread.sleep(20);
    Files.createDirectories(rootfs);
    assertThat(DaemonDetection.contentKey(outside, ws, data.toString())).isNotEqualTo(made);

    assertThat(DaemonDetection.daemonFor("5.0.3")).isEqualTo(LaunchAgent.Daemon.PRTED);
    assertThat(DaemonDetection.daemonFor("4.1.4")).isEqualTo(LaunchAgent.Daemon.ORTED);
  }

  @Test
  void aReadOnlyJobsMountPointsDoNotMakeTheNextRunAskItsOpenMpiAgain() throws Exception {
    Path data = Files.createDirectories(ws.resolve("data"));
    Path rootfs = Files.createDirectories(data.resolve("theirs"));
    Plan plan = plan(ws.resolve("i.sqsh").toString(), "theirs");
    assertThat(plan.launch().subList(0, plan.launchCommandAt())).doesNotContain("--rw");
    // The run asked (the memo under the key before the job), then enroot made the workspace's
    // mount point in the container's root directory.
    String before = DaemonDetection.keyBeforeJob(plan, data.toString());
    Files.createDirectories(DaemonDetection.memo(ws, before).getParent());
    Files.writeString(DaemonDetection.memo(ws, before), "4.1.4\n" + before + "\n");
    Thread.sleep(20);
    Files.createDirectories(rootfs.resolve("workspace"));
    assertThat(DaemonDetection.contentKey(plan, ws, data.toString())).isNotEqualTo(before);
    assertThat(DaemonDetection.rememberedDaemon(plan, data.toString())).isNull();

    DaemonDetection.carryOver(plan, data.toString(), before, null);
    assertThat(DaemonDetection.rememberedDaemon(plan, data.toString()))
        .isEqualTo(LaunchAgent.Daemon.ORTED);

    // The version this run asked carries over even when the ask's own start changed the key.
    Files.createDirectories(rootfs.resolve("opt"));
    String later = DaemonDetection.keyBeforeJob(plan, data.toString());
    Thread.sleep(20);
    Files.createDirectories(rootfs.resolve("scratch"));
    DaemonDetection.carryOver(plan, data.toString(), later, "5.0.3");
    assertThat(DaemonDetection.rememberedDaemon(plan, data.toString()))
        .isEqualTo(LaunchAgent.Daemon.PRTED);

    // A writable job may have changed what Open MPI the container holds: asked again next time.
    List<String> rw = new ArrayList<>(plan.launch());
    rw.add(2, "--rw");
    Plan writable = plan.toBuilder().launch(rw).launchCommandAt(plan.launchCommandAt() + 1).build();
    assertThat(DaemonDetection.keyBeforeJob(writable, data.toString())).isNull();
  }
}
