package dev.clusterrun.core.cluster;

import dev.clusterrun.core.Ascii;
import dev.clusterrun.core.BadInputException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A Slurm/pdsh node list, as {@code --nodes}, {@code --exclude} and {@code SLURM_JOB_NODELIST} give
 * it: names and ranges separated by commas ({@code gpu[01-04,07],login2}), several bracket groups
 * in one name ({@code r[1-2]n[01-08]}, see {@link HostRanges}), and a name may end with {@code :N},
 * its slots, as Horovod writes them ({@code gpu01:8}).
 *
 * <p>Read strictly: a character other than letters, digits, {@code -} and {@code .}, brackets,
 * commas and a {@code :N} suffix, an unbalanced or nested bracket, an empty item, a backward range,
 * a name listed twice, or more than {@link HostRanges#MAX_NAMES} nodes (the limit of a hostfile) is
 * refused, naming the character's position (1-based).
 */
public final class NodeList {
  /** The longest node list read (a Slurm node list of 100000 nodes is far shorter). */
  public static final int MAX_LENGTH = 1 << 20;

  /**
   * One node of a list.
   *
   * @param slots the {@code :N} it was written with, or 0 when none
   */
  public record Entry(String name, int slots) {}

  private NodeList() {}

  /**
   * Expands {@code text} into its nodes, in the order written.
   *
   * @param subject names the list in messages: {@code --nodes}, {@code SLURM_JOB_NODELIST}
   * @param slotsAllowed whether {@code :N} may follow a name ({@code --exclude} takes none)
   * @throws BadInputException naming {@code subject}, the list and the problem
   */
  public static List<Entry> parse(String text, String subject, boolean slotsAllowed) {
    if (text.length() > MAX_LENGTH) {
      throw new BadInputException(
          subject, "the node list is longer than " + MAX_LENGTH + " characters");
    }
    List<int[]> items = split(text, subject);
    List<Entry> out = new ArrayList<>();
    Map<String, String> seen = new HashMap<>();
    for (int[] span : items) {
      String item = text.substring(span[0], span[1]);
      int colon = item.lastIndexOf(':');
      int slots = 0;
      String pattern = item;
      if (colon >= 0) {
        if (!slotsAllowed) {
          throw bad(subject, text, span[0] + colon, "names take no ':SLOTS' here");
        }
        slots = slots(item.substring(colon + 1), subject, text, span[0] + colon);
        pattern = item.substring(0, colon);
      }
      List<String> names;
      try {
        names = HostRanges.expand(pattern);
      } catch (IllegalArgumentException e) {
        String why = e.getMessage();
        if (why.startsWith("expands to more than")) {
          why = tooMany();
        }
        throw new BadInputException(subject, "'" + item + "': " + why);
      }
      for (String name : names) {
        try {
          HostName.validate(name);
        } catch (IllegalArgumentException e) {
          String from = name.equals(item) ? "" : " (from '" + item + "')";
          throw new BadInputException(subject, e.getMessage() + from);
        }
        String before = seen.putIfAbsent(HostName.identity(name), item);
        if (before != null) {
          throw new BadInputException(
              subject,
              name
                  + " is listed twice"
                  + (before.equals(item)
                      ? " in '" + item + "'"
                      : " ('" + before + "' and '" + item + "')"));
        }
        out.add(new Entry(name, slots));
        if (out.size() > HostRanges.MAX_NAMES) {
          throw new BadInputException(subject, "'" + shortText(text) + "': " + tooMany());
        }
      }
    }
    return out;
  }

  /** Whether {@code c} may be part of a node name. */
  static boolean nameChar(char c) {
    return Ascii.letterDigitOr(c, "-.");
  }

  /** The items' [start, end) spans: commas outside brackets separate them. */
  private static List<int[]> split(String text, String subject) {
    if (text.isEmpty()) {
      throw new BadInputException(subject, "the node list is empty");
    }
    List<int[]> items = new ArrayList<>();
    int open = -1;
    int start = 0;
    int colon = -1;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '[') {
        if (open >= 0) {
          throw bad(subject, text, i, "'[' inside the '[' of position " + (open + 1));
        }
        if (colon >= 0) {
          throw bad(subject, text, i, "'[' after the ':SLOTS' of a name");
        }
        open = i;
      } else if (c == ']') {
        if (open < 0) {
          throw bad(subject, text, i, "']' without a '[' before it");
        }
        open = -1;
      } else if (c == ',' && open < 0) {
        if (i == start) {
          throw bad(subject, text, i, "an empty name before ','");
        }
        items.add(new int[] {start, i});
        start = i + 1;
        colon = -1;
      } else if (c == ':' && open < 0) {
        if (colon >= 0) {
          throw bad(subject, text, i, "a second ':' in one name");
        }
        colon = i;
      } else if (!nameChar(c) && !(c == ',' || c == '-')) {
        throw bad(subject, text, i, "unexpected " + show(c));
      } else if (open >= 0 && !(c >= '0' && c <= '9' || c == ',' || c == '-')) {
        throw bad(
            subject, text, i, show(c) + " inside brackets, which hold numbers such as [01-16,20]");
      }
    }
    if (open >= 0) {
      throw bad(subject, text, open, "'[' is never closed");
    }
    if (start == text.length()) {
      throw bad(subject, text, text.length() - 1, "an empty name after ','");
    }
    items.add(new int[] {start, text.length()});
    return items;
  }

  private static int slots(String digits, String subject, String text, int at) {
    if (digits.isEmpty() || !digits.chars().allMatch(c -> c >= '0' && c <= '9')) {
      throw bad(subject, text, at, "':' must be followed by the name's slots, as in gpu01:8");
    }
    if (digits.length() > 7 || Integer.parseInt(digits) < 1) {
      throw bad(subject, text, at, "slots must be a whole number from 1 to 9999999");
    }
    return Integer.parseInt(digits);
  }

  private static String tooMany() {
    return "more than "
        + HostRanges.MAX_NAMES
        + " nodes; clusterrun takes at most "
        + HostRanges.MAX_NAMES
        + " (as in a hostfile)";
  }

  private static BadInputException bad(String subject, String text, int at, String problem) {
    return new BadInputException(
        subject, "'" + shortText(text) + "' at position " + (at + 1) + ": " + problem);
  }

  private static String shortText(String text) {
    return text.length() <= 120
        ? text
        : text.substring(0, 100) + "… (" + text.length() + " characters)";
  }

  private static String show(char c) {
    if (c < 0x20 || c == 0x7f || Character.isWhitespace(c) || Character.isISOControl(c)) {
      return String.format("character U+%04X", (int) c);
    }
    return "'" + c + "'";
  }
}
