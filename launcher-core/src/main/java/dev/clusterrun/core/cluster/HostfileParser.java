package dev.clusterrun.core.cluster;

import dev.clusterrun.core.BadInputException;
import dev.clusterrun.core.InputFiles;
import dev.clusterrun.core.spec.DidYouMean;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads an Open MPI hostfile ({@code mpirun --hostfile}, Open MPI 4.1 and 5), strictly.
 *
 * <p>One host per line: a host name (RFC 1123), an IPv4 or an IPv6 literal, then optionally {@code
 * slots=N} (Open MPI's synonyms {@code cpu=N} and {@code count=N} too) and {@code max_slots=M}
 * (also {@code max-slots}, {@code slots_max} and the other spellings Open MPI's lexer knows), with
 * or without spaces around {@code =}. {@code #} starts a comment, on its own line or after a host.
 * On top of Open MPI, a host may be a pdsh/clush range such as {@code node[01-16]} (see {@link
 * HostRanges}).
 *
 * <p>Refused, with a message naming the file and line: a host listed twice (also after expansion),
 * slots or max_slots that are not whole numbers of at least 1, max_slots below slots, unknown keys,
 * {@code user@host} and {@code username=} (clusterrun runs every rank as one user: use {@code
 * ssh.user}), Open MPI's exclusion ({@code ^host}) and relative ({@code +n0}) forms, other Open MPI
 * keys clusterrun does not pass on ({@code boards=}, {@code port=}, …), and a file with no host.
 *
 * <p>A host without slots gets 1 slot with {@code slotsGiven=false}; the run-time resolver may
 * decide otherwise. A host with only {@code max_slots=M} gets {@code M} slots, as in Open MPI.
 */
public final class HostfileParser {
  private static final List<String> SLOTS_KEYS = List.of("slots", "cpu", "count");
  private static final List<String> MAX_KEYS =
      bothSpellings("max_slots", "slots_max", "max_cpu", "cpu_max", "max_count", "count_max");
  private static final List<String> USER_KEYS = bothSpellings("username", "user_name");
  private static final List<String> UNSUPPORTED_KEYS =
      bothSpellings(
          "port",
          "boards",
          "sockets",
          "sockets_per_board",
          "cores",
          "cores_per_socket",
          "cpu_set",
          "rank");
  private static final List<String> KNOWN_KEYS;

  static {
    List<String> all = new ArrayList<>(List.of("slots", "max_slots"));
    for (String k : SLOTS_KEYS) {
      if (!all.contains(k)) {
        all.add(k);
      }
    }
    for (String k : MAX_KEYS) {
      if (!all.contains(k)) {
        all.add(k);
      }
    }
    KNOWN_KEYS = List.copyOf(all);
  }

  /** Each key as Open MPI accepts it: as given and, if it has a {@code _}, with {@code -}. */
  private static List<String> bothSpellings(String... keys) {
    List<String> out = new ArrayList<>();
    for (String k : keys) {
      out.add(k);
      if (k.indexOf('_') >= 0) {
        out.add(k.replace('_', '-'));
      }
    }
    return List.copyOf(out);
  }

  private HostfileParser() {}

  /** The most a hostfile may hold: 16 MiB (and at most {@link HostRanges#MAX_NAMES} hosts). */
  public static final int MAX_BYTES = InputFiles.DEFAULT_MAX_BYTES;

  /**
   * Reads and parses the hostfile given with {@code --nodes} (the only way a hostfile is given).
   *
   * @throws BadInputException when the file cannot be read (subject: {@code --nodes PATH}, the path
   *     as given) or does not parse (subject: {@code PATH:LINE})
   */
  public static Hostfile read(Path file) {
    String name = file.toString();
    String content = InputFiles.read(file, "--nodes " + name, "a hostfile", MAX_BYTES);
    return parse(content, name);
  }

  /**
   * Parses hostfile text.
   *
   * @param sourceName how to name the file in messages and in the result
   * @throws BadInputException with subject {@code SOURCE:LINE}, or {@code SOURCE} for an empty file
   */
  public static Hostfile parse(String content, String sourceName) {
    if (content.startsWith("\uFEFF")) {
      content = content.substring(1);
    }
    List<Host> hosts = new ArrayList<>();
    Map<String, Integer> firstLine = new HashMap<>();
    String[] lines = content.split("\r?\n|\r", -1);
    for (int i = 0; i < lines.length; i++) {
      int lineNo = i + 1;
      String subject = sourceName + ":" + lineNo;
      String line = lines[i];
      int hash = line.indexOf('#');
      if (hash >= 0) {
        line = line.substring(0, hash);
      }
      line = line.strip();
      if (line.isEmpty()) {
        continue;
      }
      for (Host h : parseLine(line, lineNo, subject)) {
        String id = HostName.identity(h.name());
        Integer first = firstLine.putIfAbsent(id, lineNo);
        if (first != null) {
          throw new BadInputException(
              subject,
              first == lineNo
                  ? h.name() + " is listed twice in '" + line + "'"
                  : h.name() + " is listed twice (first at line " + first + ")");
        }
        hosts.add(h);
        if (hosts.size() > HostRanges.MAX_NAMES) {
          throw new BadInputException(
              subject, "more than " + HostRanges.MAX_NAMES + " hosts in one hostfile");
        }
      }
    }
    if (hosts.isEmpty()) {
      throw new BadInputException(
          sourceName,
          content.isBlank()
              ? "the hostfile is empty; expected one host per line, e.g. 'node01 slots=8'"
              : "no hosts, only comments and blank lines; expected one host per line, e.g."
                  + " 'node01 slots=8'");
    }
    return new Hostfile(sourceName, hosts);
  }

  private static List<Host> parseLine(String line, int lineNo, String subject) {
    int end = 0;
    while (end < line.length() && !Character.isWhitespace(line.charAt(end))) {
      end++;
    }
    String hostText = line.substring(0, end);
    checkHostWord(hostText, subject);
    Settings settings = new Settings(subject);
    settings.parse(line, end);
    List<Host> out = new ArrayList<>();
    for (String name : names(hostText, subject)) {
      try {
        HostName.validate(name);
      } catch (IllegalArgumentException e) {
        String problem = e.getMessage();
        if (!name.equals(hostText)) {
          problem += " (from '" + hostText + "')";
        }
        throw new BadInputException(subject, problem);
      }
      out.add(settings.host(name, lineNo));
    }
    return out;
  }

  /** The first word must be a host: not a setting, nor an Open MPI form clusterrun refuses. */
  private static void checkHostWord(String hostText, String subject) {
    int eq = hostText.indexOf('=');
    if (eq >= 0) {
      throw new BadInputException(
          subject,
          "'"
              + hostText
              + "': a line starts with a host name, then its settings, as in 'node01 slots=8'");
    }
    if (hostText.startsWith("^")) {
      throw new BadInputException(
          subject,
          "'"
              + hostText
              + "': Open MPI's host exclusion ('^host') is not supported; delete the line instead");
    }
    if (hostText.startsWith("+")) {
      throw new BadInputException(
          subject,
          "'" + hostText + "': Open MPI's relative node syntax is not supported; name the host");
    }
    if (hostText.indexOf('@') >= 0) {
      throw new BadInputException(
          subject,
          "'"
              + hostText
              + "': user@host is not supported; clusterrun runs every rank as one user (set"
              + " ssh.user in the job spec)");
    }
  }

  /** The host itself: one literal or a range. */
  private static List<String> names(String hostText, String subject) {
    if (hostText.indexOf(':') >= 0) {
      if (hostText.startsWith("[") && hostText.endsWith("]")) {
        throw new BadInputException(
            subject,
            "'"
                + hostText
                + "': write an IPv6 address without brackets, as in '"
                + hostText.substring(1, hostText.length() - 1)
                + "'");
      }
      return List.of(hostText);
    }
    if (HostRanges.hasRange(hostText)) {
      try {
        return HostRanges.expand(hostText);
      } catch (IllegalArgumentException e) {
        throw new BadInputException(subject, "'" + hostText + "': " + e.getMessage());
      }
    }
    return List.of(hostText);
  }

  /** The KEY=VALUE settings after the host: slots and max_slots, each at most once. */
  private static final class Settings {
    final String subject;
    Integer slots;
    String slotsText;
    Integer max;
    String maxText;

    Settings(String subject) {
      this.subject = subject;
    }

    Host host(String name, int lineNo) {
      int s = slots != null ? slots : max != null ? max : 1;
      return new Host(name, s, slots != null || max != null, max != null ? max : 0, lineNo);
    }

    /** Reads every setting of {@code line} from {@code from}. */
    void parse(String line, int from) {
      int i = from;
      while (true) {
        while (i < line.length() && Character.isWhitespace(line.charAt(i))) {
          i++;
        }
        if (i >= line.length()) {
          break;
        }
        i = one(line, i);
      }
      if (slots != null && max != null && max < slots) {
        throw new BadInputException(
            subject,
            "'"
                + maxText
                + "' is less than '"
                + slotsText
                + "'; max_slots must be at least the slots");
      }
    }

    /** Reads the setting that starts at {@code start}; returns where it ends. */
    private int one(String line, int start) {
      int i = start;
      while (i < line.length()
          && !Character.isWhitespace(line.charAt(i))
          && line.charAt(i) != '=') {
        i++;
      }
      String key = line.substring(start, i);
      int j = i;
      while (j < line.length() && Character.isWhitespace(line.charAt(j))) {
        j++;
      }
      if (j >= line.length() || line.charAt(j) != '=') {
        if (KNOWN_KEYS.contains(key)) {
          throw new BadInputException(
              subject, "'" + key + "' needs a value, as in '" + key + "=8'");
        }
        throw new BadInputException(
            subject,
            "unexpected '"
                + key
                + "' after the host; one host per line, then KEY=VALUE settings such as"
                + " 'slots=8'");
      }
      j++;
      while (j < line.length() && Character.isWhitespace(line.charAt(j))) {
        j++;
      }
      int valueStart = j;
      while (j < line.length() && !Character.isWhitespace(line.charAt(j))) {
        j++;
      }
      set(key, line.substring(valueStart, j), line.substring(start, j));
      return j;
    }

    private void set(String key, String value, String written) {
      if (key.isEmpty()) {
        throw new BadInputException(subject, "'" + written + "' has no key before '='");
      }
      if (SLOTS_KEYS.contains(key)) {
        if (slots != null) {
          throw new BadInputException(
              subject, "slots are given twice ('" + slotsText + "' and '" + written + "')");
        }
        slots = count(value, written, subject);
        slotsText = written;
      } else if (MAX_KEYS.contains(key)) {
        if (max != null) {
          throw new BadInputException(
              subject, "max_slots is given twice ('" + maxText + "' and '" + written + "')");
        }
        max = count(value, written, subject);
        maxText = written;
      } else {
        throw new BadInputException(subject, refused(key, written));
      }
    }

    private static String refused(String key, String written) {
      if (USER_KEYS.contains(key)) {
        return "'"
            + written
            + "': per-host users are not supported; clusterrun runs every rank as one user"
            + " (set ssh.user in the job spec)";
      }
      if (UNSUPPORTED_KEYS.contains(key)) {
        return "'"
            + written
            + "': Open MPI's '"
            + key
            + "' key is not supported by clusterrun; use slots= and max_slots= only";
      }
      return "unknown key '"
          + key
          + "' in '"
          + written
          + "'"
          + DidYouMean.hint(key, KNOWN_KEYS)
          + " (a host takes slots= and max_slots=)";
    }
  }

  private static int count(String value, String written, String subject) {
    boolean digits = !value.isEmpty() && value.chars().allMatch(c -> c >= '0' && c <= '9');
    if (!digits || value.length() > 7 || Integer.parseInt(value) < 1) {
      String problem =
          digits && value.length() > 7 ? "is too large" : "must be a whole number of at least 1";
      throw new BadInputException(subject, "'" + written + "': the value " + problem);
    }
    return Integer.parseInt(value);
  }
}
