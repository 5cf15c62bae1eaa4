package dev.clusterrun.core.enroot;

import dev.clusterrun.core.BadInputException;
import dev.clusterrun.core.remote.ShellQuote;
import java.util.ArrayList;
import java.util.List;

/**
 * A path setting as {@code clusterrun setup} writes it into enroot's configuration: either a
 * literal path, or a per-user template made of literal text and the few expansions enroot's
 * configuration is documented with ({@code ENROOT_DATA_PATH /shared/enroot/$(id -u)}).
 *
 * <p>enroot 4.1.2 reads each {@code NAME VALUE} line of a configuration file and sets the setting
 * to {@code $(eval echo "VALUE")}, run by bash as the user who starts enroot: whatever the value
 * says is run by every user's enroot. So a value is either literal (no {@code $} and no backquote:
 * written quoted with {@link ShellQuote}, never expanded) or a template whose every expansion is
 * one of {@link Token}, and whose literal text holds only characters that mean nothing to the shell
 * (those {@link ShellQuote#isSafe} leaves bare: letters, digits and {@code _ - . / : , + @ % =}).
 * Anything else ({@code $(...)} but the two {@code id} forms, backquotes, {@code ${NAME:-...}} but
 * the runtime path's one, other variables, {@code ;}, spaces, globs) is refused naming the part.
 * The template is written unquoted and exactly as given: the drop-in's line is the one place where
 * it reaches a shell, enroot's own, as enroot documents. Where clusterrun needs the value (the
 * sharing proof), {@link #expand} computes it in Java from the user's identity.
 *
 * @param text the value as given on the command line
 * @param parts literal text and expansions in order; one literal part for a literal path
 */
public record PathTemplate(String text, List<Part> parts) {

  /** The expansions a template may use, each spelt exactly as here. */
  public enum Token {
    ID_U("$(id -u)"),
    ID_G("$(id -g)"),
    UID("$UID"),
    UID_BRACED("${UID}"),
    USER("$USER"),
    USER_BRACED("${USER}"),
    HOME("$HOME"),
    HOME_BRACED("${HOME}"),
    /** Only in the runtime path ({@link Kind#RUNTIME}). */
    XDG_RUNTIME_DIR("$XDG_RUNTIME_DIR"),
    /** Only in the runtime path ({@link Kind#RUNTIME}). */
    XDG_RUNTIME_DIR_BRACED("${XDG_RUNTIME_DIR}");

    private final String spelling;

    Token(String spelling) {
      this.spelling = spelling;
    }

    public String spelling() {
      return spelling;
    }

    boolean runtimeOnly() {
      return this == XDG_RUNTIME_DIR || this == XDG_RUNTIME_DIR_BRACED;
    }
  }

  /** Which setting a template is for: the runtime path also takes XDG_RUNTIME_DIR. */
  public enum Kind {
    /** Data or cache path: on storage, the same for one user on every node. */
    STORAGE,
    /** ENROOT_RUNTIME_PATH: node-local; may follow XDG_RUNTIME_DIR, with a fallback. */
    RUNTIME
  }

  /**
   * One piece of a template: literal text, an expansion, or (runtime path only) {@code
   * ${XDG_RUNTIME_DIR:-FALLBACK}}, whose fallback is a template of its own.
   */
  public sealed interface Part permits Literal, Expansion, XdgFallback {
    /** The part as written into the drop-in. */
    String written();
  }

  /** Literal text. */
  public record Literal(String text) implements Part {
    @Override
    public String written() {
      return text;
    }
  }

  /** One of {@link Token}. */
  public record Expansion(Token token) implements Part {
    @Override
    public String written() {
      return token.spelling();
    }
  }

  /** {@code ${XDG_RUNTIME_DIR:-FALLBACK}}. */
  public record XdgFallback(List<Part> fallback) implements Part {
    public XdgFallback {
      fallback = List.copyOf(fallback);
    }

