package dev.clusterrun.core.spec;

import com.fasterxml.jackson.core.JsonToken;
import dev.clusterrun.core.spec.YamlTree.Entry;
import dev.clusterrun.core.spec.YamlTree.MapNode;
import dev.clusterrun.core.spec.YamlTree.Node;
import dev.clusterrun.core.spec.YamlTree.Scalar;
import dev.clusterrun.core.spec.YamlTree.Seq;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The job spec's fields that hold lists and maps of their own: {@code container.mounts}, {@code
 * container.env}, {@code container.env-from-host}, {@code mpi.mca} and {@code mpi.env}. Read with
 * the job file's {@link YamlReader}, so errors name {@code FILE:LINE:COLUMN: field.path}.
 */
final class SpecFields {
  static final List<String> MOUNT_KEYS = List.of("source", "target", "flags");

  private static final Pattern ENV_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
  private static final Pattern MCA_NAME = Pattern.compile("[A-Za-z0-9_]+");

  private final YamlReader yaml;

  SpecFields(YamlReader yaml) {
    this.yaml = yaml;
  }

  List<Mount> mounts(Entry e) {
    Seq seq = yaml.list(e, "container.mounts");
    if (seq == null) {
      return null;
    }
    List<Mount> out = new ArrayList<>();
    for (int i = 0; i < seq.items().size(); i++) {
      Node n = seq.items().get(i);
      String path = "container.mounts[" + i + "]";
      if (n instanceof MapNode m) {
        out.add(mountMap(m, path));
      } else if (n instanceof Scalar s && !s.isNull()) {
        try {
          out.add(Mount.parse(s.text()));
        } catch (IllegalArgumentException ex) {
          throw yaml.error(n, path, ex.getMessage());
        }
      } else {
        throw yaml.error(
            n,
            path,
            "expected a mount 'SRC[:DST[:FLAGS]]' or a map {source, target, flags}, found "
                + YamlWords.describe(n));
      }
    }
    return List.copyOf(out);
  }

  /** {@code {source: SRC, target: DST, flags: FLAGS}}; errors name the key or the flag. */
  private Mount mountMap(MapNode m, String path) {
    yaml.keys(m, path, MOUNT_KEYS);
    Entry srcEntry = m.entries().get("source");
    String src = yaml.string(srcEntry, path + ".source");
    if (src == null || src.isEmpty()) {
      throw srcEntry == null
          ? yaml.needs(m, path, "a mount", "source")
          : yaml.needs(srcEntry.value(), path + ".source", "a mount", "source");
    }
    Entry dstEntry = m.entries().get("target");
    String dst = yaml.string(dstEntry, path + ".target");
    if (dst != null && dst.isEmpty()) {
      throw yaml.error(
          dstEntry.value(), path + ".target", "expected a path inside the container, found ''");
    }
    try {
      Mount.of(src, dst, List.of());
    } catch (IllegalArgumentException ex) {
      boolean aboutTarget = dstEntry != null && ex.getMessage().startsWith("mount destination");
      Entry at = aboutTarget ? dstEntry : srcEntry;
      throw yaml.error(at.value(), path + (aboutTarget ? ".target" : ".source"), ex.getMessage());
    }
    Entry flagsEntry = m.entries().get("flags");
    List<String> flags = new ArrayList<>();
    List<Node> flagNodes = new ArrayList<>();
    flags(flagsEntry, path + ".flags", flags, flagNodes);
    for (int i = 0; i < flags.size(); i++) {
      try {
        Mount.of(src, dst, List.of(flags.get(i)));
      } catch (IllegalArgumentException ex) {
        boolean list = flagsEntry.value() instanceof Seq;
        throw yaml.error(
            flagNodes.get(i), path + ".flags" + (list ? "[" + i + "]" : ""), ex.getMessage());
      }
    }
    return Mount.of(src, dst, flags);
  }

