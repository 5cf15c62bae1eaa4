package dev.clusterrun.dist;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;
import picocli.CommandLine.Help.Ansi;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

/**
 * Renders one picocli command as a manual page: roff with the man(7) macros, the sections a reader
 * expects (NAME, SYNOPSIS, DESCRIPTION, COMMANDS, ARGUMENTS, OPTIONS, EXIT STATUS, SEE ALSO), every
 * word taken from the command model so the page says what {@code --help} says.
 */
public final class ManPage {
  private ManPage() {}

  /**
   * What a page carries besides its command.
   *
   * @param product the program, e.g. {@code clusterrun}
   * @param version its version, shown in the page footer
   * @param date the release date, {@code YYYY-MM-DD}
   * @param manual the manual's title, shown in the page header
   * @param exitCodes the exit-code table for commands that have none of their own
   * @param rootSections roff appended to the root command's page before SEE ALSO (may be empty)
   */
  public record Meta(
      String product,
      String version,
      String date,
      String manual,
      Map<String, String> exitCodes,
      String rootSections) {}

  private static final Pattern MARKUP = Pattern.compile("@\\|(\\S+) (.*?)\\|@", Pattern.DOTALL);
  // Private-use characters stand for font changes while the text is escaped.
  private static final char BOLD = '\uE000';
  private static final char ITALIC = '\uE001';
  private static final char ROMAN = '\uE002';

  /** The page's name: the command's path joined with '-', e.g. {@code clusterrun-run}. */
  public static String name(CommandSpec spec) {
    return spec.qualifiedName("-");
  }

  /** The commands with a page: this one and every visible subcommand below it, depth first. */
  public static List<CommandSpec> pages(CommandSpec root) {
    List<CommandSpec> all = new ArrayList<>();
    all.add(root);
    for (CommandSpec sub : visibleSubcommands(root)) {
      all.addAll(pages(sub));
    }
    return all;
  }

  /** Renders the page of {@code spec}. */
  public static String render(CommandSpec spec, Meta meta) {
    StringBuilder b = new StringBuilder();
    String name = name(spec);
    b.append(".\\\" Generated from the picocli command model at build time; do not edit.\n");
    b.append(".TH ")
        .append(quoted(name.toUpperCase(Locale.ROOT)))
        .append(" 1 ")
        .append(quoted(meta.date()))
        .append(' ')
        .append(quoted(meta.product() + " " + meta.version()))
        .append(' ')
        .append(quoted(meta.manual()))
        .append('\n');
    // Left-aligned, no hyphenation: option names and paths must survive copy and paste.
    b.append(".nh\n.ad l\n");

    b.append(".SH NAME\n")
        .append(escape(name))
        .append(" \\- ")
        .append(escape(plain(summary(spec))))
        .append('\n');

    synopsis(b, spec);

    List<String> description = lines(spec.usageMessage().description());
    if (!description.isEmpty()) {
      b.append(".SH DESCRIPTION\n");
      for (String paragraph : spec.usageMessage().description()) {
        b.append(".PP\n").append(text(paragraph)).append('\n');
      }
    }

    List<CommandSpec> subs = visibleSubcommands(spec);
    if (!subs.isEmpty()) {
      b.append(".SH COMMANDS\n");
      for (CommandSpec sub : subs) {
        b.append(".TP\n")
            .append(bold(escape(sub.name())))
            .append('\n')
            .append(text(summary(sub) + "."))
            .append(" See ")
            .append(bold(escape(name(sub))))
            .append("(1).\n");
      }
    }

    List<PositionalParamSpec> positionals = visiblePositionals(spec);
    if (!positionals.isEmpty()) {
      b.append(".SH ARGUMENTS\n");
      for (PositionalParamSpec p : positionals) {
        b.append(".TP\n").append(italic(escape(p.paramLabel()))).append('\n');
        b.append(text(String.join("\n", p.description()))).append('\n');
      }
    }

    List<OptionSpec> options = visibleOptions(spec);
    if (!options.isEmpty()) {
      b.append(".SH OPTIONS\n");
      for (OptionSpec o : options) {
        b.append(".TP\n").append(optionTag(spec, o)).append('\n');
        b.append(text(String.join("\n", o.description()))).append('\n');
      }
    }

    Map<String, String> exitCodes =
        spec.usageMessage().exitCodeList().isEmpty()
            ? meta.exitCodes()
            : spec.usageMessage().exitCodeList();
    if (!exitCodes.isEmpty()) {
      b.append(".SH \"EXIT STATUS\"\n");
      for (Map.Entry<String, String> e : exitCodes.entrySet()) {
        b.append(".TP\n")
            .append(bold(escape(e.getKey().strip())))
            .append('\n')
            .append(text(e.getValue()))
            .append('\n');
      }
    }

    List<String> footer = lines(spec.usageMessage().footer());
    if (!footer.isEmpty()) {
      b.append(".SH NOTES\n");
      for (String paragraph : spec.usageMessage().footer()) {
        b.append(".PP\n").append(text(paragraph)).append('\n');
      }
    }

    if (spec.parent() == null && !meta.rootSections().isEmpty()) {
      b.append(meta.rootSections());
      if (!meta.rootSections().endsWith("\n")) {
        b.append('\n');
      }
    }

    List<String> seeAlso = new ArrayList<>();
    if (spec.parent() != null) {
      seeAlso.add(name(spec.parent()));
    }
    for (CommandSpec sub : subs) {
      seeAlso.add(name(sub));
    }
    if (!seeAlso.isEmpty()) {
      b.append(".SH \"SEE ALSO\"\n");
      for (int i = 0; i < seeAlso.size(); i++) {
        b.append(".BR ")
            .append(escape(seeAlso.get(i)))
            .append(" (1)")
            .append(i + 1 < seeAlso.size() ? " ,\n" : "\n");
      }
    }
    return b.toString();
  }

