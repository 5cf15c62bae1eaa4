package dev.clusterrun.cli;

import dev.clusterrun.core.image.ImagesFlow;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

@Command(
    name = "images",
    sortOptions = false,
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    subcommands = {ImagesPruneCommand.class})
final class ImagesCommand implements Callable<Integer> {
  @ParentCommand RootCommand root;

  @Mixin ImagesWorkspaceOption workspace;

  @Option(names = "--json", descriptionKey = "images.json")
  boolean json;

  @Override
  public Integer call() throws Exception {
    return ImagesWorkspaceOption.render(
        ImagesFlow.list(new ImagesFlow.ListRequest(workspace.where(root), json)), root);
  }
}
