package dev.clusterrun.cli;

import picocli.AutoComplete;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

@Command(name = "completion")
final class CompletionCommand extends BaseCommand {
  /** Its few options sorted by name, as they always were (the other commands keep their order). */
  @Spec
  void sortOptions(CommandSpec spec) {
    spec.usageMessage().sortOptions(true);
  }

  @Override
  public Integer call() {
    print(AutoComplete.bash("clusterrun", spec.root().commandLine()));
    return spec.exitCodeOnSuccess();
  }
}