  private static void synopsis(StringBuilder b, CommandSpec spec) {
    b.append(".SH SYNOPSIS\n");
    String command = bold(escape(spec.qualifiedName(" ")));
    StringBuilder line = new StringBuilder(command);
    List<OptionSpec> options = visibleOptions(spec);
    for (OptionSpec o : options) {
      if (o.required() && o.group() == null) {
        line.append(' ').append(bold(escape(o.longestName()))).append(label(spec, o));
      }
    }
    if (options.stream().anyMatch(o -> !o.required() || o.group() != null)) {
      line.append(" [").append(italic("OPTION")).append("]...");
    }
    for (PositionalParamSpec p : visiblePositionals(spec)) {
      String label = p.paramLabel();
      boolean bracketed = label.startsWith("[");
      String shown = italic(escape(label));
      if (!bracketed && p.arity().max() > 1 && !label.endsWith("...")) {
        shown += "...";
      }
      if (!bracketed && p.arity().min() == 0) {
        shown = "[" + shown + "]";
      }
      line.append(' ').append(shown);
    }
    b.append(line).append('\n');
    if (!visibleSubcommands(spec).isEmpty()) {
      b.append(".br\n")
          .append(command)
          .append(" [")
          .append(italic("OPTION"))
          .append("]... ")
          .append(italic("COMMAND"))
          .append(" [")
          .append(italic("ARG"))
          .append("]...\n");
    }
  }

  private static String optionTag(CommandSpec spec, OptionSpec o) {
    List<String> names = new ArrayList<>(List.of(o.names()));
    if (o.negatable()) {
      CommandLine.INegatableOptionTransformer t = spec.negatableOptionTransformer();
      for (String n : o.names()) {
        String negative = t.makeNegative(n, spec);
        if (!negative.equals(n)) {
          names.add(negative);
        }
      }
    }
    StringBuilder tag = new StringBuilder();
    for (String n : names) {
      if (tag.length() > 0) {
        tag.append(", ");
      }
      tag.append(bold(escape(n)));
    }
    return tag.append(label(spec, o)).toString();
  }

  /** The option's parameter label as {@code --help} shows it (e.g. {@code =FILE}), in roff. */
  private static String label(CommandSpec spec, OptionSpec o) {
    String rendered =
        spec.commandLine()
            .getHelp()
            .parameterLabelRenderer()
            .renderParameterLabel(o, Ansi.OFF, List.of())
            .toString();
    if (rendered.isEmpty()) {
      return "";
    }
    String open = rendered.startsWith("[=") ? "[=" : rendered.startsWith("=") ? "=" : "";
    String close = open.equals("[=") && rendered.endsWith("]") ? "]" : "";
    String value = rendered.substring(open.length(), rendered.length() - close.length());
    return escape(open) + italic(escape(value)) + escape(close);
  }

  /** The one-line summary for NAME and COMMANDS: the header, else the description's first line. */
  static String summary(CommandSpec spec) {
    List<String> header = lines(spec.usageMessage().header());
    if (!header.isEmpty()) {
      return stripPeriod(header.get(0));
    }
    List<String> description = lines(spec.usageMessage().description());
    if (description.isEmpty()) {
      return spec.name();
    }
    String first = description.get(0);
    int sentence = first.indexOf(". ");
    if (sentence >= 0) {
      first = first.substring(0, sentence);
    }
    int colon = first.indexOf(": ");
    if (colon >= 0) {
      first = first.substring(0, colon);
    }
    return stripPeriod(first);
  }

  private static String stripPeriod(String s) {
    String t = s.strip();
    return t.endsWith(".") ? t.substring(0, t.length() - 1) : t;
  }

  private static List<String> lines(String[] texts) {
    List<String> out = new ArrayList<>();
    if (texts == null) {
      return out;
    }
    for (String t : texts) {
      for (String l : format(t).split("\n", -1)) {
        if (!l.isBlank()) {
          out.add(l.strip());
        }
      }
    }
    return out;
  }