    @Override
    public String written() {
      StringBuilder b = new StringBuilder(XDG_OPEN);
      fallback.forEach(p -> b.append(p.written()));
      return b.append('}').toString();
    }
  }

  /** What a template's expansions stand for, for one user on one node. */
  public record Identity(String uid, String gid, String user, String home) {}

  /** The accepted expansions, for messages and docs. */
  public static final String ACCEPTED =
      "$(id -u), $(id -g), $UID, ${UID}, $USER, ${USER}, $HOME, ${HOME}";

  private static final String XDG_OPEN = "${XDG_RUNTIME_DIR:-";

  public PathTemplate {
    parts = List.copyOf(parts);
  }

  /**
   * Reads {@code text}, given for {@code flag}.
   *
   * @throws BadInputException naming {@code flag} and the part refused, when the text holds an
   *     expansion not accepted, a character the shell would act on next to an expansion, or is not
   *     an absolute path (a template may also start with $HOME, or XDG_RUNTIME_DIR for the runtime
   *     path)
   */
  public static PathTemplate parse(String flag, String text, Kind kind) {
    if (text == null || text.isEmpty()) {
      throw new BadInputException(flag, "a path is required");
    }
    for (int i = 0; i < text.length(); i++) {
      if (Character.isISOControl(text.charAt(i))) {
        throw new BadInputException(
            flag, "must not contain control characters such as newlines or tabs");
      }
    }
    if (text.indexOf('$') < 0 && text.indexOf('`') < 0) {
      if (!text.startsWith("/")) {
        throw new BadInputException(flag, "must be an absolute path, got '" + text + "'");
      }
      return new PathTemplate(text, List.of(new Literal(text)));
    }
    List<Part> parts = new Parser(flag, text, kind).parts(0, text.length());
    Part first = parts.get(0);
    boolean absolute =
        first instanceof Literal l
            ? l.text().startsWith("/")
            : !(first instanceof Expansion e)
                || e.token() == Token.HOME
                || e.token() == Token.HOME_BRACED
                || e.token().runtimeOnly();
    if (!absolute) {
      throw new BadInputException(
          flag, "must be an absolute path (or start with $HOME), got '" + text + "'");
    }
    return new PathTemplate(text, parts);
  }

  /** Whether enroot expands anything in it (else it is one literal path). */
  public boolean isTemplate() {
    return !(parts.size() == 1 && parts.get(0) instanceof Literal);
  }

  /** The value for the drop-in's {@code NAME VALUE} line: quoted when literal, else as given. */
  public String dropInValue() {
    if (!isTemplate()) {
      return ShellQuote.quote(text);
    }
    StringBuilder b = new StringBuilder();
    parts.forEach(p -> b.append(p.written()));
    return b.toString();
  }

  /**
   * The path enroot computes from this template for {@code who}, as bash expands it. Not for a
   * template with XDG_RUNTIME_DIR, which depends on the session.
   */
  public String expand(Identity who) {
    StringBuilder b = new StringBuilder();
    for (Part p : parts) {
      if (p instanceof Expansion e) {
        b.append(value(e.token(), who));
      } else if (p instanceof Literal l) {
        b.append(l.text());
      } else {
        throw new IllegalStateException("XDG_RUNTIME_DIR depends on the session: " + text);
      }
    }
    return b.toString();
  }

  /**
   * The first expansion that stands for nothing for {@code who} (e.g. {@code $USER} where the
   * session has no USER), as spelt; null when every one has a value. enroot would then make a path
   * the template does not mean.
   */
  public String unsetIn(Identity who) {
    for (Part p : parts) {
      if (p instanceof Expansion e) {
        String v = value(e.token(), who);
        if (v == null || v.isEmpty()) {
          return e.token().spelling();
        }
      }
    }
    return null;
  }

