package dev.clusterrun.cli;

import dev.clusterrun.core.image.ImagesFlow;
import dev.clusterrun.core.image.ImagesOutcome;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

@Command(
    name = "images",
    versionProvider = VersionProvider.class,
    subcommands = {ImagesPruneCommand.class})
final class ImagesCommand extends BaseCommand {
  @Mixin WorkspaceOption workspace;
  @Mixin JsonOption json;

  @Override
  public Integer call() throws Exception {
    return render(ImagesFlow.list(new ImagesFlow.ListRequest(where(workspace), json.on)));
  }

  /** Prints what an images command gave: its data on stdout, then its notes on stderr. */
  int render(ImagesOutcome o) {
    lines(o.stdout());
    o.notes().forEach(this::note);
    return o.exitCode();
  }
}
