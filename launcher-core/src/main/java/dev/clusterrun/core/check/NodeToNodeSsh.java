package dev.clusterrun.core.check;

import dev.clusterrun.core.remote.SshLogins;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Passwordless SSH from the head to every node, as the job user and with the names mpirun will use
 * ({@link SshLogins}: the head's own {@code ssh NODE}, in parallel): what mpirun's {@code ssh} will
 * meet, judged by {@link SshFromHeadCheck}. The logins are the session's own when it opened over
 * the head's masters ({@link dev.clusterrun.core.remote.SshMasters}), else a round of their own.
 */
public final class NodeToNodeSsh {
  private NodeToNodeSsh() {}

  /**
   * @param exitCode ssh's exit code ({@code 255} for an SSH error, {@code 124} when it hung), or -1
   *     when the head gave no answer
   * @param error what ssh printed on stderr, or why there is no answer
   */
  public record Answer(String node, boolean ok, int exitCode, String error) {}

  /** The logins' outcomes as the check's answers, in order. */
  static Map<String, Answer> answers(Map<String, SshLogins.Login> logins) {
    Map<String, Answer> out = new LinkedHashMap<>();
    logins.forEach((n, l) -> out.put(n, new Answer(l.node(), l.ok(), l.exitCode(), l.error())));
    return out;
  }
}
