package dev.clusterrun.core.check;

import static dev.clusterrun.core.check.CheckText.lastMeaningfulLine;

/** The {@code ssh-from-head} check: the head reaches the node with passwordless SSH. */
final class SshFromHeadCheck extends NodeCheck {
  @Override
  CheckResult judge(CheckInput in, Facts f) {
    String n = f.node();
    if (n.equals(in.head())) {
      return skip(n, "the head: mpirun starts its ranks without SSH");
    }
    if (in.ssh() == null) {
      return skip(n, "not probed");
    }
    NodeToNodeSsh.Answer o = in.ssh().get(n);
    if (o == null) {
      return skip(n, "not probed");
    }
    if (o.ok()) {
      return pass(n, "`ssh " + n + " true` works from " + in.head());
    }
    String err = o.error() == null ? "" : o.error();
    String last = lastMeaningfulLine(err);
    String user = f.account().user() != null ? f.account().user() : "the job user";
    String fix;
    if (err.contains("Host key verification failed")
        || err.contains("REMOTE HOST IDENTIFICATION")) {
      fix =
          "on "
              + in.head()
              + " as "
              + user
              + ", accept "
              + n
              + "'s host key: `ssh "
              + n
              + " true` once (or ssh-keyscan "
              + n
              + " >> ~/.ssh/known_hosts)";
    } else if (err.contains("Permission denied")) {
      fix =
          "install " + user + "'s public key on " + n + ": `ssh-copy-id " + n + "` on " + in.head();
    } else if (err.contains("Could not resolve hostname")) {
      fix =
          "make "
              + n
              + " resolvable on "
              + in.head()
              + " (/etc/hosts or DNS), or put its address in the hostfile";
    } else {
      fix = "make `ssh -o BatchMode=yes " + n + " true` work on " + in.head() + " as " + user;
    }
    return fail(
        n,
        "`ssh "
            + n
            + " true` from "
            + in.head()
            + " failed (exit "
            + o.exitCode()
            + ")"
            + (last.isEmpty() ? "" : ": " + last),
        fix);
  }
}
