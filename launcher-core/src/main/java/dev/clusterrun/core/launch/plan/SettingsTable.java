package dev.clusterrun.core.launch.plan;

import dev.clusterrun.core.launch.job.JobResolver;
import dev.clusterrun.core.launch.job.ResolvedJob;
import dev.clusterrun.core.launch.job.Secrets;
import dev.clusterrun.core.launch.job.Setting;
import dev.clusterrun.core.launch.job.Source;
import dev.clusterrun.core.mpi.MpiTuning;
import dev.clusterrun.core.spec.ImageRef;
import dev.clusterrun.core.spec.SshSpec;
import dev.clusterrun.core.spec.TimeLimit;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The plan's settings table: every setting with its value, source and origin as {@code plan} shows
 * them, values rendered for people (secrets masked, durations short).
 */
public final class SettingsTable {
  private SettingsTable() {}

  /** Every setting with its source, as {@code plan} shows them. */
  static List<Plan.SettingView> of(ResolvedJob job, PlanOptions options, String perRunHostfile) {
    List<Plan.SettingView> settings = new ArrayList<>();
    job.byKey()
        .forEach(
            (k, s) ->
                settings.add(
                    k.equals("mpi.hostfile") && perRunHostfile != null
                        ? new Plan.SettingView(
                            k, perRunHostfile, Source.DEFAULT.label(), "the run directory")
                        : k.equals("mpi.network")
                            ? networkView(job, options)
                            : k.equals("mpi.node-timeout")
                                ? nodeTimeoutView(job, options)
                                : k.equals("container.mount-home") && s.value() == null
                                    ? new Plan.SettingView(
                                        k,
                                        "(each node's enroot configuration)",
                                        s.source().label(),
                                        s.origin())
                                    : k.equals("container.image")
                                        ? imageView(job.image())
                                        : k.equals("time") ? timeView(job) : view(k, s)));
    settings.add(
        options.daemonDetected()
            ? new Plan.SettingView(
                "mpi.daemon",
                options.daemon().command(),
                Source.DEFAULT.label(),
                "auto: run asks mpirun --version in the container (orted for Open MPI 4, prted"
                    + " for 5)")
            : new Plan.SettingView(
                "mpi.daemon", options.daemon().command(), Source.FLAG.label(), "--mpi-daemon"));
    return settings;
  }

  /** The image, with how clusterrun read its text when that differs from the text. */
  private static Plan.SettingView imageView(Setting<ImageRef> s) {
    Plan.SettingView v = view("container.image", s);
    String readAs = s.value() == null ? null : s.value().readAs();
    return readAs == null
        ? v
        : new Plan.SettingView(v.key(), v.value(), v.source(), v.origin() + "; " + readAs);
  }

  private static Plan.SettingView networkView(ResolvedJob job, PlanOptions options) {
    NetworkPick p = PlanTuning.network(job, options);
    String origin = p.origin();
    List<String> ifParams = p.userParams().stream().filter(n -> n.contains("_if_")).toList();
    if (p.network() != null && !ifParams.isEmpty()) {
      origin += "; ~/.openmpi/mca-params.conf sets " + String.join(", ", ifParams);
    }
    return new Plan.SettingView("mpi.network", p.value(), p.source(), origin);
  }

  private static Plan.SettingView nodeTimeoutView(ResolvedJob job, PlanOptions options) {
    Setting<Duration> s = job.nodeTimeout();
    MpiTuning.Keepalive k = MpiTuning.Keepalive.after(s.value());
    return new Plan.SettingView(
        "mpi.node-timeout",
        display(s.value()),
        s.source().label(),
        s.origin()
            + "; run watches every node and sets Open MPI's TCP keepalive to "
            + k.time()
            + "s + "
            + k.probes()
            + " × "
            + k.interval()
            + "s");
  }

  private static Plan.SettingView timeView(ResolvedJob job) {
    Setting<Duration> s = job.time();
    return new Plan.SettingView(
        "time",
        TimeLimit.display(s.value()),
        s.source().label(),
        s.origin() + "; from clusterrun's start, then the job is stopped on every node (exit 124)");
  }

  private static Plan.SettingView view(String key, Setting<?> s) {
    return new Plan.SettingView(key, display(s.value()), s.source().label(), s.origin());
  }

  public static String display(Object v) {
    if (v == null) {
      return "(unset)";
    }
    if (v instanceof Map<?, ?> m) {
      List<String> parts = new ArrayList<>();
      m.forEach((k, val) -> parts.add(Secrets.maskAssignment(k + "=" + val)));
      return parts.isEmpty() ? "(none)" : String.join(" ", parts);
    }
    if (v instanceof List<?> l) {
      if (l.isEmpty()) {
        return "(none)";
      }
      List<String> parts = new ArrayList<>();
      for (Object o : l) {
        parts.add(Secrets.maskAssignment(String.valueOf(o)));
      }
      return String.join(" ", parts);
    }
    if (v instanceof Duration d) {
      return d.toMillis() % 1000 == 0 ? d.toSeconds() + "s" : d.toMillis() + "ms";
    }
    if (v instanceof Enum<?> e && v instanceof SshSpec.KnownHostsPolicy p) {
      return p.yamlName();
    }
    return String.valueOf(v);
  }

  /**
   * How clusterrun read the image's text, for {@code run} to say on stderr before anything else:
   * {@code --container-image: read HOST/PATH as HOST#PATH (…)}; null when taken as written.
   */
  public static String imageReadAs(ResolvedJob job) {
    ImageRef image = job.image().value();
    return image == null || image.readAs() == null
        ? null
        : JobResolver.subject(job.image(), "container.image") + ": " + image.readAs();
  }
}
