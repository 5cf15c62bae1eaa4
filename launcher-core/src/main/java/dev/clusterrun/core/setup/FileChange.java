package dev.clusterrun.core.setup;

/**
 * One file setup writes (or would write, in a dry run) on a node.
 *
 * @param label {@code hook} or {@code drop-in}
 * @param path absolute path on the node
 * @param action what happens to it
 * @param detail one line for people: versions, modes, why
 * @param diff unified diff from the current content to the new one (empty when only owner or mode
 *     change)
 * @param backup where the replaced file was kept, once applied; {@code null} when none
 */
public record FileChange(
    String label, String path, Action action, String detail, String diff, String backup) {

  public enum Action {
    /** Nothing was there. */
    CREATE("created", false),
    /** An older clusterrun version of the file. */
    UPGRADE("upgraded", true),
    /** Our file at the current version with other content (other settings, or edited by hand). */
    UPDATE("updated", true),
    /** A file clusterrun did not write, replaced because of --force. */
    REPLACE_FOREIGN("replaced", true),
    /** Right content, wrong owner or mode. */
    FIX_PERMISSIONS("owner/mode fixed", false);

    private final String pastTense;
    private final boolean keepsBackup;

    Action(String pastTense, boolean keepsBackup) {
      this.pastTense = pastTense;
      this.keepsBackup = keepsBackup;
    }

    public String pastTense() {
      return pastTense;
    }

    /** Whether the replaced file is kept as {@code <name>.clusterrun-backup-<UTC timestamp>}. */
    public boolean keepsBackup() {
      return keepsBackup;
    }
  }

  public FileChange withBackup(String backup) {
    return new FileChange(label, path, action, detail, diff, backup);
  }
}
