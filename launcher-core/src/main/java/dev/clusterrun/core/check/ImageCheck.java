package dev.clusterrun.core.check;

import dev.clusterrun.core.image.ImagePin;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The {@code image} check: the job's registry image resolves on the head to the digest the run will
 * import (registry reachable, credentials present where it asks for them, the tag's manifest
 * there). Judged on the head only, which asks the registry once ({@link ImagePin}); a job without a
 * registry image is not judged.
 */
final class ImageCheck extends Check {
  @Override
  Map<String, CheckResult> evaluate(CheckInput in) {
    Map<String, CheckResult> out = new LinkedHashMap<>();
    ImagePin.Outcome o = in.image();
    String head = in.head();
    for (String n : in.nodes()) {
      Facts f = in.facts().get(n);
      if (!n.equals(head) && f != null && f.answered()) {
        out.put(n, skip(n, "the registry is asked from the head"));
      }
    }
    if (o == null) {
      out.put(head, skip(head, "the job has no registry image (or it was not asked)"));
      return out;
    }
    if (o.ok()) {
      ImagePin.Pinned p = o.pinned();
      if (p.warning() != null) {
        out.put(
            head,
            warn(
                head,
                p.warning(),
                "reach the registry to run what the tag names now; the cached import runs"));
      } else {
        out.put(head, pass(head, p.reference() + " is " + p.digest()));
      }
    } else {
      out.put(head, fail(head, o.problem(), o.fix()));
    }
    return out;
  }
}
