package dev.clusterrun.cli;

import dev.clusterrun.core.check.CheckFlow;
import dev.clusterrun.core.check.CheckId;
import dev.clusterrun.core.check.CheckOutcome;
import dev.clusterrun.core.check.CheckRequest;
import dev.clusterrun.core.check.CheckSelection;
import dev.clusterrun.core.cluster.Hostfile;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(name = "check")
final class CheckCommand extends BaseCommand {
  @Mixin NodesOption nodes;
  @Mixin JsonOption json;

  @Option(names = "--only", paramLabel = "CHECK", split = ",", splitSynopsisLabel = ",")
  List<String> only;

  @Option(names = "--skip", paramLabel = "CHECK", split = ",", splitSynopsisLabel = ",")
  List<String> skip;

  /** Lists every check with its one-line description under the options, from {@link CheckId}. */
  @Spec
  void listChecks(CommandSpec spec) {
    int w = CheckId.ids().stream().mapToInt(String::length).max().orElse(0);
    List<String> lines = new ArrayList<>();
    for (CheckId c : CheckId.values()) {
      lines.add("  " + c.id() + " ".repeat(w - c.id().length() + 2) + c.description());
    }
    spec.usageMessage()
        .footerHeading("%nChecks (for --only and --skip):%n")
        .footer(lines.toArray(String[]::new));
  }

  @Mixin SshOptions ssh;

  @Parameters(arity = "0..1", paramLabel = "JOB.yaml", descriptionKey = "check.job-yaml")
  Path jobFile;

  @Override
  public Integer call() throws InterruptedException {
    CheckSelection selection = CheckSelection.parse(only, skip);
    Hostfile hostfile = nodes.read(root().env);
    CheckOutcome outcome =
        CheckFlow.run(
            CheckRequest.of(hostfile, ssh.flags(), jobFile, selection),
            root().console().progress(),
            o -> print(json.on ? o.report().renderJson() : o.report().renderTable()));
    return outcome.exitCode();
  }
}
