package dev.clusterrun.core.check;

import java.util.Objects;

/** The {@code uid-gid} check: the job user has the same uid and gid everywhere. */
final class UidGidCheck extends NodeCheck {
  @Override
  CheckResult judge(CheckInput in, Facts f) {
    String n = f.node();
    Facts ref = in.facts().get(in.head());
    if (ref == null || !ref.answered() || ref.account().uid() == null) {
      ref = null;
    }
    if (f.account().uid() == null || f.account().gid() == null) {
      return skip(n, "uid/gid unknown");
    }
    String mine =
        "uid " + f.account().uid() + " gid " + f.account().gid() + " (" + f.account().user() + ")";
    if (ref == null || n.equals(in.head())) {
      return pass(n, mine);
    }
    if (ref.account().uid().equals(f.account().uid())
        && Objects.equals(ref.account().gid(), f.account().gid())) {
      return pass(n, mine);
    }
    return fail(
        n,
        mine
            + " here, but uid "
            + ref.account().uid()
            + " gid "
            + ref.account().gid()
            + " ("
            + ref.account().user()
            + ") on the head "
            + in.head(),
        "give the job user the same uid and gid on every node (files in the shared data path belong to a uid)");
  }
}
