package dev.clusterrun.core.check;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** The {@code hook} check: clusterrun's hook: present, executable, root-owned, current. */
final class HookCheck extends SetupFileCheck {
  @Override
  CheckResult judge(ExpectedSetup exp, Facts f) {
    String n = f.node();
    String path = exp.hookPath();
    Optional<HookFile> h = f.enroot().systemHook(exp.hookFileName());
    if (h.isEmpty()) {
      return fail(
          n,
          "no " + path + ": remote ranks get no launch agent",
          "run `clusterrun setup` (or run the job with --no-hook)");
    }
    HookFile hf = h.get();
    List<String> problems = new ArrayList<>();
    List<String> fixes = new ArrayList<>();
    if (hf.type() != null && !hf.type().startsWith("regular")) {
      problems.add("is a " + hf.type() + ", not a regular file");
      fixes.add("`clusterrun setup`");
    }
    if (!hf.executable()) {
      problems.add(
          "is not executable (mode "
              + hf.mode()
              + "): enroot skips a non-executable hook SILENTLY, so remote ranks start without"
              + " the launch agent (`orted: command not found`, or outside the container)");
      fixes.add("sudo chmod 0755 " + path);
    }
    if (hf.uid() == null || hf.uid() != 0) {
      problems.add(
          "is owned by " + (hf.owner() != null ? hf.owner() : "uid " + hf.uid()) + ", not root");
      fixes.add("sudo chown root:root " + path);
    }
    int bits = hf.modeBits();
    if (bits >= 0 && (bits & 0022) != 0) {
      problems.add("is group/world writable (mode " + hf.mode() + ")");
      fixes.add("sudo chmod go-w " + path);
    }
    if (hf.version() == null) {
      problems.add("has no `" + FactScript.HOOK_VERSION_HEADER.strip() + "` header");
      fixes.add("`clusterrun setup`");
    } else if (hf.version() != exp.hookVersion()) {
      problems.add("is version " + hf.version() + ", this clusterrun expects " + exp.hookVersion());
      fixes.add("`clusterrun setup`");
    } else if (exp.hookSha256() != null && !exp.hookSha256().equalsIgnoreCase(hf.sha256())) {
      problems.add("was modified (its sha256 differs from what setup installs)");
      fixes.add("`clusterrun setup`");
    }
    if (problems.isEmpty()) {
      return pass(n, path + " version " + hf.version() + ", root-owned, mode " + hf.mode());
    }
    List<String> distinctFixes = fixes.stream().distinct().toList();
    String fix =
        distinctFixes.contains("`clusterrun setup`")
            ? "run `clusterrun setup` (or: "
                + String.join(
                    "; ",
                    distinctFixes.stream().filter(x -> !x.equals("`clusterrun setup`")).toList())
                + ")"
            : String.join("; ", distinctFixes);
    if (fix.endsWith("(or: )")) {
      fix = "run `clusterrun setup`";
    }
    return fail(n, path + " " + String.join("; ", problems), fix);
  }
}
