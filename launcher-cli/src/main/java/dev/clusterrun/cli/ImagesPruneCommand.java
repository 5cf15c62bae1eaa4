package dev.clusterrun.cli;

import dev.clusterrun.core.image.ImagesFlow;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

@Command(
    name = "prune",
    sortOptions = false,
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class)
final class ImagesPruneCommand implements Callable<Integer> {
  @ParentCommand ImagesCommand parent;

  @Option(names = "--older-than", paramLabel = "AGE")
  String olderThan;

  @Option(names = "--all", descriptionKey = "images-prune.all")
  boolean all;

  @Mixin ImagesWorkspaceOption workspace;

  @Option(names = "--json", descriptionKey = "images-prune.json")
  boolean json;

  @Override
  public Integer call() throws Exception {
    RootCommand root = parent.root;
    return ImagesWorkspaceOption.render(
        ImagesFlow.prune(new ImagesFlow.PruneRequest(workspace.where(root), olderThan, all, json)),
        root);
  }
}
