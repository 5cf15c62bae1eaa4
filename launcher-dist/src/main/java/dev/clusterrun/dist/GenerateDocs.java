package dev.clusterrun.dist;

import dev.clusterrun.cli.CommandModel;
import dev.clusterrun.cli.Main;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import java.util.zip.Deflater;
import java.util.zip.GZIPOutputStream;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;

/**
 * Build-time generator (run by {@code mvn package} in launcher-dist): writes, from the live picocli
 * command tree,
 *
 * <ul>
 *   <li>{@code TARGET/man/man1/NAME.1}: one man page per command, for reading and linting;
 *   <li>{@code TARGET/deb-root/usr/share/man/man1/NAME.1.gz}: the same, gzipped for the package;
 *   <li>{@code TARGET/deb-root/usr/share/bash-completion/completions/clusterrun}: what {@code
 *       clusterrun completion} prints.
 * </ul>
 *
 * <p>Output is reproducible: the pages carry the date of {@code project.build.outputTimestamp}, and
 * the gzip header has no name and no time.
 *
 * <p>Usage: {@code GenerateDocs TARGET VERSION OUTPUT_TIMESTAMP CLI_TARGET}, where CLI_TARGET is
 * launcher-cli's build directory (whose classes the pages must describe).
 */
public final class GenerateDocs {
  private GenerateDocs() {}

  /** The root page's sections about the launcher script and the package's files. */
  static final String ROOT_SECTIONS =
      """
      .SH ENVIRONMENT
      .TP
      .B JAVA_HOME
      The Java runtime to run: \\fB$JAVA_HOME/bin/java\\fR when set, else \\fBjava\\fR from \\fBPATH\\fR.
      .TP
      .B CLUSTERRUN_JAVA_OPTS
      More options for the Java virtual machine, e.g. \\fB\\-Xmx1g\\fR.
      .SH FILES
      .TP
      .I /usr/share/clusterrun/clusterrun.jar
      The program.
      .TP
      .I /usr/share/clusterrun/clusterrun.jsa
      Class-data-sharing archive that shortens start-up, made when the package is installed and \
      again when a Java runtime under \\fI/usr/lib/jvm\\fR changes; \\fBdpkg\\-reconfigure clusterrun\\fR \
      makes it again (e.g. after \\fBupdate\\-alternatives \\-\\-config java\\fR). \
      A Java runtime it was not made with starts without it, silently.
      .TP
      .I /usr/share/bash\\-completion/completions/clusterrun
      Bash completion, also printed by \\fBclusterrun completion\\fR.
      """;

  public static void main(String[] args) throws IOException {
    if (args.length != 4) {
      throw new IllegalArgumentException(
          "usage: GenerateDocs TARGET VERSION OUTPUT_TIMESTAMP CLI_TARGET");
    }
    Path target = Path.of(args[0]);
    requireModelFrom(Path.of(args[3]));
    ManPage.Meta meta =
        new ManPage.Meta(
            "clusterrun",
            args[1],
            isoDate(args[2]),
            "clusterrun manual",
            rootExitCodes(),
            ROOT_SECTIONS);
    Path man = target.resolve("man/man1");
    Path root = target.resolve("deb-root");
    deleteTree(target.resolve("man"));
    deleteTree(root);
    Path gz = Files.createDirectories(root.resolve("usr/share/man/man1"));
    Files.createDirectories(man);
    List<CommandSpec> pages = ManPage.pages(CommandModel.commandLine().getCommandSpec());
    for (CommandSpec spec : pages) {
      byte[] page = ManPage.render(spec, meta).getBytes(StandardCharsets.UTF_8);
      String file = ManPage.name(spec) + ".1";
      Files.write(man.resolve(file), page);
      try (OutputStream out = gzip(Files.newOutputStream(gz.resolve(file + ".gz")))) {
        out.write(page);
      }
    }
    Path completions =
        Files.createDirectories(root.resolve("usr/share/bash-completion/completions"));
    Files.writeString(
        completions.resolve("clusterrun"), CommandModel.bashCompletion(), StandardCharsets.UTF_8);
  }

  /**
   * The pages must describe the jar the package ships, launcher-cli's own build: not a launcher-cli
   * that Maven took from the local repository (another checkout's, or an old one) because the build
   * was started with {@code -pl launcher-dist} without {@code -am}.
   */
  static void requireModelFrom(Path cliTarget) throws IOException {
    Path model;
    try {
      model = Path.of(Main.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    } catch (URISyntaxException e) {
      throw new IOException(e);
    }
    if (!model.toRealPath().startsWith(cliTarget.toRealPath())) {
      throw new IllegalStateException(
          "the command model comes from "
              + model
              + ", not from this build's launcher-cli ("
              + cliTarget
              + "): build launcher-dist with -am (mvn -pl launcher-dist -am package)");
    }
  }

  static Map<String, String> rootExitCodes() {
    CommandLine root = CommandModel.commandLine();
    return root.getCommandSpec().usageMessage().exitCodeList();
  }

  /**
   * The date of Maven's {@code project.build.outputTimestamp}: an ISO-8601 instant or seconds since
   * the epoch.
   */
  static String isoDate(String outputTimestamp) {
    Instant t =
        outputTimestamp.chars().allMatch(Character::isDigit)
            ? Instant.ofEpochSecond(Long.parseLong(outputTimestamp))
            : OffsetDateTime.parse(outputTimestamp).toInstant();
    return t.atOffset(ZoneOffset.UTC).toLocalDate().toString();
  }

  /** gzip -9n: best compression, no file name, no time stamp (Java writes neither). */
  private static OutputStream gzip(OutputStream out) throws IOException {
    return new GZIPOutputStream(out) {
      {
        def.setLevel(Deflater.BEST_COMPRESSION);
      }
    };
  }

  private static void deleteTree(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> s = Files.walk(dir)) {
      for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }
}
