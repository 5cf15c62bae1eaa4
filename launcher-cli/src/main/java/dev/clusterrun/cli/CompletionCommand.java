package dev.clusterrun.cli;

import dev.clusterrun.core.ExitCode;
import java.util.concurrent.Callable;
import picocli.AutoComplete;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

@Command(
    mixinStandardHelpOptions = true,
    name = "completion",
    versionProvider = VersionProvider.class)
final class CompletionCommand implements Callable<Integer> {
  @ParentCommand RootCommand root;
  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    root.out.print(AutoComplete.bash("clusterrun", spec.root().commandLine()));
    root.out.flush();
    return ExitCode.OK.value();
  }
}