  private static String value(Token t, Identity who) {
    return switch (t) {
      case ID_U, UID, UID_BRACED -> who.uid();
      case ID_G -> who.gid();
      case USER, USER_BRACED -> who.user();
      case HOME, HOME_BRACED -> who.home();
      case XDG_RUNTIME_DIR, XDG_RUNTIME_DIR_BRACED ->
          throw new IllegalStateException("XDG_RUNTIME_DIR depends on the session");
    };
  }

  /** Reads parts left to right; every refusal names the exact text refused. */
  private record Parser(String flag, String text, Kind kind) {
    List<Part> parts(int from, int to) {
      List<Part> parts = new ArrayList<>();
      StringBuilder lit = new StringBuilder();
      int i = from;
      while (i < to) {
        char c = text.charAt(i);
        if (c == '`') {
          int end = text.indexOf('`', i + 1);
          throw refused(text.substring(i, end < 0 || end >= to ? to : end + 1), "a backquote");
        }
        if (c != '$') {
          if (!ShellQuote.isSafe(String.valueOf(c))) {
            throw new BadInputException(
                flag,
                "'"
                    + c
                    + "' in '"
                    + text
                    + "' is not accepted in a per-user path: beside enroot's expansions only"
                    + " letters, digits and _ - . / : , + @ % = may appear (the shell would act"
                    + " on the others)");
          }
          lit.append(c);
          i++;
          continue;
        }
        if (!lit.isEmpty()) {
          parts.add(new Literal(lit.toString()));
          lit.setLength(0);
        }
        int end = expansionEnd(i, to);
        parts.add(expansion(text.substring(i, end), i, end));
        i = end;
      }
      if (!lit.isEmpty()) {
        parts.add(new Literal(lit.toString()));
      }
      return parts;
    }

    /** Where the expansion starting with the {@code $} at {@code i} ends (exclusive). */
    int expansionEnd(int i, int to) {
      if (i + 1 >= to) {
        return to;
      }
      char n = text.charAt(i + 1);
      if (n == '(') {
        return closing(i + 1, to, '(', ')');
      }
      if (n == '{') {
        return closing(i + 1, to, '{', '}');
      }
      if (Character.isLetter(n) || n == '_') {
        int j = i + 1;
        while (j < to && (Character.isLetterOrDigit(text.charAt(j)) || text.charAt(j) == '_')) {
          j++;
        }
        return j;
      }
      return i + 2;
    }

    /** Where the bracket {@code open} at {@code from} is closed (exclusive), counting nesting. */
    private int closing(int from, int to, char open, char close) {
      int depth = 0;
      for (int j = from; j < to; j++) {
        char c = text.charAt(j);
        if (c == open) {
          depth++;
        } else if (c == close && --depth == 0) {
          return j + 1;
        }
      }
      return to;
    }

    Part expansion(String s, int start, int end) {
      for (Token t : Token.values()) {
        if (t.spelling().equals(s)) {
          if (t.runtimeOnly() && kind != Kind.RUNTIME) {
            throw refused(s, "XDG_RUNTIME_DIR (only --runtime-path may follow it)");
          }
          return new Expansion(t);
        }
      }
      if (kind == Kind.RUNTIME && s.startsWith(XDG_OPEN) && s.endsWith("}")) {
        List<Part> inner = parts(start + XDG_OPEN.length(), end - 1);
        if (inner.isEmpty() || inner.stream().anyMatch(p -> p instanceof XdgFallback)) {
          throw refused(s, "an expansion");
        }
        return new XdgFallback(inner);
      }
      char second = s.length() > 1 ? s.charAt(1) : ' ';
      throw refused(s, second == '(' ? "a command" : second == '{' ? "an expansion" : "a variable");
    }

    BadInputException refused(String part, String what) {
      return new BadInputException(
          flag,
          what
              + " '"
              + part
              + "' is not accepted: enroot runs its configuration through the shell for every"
              + " user, so setup writes only the per-user forms "
              + ACCEPTED
              + (kind == Kind.RUNTIME ? ", $XDG_RUNTIME_DIR, ${XDG_RUNTIME_DIR:-PATH}" : ""));
    }
  }
}
