package dev.clusterrun.core.check;

import static dev.clusterrun.core.check.CheckText.from;
import static dev.clusterrun.core.check.CheckText.fsText;

import java.util.Optional;

/** The {@code data-path-shared} check: ENROOT_DATA_PATH is the same and proven shared. */
final class DataPathSharedCheck extends NodeCheck {
  @Override
  CheckResult judge(CheckInput in, Facts f) {
    String n = f.node();
    String fix =
        "set ENROOT_DATA_PATH on every node to one directory on storage all nodes share (e.g. NFS),"
            + " with `clusterrun setup`";
    if (in.nodes().size() == 1) {
      return pass(n, "one node: nothing to share");
    }
    if (in.proof() == null) {
      return skip(n, "not proven (the proof did not run)");
    }
    Optional<SharedPathProof.NodeProof> o = in.proof().node(n);
    if (o.isEmpty()) {
      return skip(n, "not part of the proof");
    }
    String fs = fsText(f);
    SharedPathProof.NodeProof oc = o.get();
    switch (oc.status()) {
      case SHARED -> {
        Facts head = in.facts().get(in.head());
        String headPath = head != null ? head.storage().dataPath() : null;
        if (headPath != null
            && f.storage().dataPath() != null
            && !headPath.equals(f.storage().dataPath())) {
          return warn(
              n,
              "shared, but as "
                  + f.storage().dataPath()
                  + " "
                  + from(f.enroot().settings().dataPath())
                  + fs
                  + " here and "
                  + headPath
                  + " "
                  + from(head.enroot().settings().dataPath())
                  + " on the head "
                  + in.head(),
              "use the same ENROOT_DATA_PATH on every node (clusterrun setup)");
        }
        return pass(
            n, (n.equals(in.head()) ? "head: " : "shared with the head: ") + oc.path() + fs);
      }
      case NOT_SHARED -> {
        return fail(
            n,
            "not shared: "
                + n
                + " "
                + oc.detail()
                + " (ENROOT_DATA_PATH "
                + from(f.enroot().settings().dataPath()).substring(1)
                + fs,
            fix);
      }
      default -> {
        return fail(
            n,
            "could not prove sharing: " + oc.detail(),
            "make ENROOT_DATA_PATH exist and be writable for " + f.account().user() + " on " + n);
      }
    }
  }
}