  static List<CommandSpec> visibleSubcommands(CommandSpec spec) {
    // subcommands() lists a command once per alias; keep the first.
    Map<CommandSpec, Boolean> seen = new IdentityHashMap<>();
    List<CommandSpec> out = new ArrayList<>();
    for (CommandLine sub : spec.subcommands().values()) {
      CommandSpec s = sub.getCommandSpec();
      if (!s.usageMessage().hidden() && seen.put(s, Boolean.TRUE) == null) {
        out.add(s);
      }
    }
    return out;
  }

  static List<OptionSpec> visibleOptions(CommandSpec spec) {
    List<OptionSpec> out =
        new ArrayList<>(spec.options().stream().filter(o -> !o.hidden()).toList());
    if (spec.usageMessage().sortOptions()) {
      out.sort(CommandLine.Help.createShortOptionNameComparator());
    }
    return out;
  }

  static List<PositionalParamSpec> visiblePositionals(CommandSpec spec) {
    return spec.positionalParameters().stream().filter(p -> !p.hidden()).toList();
  }

  /** picocli's format specifiers in help text: %n is a line break, %% a percent sign. */
  private static String format(String s) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      char next = i + 1 < s.length() ? s.charAt(i + 1) : 0;
      if (c == '%' && (next == 'n' || next == '%')) {
        b.append(next == 'n' ? '\n' : '%');
        i++;
      } else {
        b.append(c);
      }
    }
    return b.toString();
  }

  /**
   * Help text as roff running text: picocli markup and `code` become fonts, every line is safe (no
   * control character at its start, backslashes and hyphens escaped), line breaks kept.
   */
  static String text(String helpText) {
    List<String> out = new ArrayList<>();
    for (String line : format(fonts(helpText)).split("\n", -1)) {
      String l = line.strip();
      out.add(l.isEmpty() ? ".sp" : escape(codeSpans(l)));
    }
    while (!out.isEmpty() && out.get(out.size() - 1).equals(".sp")) {
      out.remove(out.size() - 1);
    }
    return String.join("\n.br\n", out).replace("\n.br\n.sp\n.br\n", "\n.sp\n");
  }

  /** picocli's {@code @|bold text|@} markup as font marks. */
  private static String fonts(String s) {
    Matcher m = MARKUP.matcher(s);
    StringBuilder b = new StringBuilder();
    while (m.find()) {
      List<String> styles = List.of(m.group(1).split(","));
      char font =
          styles.contains("bold")
              ? BOLD
              : styles.contains("italic") || styles.contains("underline") ? ITALIC : 0;
      String inner = m.group(2);
      m.appendReplacement(b, Matcher.quoteReplacement(font == 0 ? inner : font + inner + ROMAN));
    }
    m.appendTail(b);
    return b.toString();
  }

  /** Paired backquotes mark code, set in bold; an unpaired one stays a backquote. */
  private static String codeSpans(String line) {
    long ticks = line.chars().filter(c -> c == '`').count();
    if (ticks == 0 || ticks % 2 != 0) {
      return line;
    }
    StringBuilder b = new StringBuilder();
    boolean open = false;
    for (char c : line.toCharArray()) {
      if (c == '`') {
        b.append(open ? ROMAN : BOLD);
        open = !open;
      } else {
        b.append(c);
      }
    }
    return b.toString();
  }

  /** Text without markup or code marks, for NAME (read by whatis and apropos as plain text). */
  private static String plain(String s) {
    return fonts(s)
        .replace("`", "")
        .replace(String.valueOf(BOLD), "")
        .replace(String.valueOf(ITALIC), "")
        .replace(String.valueOf(ROMAN), "");
  }

  /** Escapes one line of text for roff; font marks become font escapes; the result is ASCII. */
  static String escape(String s) {
    StringBuilder b = new StringBuilder();
    s.codePoints()
        .forEach(
            c -> {
              switch (c) {
                case '\\' -> b.append("\\e");
                case '-' -> b.append("\\-");
                case '`' -> b.append("\\(ga");
                case BOLD -> b.append("\\fB");
                case ITALIC -> b.append("\\fI");
                case ROMAN -> b.append("\\fR");
                default -> {
                  if (c < 0x80) {
                    b.append((char) c);
                  } else {
                    // Pure ASCII pages: groff's own notation for a Unicode character (as preconv).
                    b.append(String.format(Locale.ROOT, "\\[u%04X]", c));
                  }
                }
              }
            });
    // A line starting with '.' or '\'' would be a request.
    if (b.length() > 0 && (b.charAt(0) == '.' || b.charAt(0) == '\'')) {
      b.insert(0, "\\&");
    }
    return b.toString();
  }

  private static String bold(String roff) {
    return "\\fB" + roff + "\\fR";
  }

  private static String italic(String roff) {
    return "\\fI" + roff + "\\fR";
  }

  private static String quoted(String s) {
    return "\"" + escape(s).replace("\"", "\\(dq") + "\"";
  }
}
