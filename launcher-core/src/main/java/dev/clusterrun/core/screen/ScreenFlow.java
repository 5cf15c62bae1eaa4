package dev.clusterrun.core.screen;

import dev.clusterrun.core.AtomicFiles;
import dev.clusterrun.core.BadInputException;
import dev.clusterrun.core.ExitCode;
import dev.clusterrun.core.Sha256;
import dev.clusterrun.core.cluster.Host;
import dev.clusterrun.core.cluster.Hostfile;
import dev.clusterrun.core.launch.JobResolver;
import dev.clusterrun.core.launch.LaunchFlow;
import dev.clusterrun.core.launch.LaunchOutcome;
import dev.clusterrun.core.launch.ResolvedJob;
import dev.clusterrun.core.launch.RunSummary;
import dev.clusterrun.core.launch.Source;
import dev.clusterrun.core.session.Console;
import dev.clusterrun.core.spec.ContainerSpec;
import dev.clusterrun.core.spec.ImageRef;
import dev.clusterrun.core.spec.JobSpec;
import dev.clusterrun.core.spec.MpiSpec;
import dev.clusterrun.core.spec.SshSpec;
import dev.clusterrun.core.spec.WorkspaceSpec;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The flow of {@code screen}: the nodes in pairs ({@link PairRounds}), one mpirun per round with
 * every pair of the round at once (ranks 2k and 2k+1 of the round's hostfile are a pair), each rank
 * in the job's container, run by {@link LaunchFlow} like any job; the pairs' figures judged against
 * each other ({@link ScreenJudge}). The ping-pong ships as C source and is compiled by the
 * container's {@code mpicc} on the first use of an image, then kept in the workspace under a name
 * made from the source and the image's identity.
 */
public final class ScreenFlow {
  static final String SOURCE_RESOURCE = "pingpong.c";

  /** Compiles the ping-pong once (rank 0; the others wait for it), then runs it. */
  static final String SCRIPT =
      "src=$1 bin=$2\n"
          + "if [ ! -x \"$bin\" ]; then\n"
          + "  if [ \"${OMPI_COMM_WORLD_RANK:-0}\" = 0 ]; then\n"
          + "    mpicc -O2 -o \"$bin.$$\" \"$src\" && mv -f \"$bin.$$\" \"$bin\" ||"
          + " { echo \"clusterrun-screen: mpicc could not compile $src\" >&2; exit 1; }\n"
          + "  else\n"
          + "    i=0\n"
          + "    while [ ! -x \"$bin\" ]; do\n"
          + "      i=$((i + 1)); if [ $i -gt 1200 ]; then"
          + " echo \"clusterrun-screen: $bin did not appear\" >&2; exit 1; fi\n"
          + "      sleep 0.1\n"
          + "    done\n"
          + "  fi\n"
          + "fi\n"
          + "exec \"$bin\"\n";

  private final ScreenRequest rq;
  private final String source;
  private final Console quiet;

  private ScreenFlow(ScreenRequest rq, String source, Console quiet) {
    this.rq = rq;
    this.source = source;
    this.quiet = quiet;
  }

  /** Screens the hostfile's nodes. */
  public static ScreenOutcome run(ScreenRequest rq, Console console)
      throws IOException, InterruptedException {
    if (rq.input().flags().mpi().np() != null) {
      throw new BadInputException("--np", "screen runs one rank on each node of each pair");
    }
    Hostfile hf = rq.input().readHostfile();
    if (hf.hosts().size() < 2) {
      throw new BadInputException(
          hf.source(), "a screen needs at least two nodes (it measures them in pairs)");
    }
    // The ping-pong's lines go to the round's stdout.log; stdout carries the screen's report.
    Console quiet =
        new Console(
            console.progress(),
            OutputStream.nullOutputStream(),
            console.err(),
            console.interrupts(),
            null);
    ScreenFlow flow = new ScreenFlow(rq, source(), quiet);
    List<List<PairRounds.Pair>> rounds = PairRounds.rounds(hf.hosts().size());
    List<ScreenJudge.PairFigure> figures = new ArrayList<>();
    Map<String, String> notRun = new LinkedHashMap<>();
    for (int r = 0; r < rounds.size(); r++) {
      List<Host> hosts = roundHosts(hf, rounds.get(r));
      console
          .progress()
          .note("screen: round " + (r + 1) + " of " + rounds.size() + ": " + describe(hosts));
      LaunchOutcome out = flow.runRound(new Hostfile(hf.source(), hosts));
      RunSummary s = out.summary();
      if (s == null || !s.jobRan()) {
        return new ScreenOutcome(out.exitCode(), null, out, Map.of());
      }
      collect(hosts, s, figures, notRun);
    }
    if (!notRun.isEmpty()) {
      return new ScreenOutcome(ExitCode.CHECK_FAILED.value(), null, null, notRun);
    }
    ScreenJudge.Verdict v = ScreenJudge.judge(hf.names(), figures, rq.tolerance());
    if (rq.writeHostfile() != null) {
      ScreenHostfile.write(rq.input().hostfile(), v.flaggedNodes(), rq.writeHostfile());
    }
    return new ScreenOutcome(
        v.clean() ? ExitCode.OK.value() : ExitCode.RESULT_FAILED.value(), v, null, Map.of());
  }

  /** The round's hosts, the pairs one after the other, one slot each. */
  static List<Host> roundHosts(Hostfile hf, List<PairRounds.Pair> pairs) {
    List<Host> out = new ArrayList<>();
    for (PairRounds.Pair p : pairs) {
      for (int i : new int[] {p.a(), p.b()}) {
        Host h = hf.hosts().get(i);
        out.add(new Host(h.name(), 1, true, 0, h.line()));
      }
    }
    return out;
  }

  private static String describe(List<Host> hosts) {
    List<String> pairs = new ArrayList<>();
    for (int i = 0; i + 1 < hosts.size(); i += 2) {
      pairs.add(hosts.get(i).name() + "-" + hosts.get(i + 1).name());
    }
    return String.join(", ", pairs);
  }

  /** The round's pairs' figures from its stdout.log; a pair without one is said in notRun. */
  private static void collect(
      List<Host> hosts,
      RunSummary s,
      List<ScreenJudge.PairFigure> figures,
      Map<String, String> notRun)
      throws IOException {
    Path log = Path.of(s.runDir()).resolve("stdout.log");
    String text =
        Files.isRegularFile(log) ? new String(Files.readAllBytes(log), StandardCharsets.UTF_8) : "";
    Map<Integer, PingPongParser.Measured> m = PingPongParser.parse(text);
    for (int i = 0; i + 1 < hosts.size(); i += 2) {
      String a = hosts.get(i).name();
      String b = hosts.get(i + 1).name();
      PingPongParser.Measured x = m.get(i);
      if (x == null || x.peer() != i + 1) {
        String why =
            "the pair "
                + a
                + "-"
                + b
                + " gave no figure (run "
                + s.runId()
                + " "
                + s.outcome()
                + ", exit "
                + s.exitCode()
                + "; see "
                + s.runDir()
                + ")";
        notRun.putIfAbsent(a, why);
        notRun.putIfAbsent(b, why);
      } else {
        figures.add(new ScreenJudge.PairFigure(a, b, x.bandwidthMBps(), x.latencyUs()));
      }
    }
  }

  private LaunchOutcome runRound(Hostfile round) throws IOException, InterruptedException {
    ResolvedJob first = resolve(round, List.of("true"));
    if (first.image().value() == null && first.containerName().source() == Source.DEFAULT) {
      throw new BadInputException(
          "--container-image",
          "screen needs the job's container: an enroot URI or a .sqsh file with Open MPI and"
              + " mpicc, or --container-name of an existing container");
    }
    Path dir = Path.of(first.workspacePath().value()).resolve("screen");
    Files.createDirectories(dir.resolve("bin"));
    String srcName = "pingpong-" + Sha256.hex(source).substring(0, 12) + ".c";
    Path src = dir.resolve(srcName);
    if (!Files.isRegularFile(src)) {
      AtomicFiles.write(src, source);
    }
    LaunchFlow.Launch launch =
        new LaunchFlow.Launch(
            round, first, LaunchFlow.newRunId("screen"), null, rq.launch(), rq.clusterrunVersion());
    return LaunchFlow.launch(
        launch, (session, report, job) -> withProgram(round, job, srcName), quiet);
  }

  /** The round's job with its command, once the image is pinned (its identity names the binary). */
  private ResolvedJob withProgram(Hostfile round, ResolvedJob pinned, String srcName)
      throws IOException {
    String key = Sha256.hex(source + "\n" + imageIdentity(pinned)).substring(0, 16);
    String m = pinned.workspaceMount().value();
    String inContainer =
        (m.endsWith("/") && m.length() > 1 ? m.substring(0, m.length() - 1) : m) + "/screen/";
    List<String> command =
        List.of(
            "sh",
            "-c",
            SCRIPT,
            "clusterrun-screen",
            inContainer + srcName,
            inContainer + "bin/pingpong-" + key);
    return resolve(round, command).withImage(pinned.image());
  }

  /**
   * What identifies the container's contents: the pinned URI, the file, or the container's name.
   */
  static String imageIdentity(ResolvedJob job) throws IOException {
    ImageRef img = job.image().value();
    if (img == null) {
      return "container " + job.containerName().value();
    }
    if (img.isUri()) {
      return "image " + img.value();
    }
    Path f = Path.of(img.value()).toAbsolutePath();
    return "file "
        + f
        + " "
        + Files.size(f)
        + " "
        + Files.getLastModifiedTime(f).toMillis()
        + " "
        + job.containerName().value();
  }

  private ResolvedJob resolve(Hostfile round, List<String> command) {
    JobResolver r = new JobResolver();
    r.layer(rq.input().flags(), Source.FLAG, "flags");
    r.layer(
        new JobSpec(
            "screen",
            ContainerSpec.EMPTY,
            WorkspaceSpec.EMPTY,
            new MpiSpec(round.hosts().size(), null, null, null, null, null),
            command,
            SshSpec.EMPTY,
            "screen"),
        Source.DEFAULT,
        "screen: one rank on each node of each pair");
    r.environment(rq.input().env());
    return r.resolve(round, rq.input().home(), rq.input().cwd());
  }

  static String source() throws IOException {
    try (InputStream in = ScreenFlow.class.getResourceAsStream(SOURCE_RESOURCE)) {
      if (in == null) {
        throw new IOException("missing resource " + SOURCE_RESOURCE);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }
}
