package dev.clusterrun.dist;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** The roff renderer on a small command that has every construct, against golden pages. */
class ManPageTest {
  static final Path GOLDEN = Path.of("src/test/resources/man");
  static final Path ACTUAL = Path.of("target/man-actual");
  static final ManPage.Meta META =
      new ManPage.Meta(
          "tool",
          "1.2-SNAPSHOT",
          "2026-11-21",
          "tool manual",
          Map.of("0", "Default table."),
          ".SH FILES\n.TP\n.I /etc/tool\nConfiguration.\n");

  @Command(
      name = "tool",
      mixinStandardHelpOptions = true,
      version = "tool 1",
      sortOptions = false,
      description = {
        "Do things with `tool`: the summary stops at the colon. More words.",
        "A backslash \\ stays, a hyphen-minus -x stays copyable, and %%n is not a line break.",
        ".A line that starts with a dot%n'and one with a quote%n%nafter an empty line.",
        "Unicode: \u2026 \u2713 \u00d7 \uD83D\uDE80 and @|bold bold|@ and @|italic italic|@ markup."
      },
      exitCodeList = {"0:Fine.", "2:Bad input (`--flag`)."},
      footer = "Footer paragraph.",
      subcommands = {Tool.Sub.class, Tool.Hidden.class})
  static class Tool {
    @Option(names = "--required", required = true, paramLabel = "X", description = "Required one.")
    String required;

    @Option(
        names = {"-i", "--identity"},
        paramLabel = "FILE",
        description = "Key file (default: ${DEFAULT-VALUE}).")
    String identity = "~/.ssh/id";

    @Option(names = "--color", negatable = true, description = "Colours.")
    boolean color = true;

    @Option(
        names = "--level",
        arity = "0..1",
        paramLabel = "N",
        description = {"Optional value.", "Second line."})
    Integer level;

    @Option(names = "--list", split = ",", paramLabel = "A", description = "Comma list.")
    List<String> list;

    @Option(names = "--secret", hidden = true, description = "Never shown.")
    String secret;

    @Parameters(index = "0", paramLabel = "INPUT", description = "The input.")
    String input;

    @Parameters(
        index = "1..*",
        arity = "0..*",
        paramLabel = "[-- ARGS...]",
        description = "Already bracketed.")
    List<String> rest;

    @Command(
        name = "sub",
        aliases = {"s"},
        description = "A @|bold sub|@ command. It has a second sentence.")
    static class Sub {
      @Parameters(arity = "0..*", paramLabel = "FILE", description = "Files.")
      List<String> files;
    }

    @Command(name = "hidden", hidden = true, description = "Never listed.")
    static class Hidden {}
  }

  static CommandLine tool() {
    return new CommandLine(new Tool());
  }

  @Test
  void rendersEveryConstructAsTheGoldenPagesSay() throws Exception {
    var pages = ManPage.pages(tool().getCommandSpec());
    assertThat(pages).extracting(ManPage::name).containsExactly("tool", "tool-sub");
    var softly = new org.assertj.core.api.SoftAssertions();
    for (var spec : pages) {
      Path golden = GOLDEN.resolve(ManPage.name(spec) + ".1");
      String actual = ManPage.render(spec, META);
      // Written for review (man -l target/man-actual/tool.1); copy over the golden page when right.
      Path written = Files.createDirectories(ACTUAL).resolve(golden.getFileName());
      Files.writeString(written, actual, StandardCharsets.UTF_8);
      String expected =
          Files.exists(golden) ? Files.readString(golden, StandardCharsets.UTF_8) : "(missing)";
      softly.assertThat(actual).as("%s (rendered: %s)", golden, written).isEqualTo(expected);
    }
    softly.assertAll();
  }

  @Test
  void pagesAreAsciiAndNoTextLineIsARequest() {
    for (var spec : ManPage.pages(tool().getCommandSpec())) {
      for (String line : ManPage.render(spec, META).split("\n")) {
        assertThat(line.chars().allMatch(c -> c < 0x80)).as(line).isTrue();
        if (line.startsWith(".") || line.startsWith("'")) {
          assertThat(line).matches("^\\.(\\\\\"|TH|SH|TP|PP|br|sp|nh|ad|B|I|BR) ?.*");
        }
      }
    }
  }

  @Test
  void escapesTheCharactersRoffWouldInterpret() {
    assertThat(ManPage.escape("a\\b")).isEqualTo("a\\eb");
    assertThat(ManPage.escape("--x")).isEqualTo("\\-\\-x");
    assertThat(ManPage.escape(".x")).isEqualTo("\\&.x");
    assertThat(ManPage.escape("'x")).isEqualTo("\\&'x");
    assertThat(ManPage.escape("\u2026")).isEqualTo("\\[u2026]");
    assertThat(ManPage.escape("\uD83D\uDE80")).isEqualTo("\\[u1F680]");
    assertThat(ManPage.text("run `a -b` now")).isEqualTo("run \\fBa \\-b\\fR now");
    assertThat(ManPage.text("odd ` tick")).isEqualTo("odd \\(ga tick");
  }

  @Test
  void summaryIsTheHeaderElseTheFirstSentenceBeforeAColon() {
    assertThat(ManPage.summary(tool().getCommandSpec())).isEqualTo("Do things with `tool`");
    var sub = tool().getSubcommands().get("sub").getCommandSpec();
    assertThat(ManPage.summary(sub)).isEqualTo("A @|bold sub|@ command");
    sub.usageMessage().header("The header.");
    assertThat(ManPage.summary(sub)).isEqualTo("The header");
  }
}
