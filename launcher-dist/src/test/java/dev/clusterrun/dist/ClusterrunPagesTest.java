package dev.clusterrun.dist;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clusterrun.cli.CommandModel;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * The real command tree: a page for every command, and every option, argument and subcommand of a
 * command on its page, whatever the other modules add. Nothing here is hard-coded per command.
 */
class ClusterrunPagesTest {
  static final ManPage.Meta META =
      new ManPage.Meta(
          "clusterrun",
          "0.0.0",
          "2026-11-21",
          "clusterrun manual",
          GenerateDocs.rootExitCodes(),
          GenerateDocs.ROOT_SECTIONS);

  static List<CommandSpec> allCommands(CommandLine cl) {
    List<CommandSpec> out = new ArrayList<>();
    if (!cl.getCommandSpec().usageMessage().hidden()) {
      out.add(cl.getCommandSpec());
      for (CommandLine sub : cl.getSubcommands().values()) {
        if (!out.contains(sub.getCommandSpec())) {
          for (CommandSpec s : allCommands(sub)) {
            if (!out.contains(s)) {
              out.add(s);
            }
          }
        }
      }
    }
    return out;
  }

  @Test
  void everyCommandHasAPageNamedAfterItsPath() {
    CommandLine root = CommandModel.commandLine();
    List<CommandSpec> pages = ManPage.pages(root.getCommandSpec());
    assertThat(pages).containsExactlyInAnyOrderElementsOf(allCommands(root));
    assertThat(pages).extracting(ManPage::name).contains("clusterrun", "clusterrun-run");
  }

  @Test
  void everyOptionArgumentAndSubcommandIsOnItsPage() {
    for (CommandSpec spec : ManPage.pages(CommandModel.commandLine().getCommandSpec())) {
      String page = ManPage.render(spec, META);
      for (OptionSpec o : spec.options()) {
        if (!o.hidden()) {
          for (String name : o.names()) {
            assertThat(page)
                .as(ManPage.name(spec))
                .contains("\\fB" + ManPage.escape(name) + "\\fR");
          }
        }
      }
      for (var p : spec.positionalParameters()) {
        if (!p.hidden()) {
          assertThat(page).as(ManPage.name(spec)).contains(ManPage.escape(p.paramLabel()));
        }
      }
      for (CommandSpec sub : ManPage.visibleSubcommands(spec)) {
        assertThat(page)
            .as(ManPage.name(spec))
            .contains(".BR " + ManPage.escape(ManPage.name(sub)));
      }
      assertThat(page).as(ManPage.name(spec)).contains(".SH \"EXIT STATUS\"");
    }
  }

  @Test
  void noPlaceholderOrFormatSpecifierIsLeftAndPagesAreAscii() {
    for (CommandSpec spec : ManPage.pages(CommandModel.commandLine().getCommandSpec())) {
      String page = ManPage.render(spec, META);
      assertThat(page).as(ManPage.name(spec)).doesNotContain("${", "%n", "@|", "|@");
      assertThat(page.chars().allMatch(c -> c < 0x80)).as(ManPage.name(spec)).isTrue();
    }
  }

  @Test
  void completionScriptCompletesTheClusterrunCommand() {
    String script = CommandModel.bashCompletion();
    assertThat(script).contains("complete -F _complete_clusterrun");
    for (CommandSpec sub :
        ManPage.visibleSubcommands(CommandModel.commandLine().getCommandSpec())) {
      assertThat(script).contains(sub.name());
    }
  }
}
