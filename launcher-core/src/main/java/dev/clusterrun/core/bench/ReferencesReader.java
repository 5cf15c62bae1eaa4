package dev.clusterrun.core.bench;

import dev.clusterrun.core.BadInputException;
import dev.clusterrun.core.bench.References.Bound;
import dev.clusterrun.core.bench.References.Entry;
import dev.clusterrun.core.spec.YamlReader;
import dev.clusterrun.core.spec.YamlTree;
import dev.clusterrun.core.spec.YamlTree.MapNode;
import dev.clusterrun.core.spec.YamlTree.Node;
import dev.clusterrun.core.spec.YamlTree.Scalar;
import dev.clusterrun.core.spec.YamlTree.Seq;
import dev.clusterrun.core.spec.YamlWords;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads a references file ({@link References}) with the job file's {@link YamlReader}, so its
 * problems are worded as the job file's are and name {@code FILE:LINE:COLUMN: key.path}.
 */
final class ReferencesReader {
  static final List<String> TOP_KEYS = List.of("clusters");
  static final List<String> ENTRY_KEYS = List.of("nodes", "ranks", "gpus", "n", "metrics");
  static final List<String> BOUND_KEYS = List.of("value", "lower", "upper", "unit");

  /** clusters.NAME.PRESET[i].metrics.METRIC: six maps and lists deep. */
  private static final YamlTree.Kind KIND = new YamlTree.Kind("references file", 6);

  private static final Pattern PERCENT = Pattern.compile("([+-]?[0-9]+(?:\\.[0-9]+)?)\\s*%");

  private final String source;
  private final YamlReader yaml;
  private final List<Entry> entries = new ArrayList<>();

  ReferencesReader(String source) {
    this.source = source;
    this.yaml = new YamlReader(source, Map.of());
  }

  /** Every reference of the file, in file order. */
  List<Entry> entries(String text) {
    Node root = YamlTree.read(text, source, KIND);
    if (root == null) {
      throw new BadInputException(source, "the references file is empty; expected 'clusters:'");
    }
    MapNode m = yaml.map(root, "", "a map of settings (clusters:) at the top level");
    yaml.keys(m, "", TOP_KEYS);
    YamlTree.Entry clusters = yaml.required(m, "clusters", "", "the references file");
    MapNode cs = yaml.map(clusters.value(), "clusters", "a map of clusters");
    if (cs.entries().isEmpty()) {
      throw yaml.error(
          cs, "clusters", "no cluster; name one, e.g. 'clusters: {ci: {hpcc: [...]}}'");
    }
    for (YamlTree.Entry c : cs.entries().values()) {
      String path = "clusters." + c.key();
      if (!References.CLUSTER.matcher(c.key()).matches()) {
        throw yaml.error(c, path, References.clusterNameProblem(c.key()));
      }
      MapNode presets = yaml.map(c.value(), path, "a map of presets");
      for (YamlTree.Entry p : presets.entries().values()) {
        preset(c.key(), p, path);
      }
    }
    return entries;
  }

  private void preset(String cluster, YamlTree.Entry p, String within) {
    String path = within + "." + p.key();
    List<String> ids = new ArrayList<>();
    for (BenchPreset b : BenchPreset.values()) {
      ids.add(b.id());
    }
    ids.add("screen"); // clusterrun screen's figures (screen/ScreenReferences)
    if (!ids.contains(p.key())) {
      throw yaml.unknown(p, path, "preset", ids, within);
    }
    List<Node> items =
        p.value() instanceof Seq s
            ? s.items()
            : p.value() instanceof MapNode ? List.of(p.value()) : null;
    if (items == null || items.isEmpty()) {
      throw yaml.error(
          p.value(),
          path,
          "expected a list of references (each with 'metrics:'), found "
              + (items == null ? YamlWords.describe(p.value()) : "[]"));
    }
    for (int i = 0; i < items.size(); i++) {
      entry(cluster, p.key(), items.get(i), path + "[" + i + "]");
    }
  }

  private void entry(String cluster, String preset, Node node, String path) {
    MapNode m = yaml.map(node, path, "a map of settings");
    yaml.keys(m, path, ENTRY_KEYS);
    Integer nodes = count(m, "nodes", path);
    Integer ranks = count(m, "ranks", path);
    Integer gpus = count(m, "gpus", path);
    Integer nn = count(m, "n", path);
    YamlTree.Entry ms = yaml.required(m, "metrics", path, "a reference");
    MapNode metrics = yaml.map(ms.value(), path + ".metrics", "a map of metrics");
    if (metrics.entries().isEmpty()) {
      throw yaml.error(metrics, path + ".metrics", "no metric; give one, e.g. 'HPL: {value: 3.5}'");
    }
    Map<String, Bound> bounds = new LinkedHashMap<>();
    for (YamlTree.Entry e : metrics.entries().values()) {
      bounds.put(e.key(), bound(e, path + ".metrics." + e.key()));
    }
    entries.add(
        new Entry(
            cluster,
            preset,
            nodes,
            ranks,
            gpus,
            nn == null ? null : nn.longValue(),
            bounds,
            yaml.where(node)));
  }

  private Bound bound(YamlTree.Entry e, String path) {
    MapNode m = yaml.map(e.value(), path, "a map such as {value: 3.5, lower: -5%}");
    yaml.keys(m, path, BOUND_KEYS);
    YamlTree.Entry v = yaml.required(m, "value", path, "a metric");
    Scalar vs = yaml.scalar(v.value(), path + ".value");
    Double value = OutputText.number(vs.text());
    if (value == null || value.isNaN() || value.isInfinite() || value <= 0) {
      throw yaml.expected(vs, path + ".value", "a number above 0");
    }
    BigDecimal lower = percent(m, "lower", path);
    BigDecimal upper = percent(m, "upper", path);
    String unit = yaml.string(m.entries().get("unit"), path + ".unit");
    return new Bound(e.key(), value, lower, upper, unit, yaml.where(e));
  }

  /** {@code lower} from -100% to 0%, {@code upper} 0% or above; null when absent. */
  private BigDecimal percent(MapNode m, String key, String path) {
    YamlTree.Entry e = m.entries().get(key);
    if (e == null || YamlWords.isNull(e.value())) {
      return null;
    }
    Scalar s = yaml.scalar(e.value(), path + "." + key);
    boolean lower = key.equals("lower");
    Matcher pm = PERCENT.matcher(s.text().strip());
    if (!pm.matches()) {
      throw yaml.expected(
          s, path + "." + key, "a percentage of the value such as " + (lower ? "-5%" : "+10%"));
    }
    BigDecimal p = new BigDecimal(pm.group(1));
    boolean fits =
        lower ? p.signum() <= 0 && p.compareTo(BigDecimal.valueOf(-100)) >= 0 : p.signum() >= 0;
    if (!fits) {
      throw yaml.expected(
          s,
          path + "." + key,
          "a percentage "
              + (lower ? "from -100% to 0%, such as -5%" : "of 0% or above, such as +10%"));
    }
    return p;
  }

  private Integer count(MapNode m, String key, String path) {
    YamlTree.Entry e = m.entries().get(key);
    if (e == null || YamlWords.isNull(e.value())) {
      return null;
    }
    Scalar s = yaml.scalar(e.value(), path + "." + key);
    try {
      int v = Integer.parseInt(s.text().strip());
      if (v >= 1) {
        return v;
      }
    } catch (NumberFormatException x) {
      // below
    }
    throw yaml.expected(s, path + "." + key, "a whole number of at least 1");
  }
}