  /**
   * A mount map's flags, a list or one word joined with {@code +} or {@code ,}, with their nodes.
   */
  private void flags(Entry flagsEntry, String flagsPath, List<String> flags, List<Node> nodes) {
    if (flagsEntry == null || YamlWords.isNull(flagsEntry.value())) {
      return;
    }
    if (flagsEntry.value() instanceof Seq seq) {
      for (int i = 0; i < seq.items().size(); i++) {
        Node n = seq.items().get(i);
        if (!(n instanceof Scalar s) || s.token() != JsonToken.VALUE_STRING || s.text().isEmpty()) {
          throw yaml.expected(n, flagsPath + "[" + i + "]", "a flag such as ro");
        }
        flags.add(s.text());
        nodes.add(n);
      }
    } else if (flagsEntry.value() instanceof Scalar s && s.token() == JsonToken.VALUE_STRING) {
      for (String f : s.text().split("[+,]", -1)) {
        if (f.isEmpty()) {
          throw yaml.error(s, flagsPath, "empty flag in '" + s.text() + "'");
        }
        flags.add(f);
        nodes.add(s);
      }
    } else {
      throw yaml.error(
          flagsEntry.value(),
          flagsPath,
          "expected flags such as ro or [ro, rprivate], found "
              + YamlWords.describe(flagsEntry.value()));
    }
  }

  Map<String, String> envMap(Entry e, String path) {
    MapNode m = yaml.map(e, path);
    if (m == null) {
      return null;
    }
    Map<String, String> out = new LinkedHashMap<>();
    for (Entry v : m.entries().values()) {
      String p = path + "." + v.key();
      if (!ENV_NAME.matcher(v.key()).matches()) {
        throw yaml.error(
            v,
            p,
            "'"
                + v.key()
                + "' is not a valid variable name (letters, digits and _, not first a"
                + " digit)");
      }
      try {
        Carry.envName(v.key());
      } catch (IllegalArgumentException ex) {
        throw yaml.error(v, p, ex.getMessage());
      }
      String value = scalarValue(v, p);
      try {
        Carry.agentWord(value, Carry.USE_ENV_FROM_HOST);
        Carry.envValue(value);
      } catch (IllegalArgumentException ex) {
        throw yaml.error(v.value(), p, ex.getMessage());
      }
      out.put(v.key(), value);
    }
    return Collections.unmodifiableMap(out);
  }

  Map<String, String> mca(Entry e) {
    MapNode m = yaml.map(e, "mpi.mca");
    if (m == null) {
      return null;
    }
    Map<String, String> out = new LinkedHashMap<>();
    for (Entry v : m.entries().values()) {
      String p = "mpi.mca." + v.key();
      if (!MCA_NAME.matcher(v.key()).matches()) {
        throw yaml.error(
            v, p, "'" + v.key() + "' is not a valid MCA parameter name (letters, digits and _)");
      }
      String value = scalarValue(v, p);
      try {
        Carry.mcaValue(value);
      } catch (IllegalArgumentException ex) {
        throw yaml.error(v.value(), p, ex.getMessage());
      }
      out.put(v.key(), value);
    }
    return Collections.unmodifiableMap(out);
  }

  /** The text of a map value that must be a scalar and must be there. */
  private String scalarValue(Entry v, String path) {
    Node n = v.value();
    if (YamlWords.isNull(n)) {
      throw yaml.error(
          n, path, "expected a value, found nothing; write " + v.key() + ": '' for an empty one");
    }
    return yaml.scalar(n, path).text();
  }

  List<String> mpiEnv(Entry e) {
    List<String> items = yaml.words(e, "mpi.env");
    if (items == null) {
      return null;
    }
    Seq seq = (Seq) e.value();
    for (int i = 0; i < items.size(); i++) {
      String item = items.get(i);
      int eq = item.indexOf('=');
      String name = eq < 0 ? item : item.substring(0, eq);
      if (!ENV_NAME.matcher(name).matches()) {
        throw yaml.error(
            seq.items().get(i),
            "mpi.env[" + i + "]",
            "expected NAME or NAME=VALUE, found '" + YamlWords.clip(item) + "'");
      }
      try {
        Carry.envName(name);
        if (eq >= 0 && Carry.mpiVariable(name)) {
          Carry.mcaValue(item.substring(eq + 1));
        }
      } catch (IllegalArgumentException ex) {
        throw yaml.error(seq.items().get(i), "mpi.env[" + i + "]", ex.getMessage());
      }
    }
    return items;
  }

  List<String> envNames(Entry e, String path) {
    List<String> items = yaml.words(e, path);
    if (items == null) {
      return null;
    }
    Seq seq = (Seq) e.value();
    for (int i = 0; i < items.size(); i++) {
      try {
        SettingRules.envName(items.get(i));
      } catch (IllegalArgumentException ex) {
        throw yaml.error(seq.items().get(i), path + "[" + i + "]", ex.getMessage());
      }
    }
    return items;
  }
}
