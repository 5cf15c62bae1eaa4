package dev.clusterrun.cli;

import dev.clusterrun.core.image.ImagesFlow;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

@Command(name = "prune", versionProvider = VersionProvider.class)
final class ImagesPruneCommand extends BaseCommand {
  @ParentCommand ImagesCommand images;

  @Option(names = "--older-than", paramLabel = "AGE")
  String olderThan;

  @Option(names = "--all", descriptionKey = "images-prune.all")
  boolean all;

  @Mixin WorkspaceOption workspace;
  @Mixin JsonOption json;

  @Override
  public Integer call() throws Exception {
    return images.render(
        ImagesFlow.prune(new ImagesFlow.PruneRequest(where(workspace), olderThan, all, json.on)));
  }
}
