package dev.clusterrun.core.enroot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clusterrun.core.BadInputException;
import dev.clusterrun.core.enroot.PathTemplate.Kind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PathTemplateTest {
  static final PathTemplate.Identity WHO =
      new PathTemplate.Identity("4242", "4343", "ana", "/home/ana");

  static PathTemplate data(String text) {
    return PathTemplate.parse("--data-path", text, Kind.STORAGE);
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '^',
      value = {
        "/shared/enroot/$(id -u)|/shared/enroot/4242",
        "/shared/enroot/$(id -g)/x|/shared/enroot/4343/x",
        "/shared/enroot/$UID|/shared/enroot/4242",
        "/shared/enroot/${UID}x|/shared/enroot/4242x",
        "/shared/enroot/$USER.d|/shared/enroot/ana.d",
        "/shared/${USER}_enroot|/shared/ana_enroot",
        "$HOME/enroot|/home/ana/enroot",
        "${HOME}/enroot-$(id -u)|/home/ana/enroot-4242",
        "/s/$(id -u)-$(id -g)/$USER|/s/4242-4343/ana",
      })
  void eachAcceptedFormIsWrittenAsGivenAndExpandsForTheUser(String text, String expanded) {
    PathTemplate t = data(text);
    assertThat(t.isTemplate()).isTrue();
    assertThat(t.dropInValue()).isEqualTo(text);
    assertThat(t.expand(WHO)).isEqualTo(expanded);
    assertThat(t.unsetIn(WHO)).isNull();
  }

  @Test
  void aLiteralPathIsQuotedAndNeverExpanded() {
    assertThat(data("/shared/enroot").isTemplate()).isFalse();
    assertThat(data("/shared/enroot").dropInValue()).isEqualTo("/shared/enroot");
    assertThat(data("/shared/my enroot;x").dropInValue()).isEqualTo("'/shared/my enroot;x'");
    assertThat(data("/shared/my enroot;x").expand(WHO)).isEqualTo("/shared/my enroot;x");
  }

  @Test
  void anEmptyVariableIsNamed() {
    PathTemplate t = data("/shared/$USER");
    assertThat(t.unsetIn(new PathTemplate.Identity("1", "1", "", "/h"))).isEqualTo("$USER");
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '^',
      value = {
        "/shared/$(whoami)|a command '$(whoami)' is not accepted",
        "/shared/$(id -u;touch /tmp/x)|a command '$(id -u;touch /tmp/x)' is not accepted",
        "/shared/$(id  -u)|a command '$(id  -u)' is not accepted",
        "/shared/$(id -u|a command '$(id -u' is not accepted",
        "/shared/`id -u`|a backquote '`id -u`' is not accepted",
        "/shared/`id|a backquote '`id' is not accepted",
        "/shared/${UID:-0}|an expansion '${UID:-0}' is not accepted",
        "/shared/${USER:?x}|an expansion '${USER:?x}' is not accepted",
        "/shared/${UID|an expansion '${UID' is not accepted",
        "/shared/$USER_x|a variable '$USER_x' is not accepted",
        "/shared/$PATH|a variable '$PATH' is not accepted",
        "/shared/$$|a variable '$$' is not accepted",
        "/shared/$1|a variable '$1' is not accepted",
        "/shared/x$|a variable '$' is not accepted",
        "/shared/$XDG_RUNTIME_DIR|XDG_RUNTIME_DIR (only --runtime-path may follow it)"
            + " '$XDG_RUNTIME_DIR' is not accepted",
      })
  void anyOtherExpansionIsRefusedNamingTheFlagAndThePart(String text, String problem) {
    assertThatThrownBy(() -> data(text))
        .isInstanceOf(BadInputException.class)
        .hasMessageStartingWith("--data-path: " + problem)
        .hasMessageContaining(PathTemplate.ACCEPTED);
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '^',
      value = {
        "/shared/$(id -u);rm -rf x|';'",
        "/shared/$(id -u) x|' '",
        "/shared/$(id -u)/*|'*'",
        "/shared/$UID&|'&'",
        "/shared/'$UID'|'''",
        "/shared/\"$UID\"|'\"'",
        "/shared/\\$UID|'\\'",
        "/shared/$UID>/tmp/x|'>'",
        "~/$UID|'~'",
      })
  void aCharacterTheShellWouldActOnBesideAnExpansionIsRefused(String text, String ch) {
    assertThatThrownBy(() -> data(text))
        .isInstanceOf(BadInputException.class)
        .hasMessageStartingWith("--data-path: " + ch + " in '" + text + "' is not accepted");
  }

  @Test
  void aTemplateMustStillBeAnAbsolutePath() {
    assertThatThrownBy(() -> data("$(id -u)/enroot"))
        .hasMessage(
            "--data-path: must be an absolute path (or start with $HOME), got '$(id -u)/enroot'");
    assertThatThrownBy(() -> data("shared/$UID")).hasMessageStartingWith("--data-path: must be");
    assertThatThrownBy(() -> data("/a/$UID\n/b"))
        .hasMessageStartingWith("--data-path: must not contain control characters");
    assertThatThrownBy(() -> PathTemplate.parse("--cache-path", "", Kind.STORAGE))
        .hasMessage("--cache-path: a path is required");
  }

  @Test
  void theRuntimePathMayFollowXdgRuntimeDirWithAPerUserFallback() {
    for (String ok :
        new String[] {
          "${XDG_RUNTIME_DIR:-/tmp/enroot-runtime-$(id -u)}/enroot",
          "$XDG_RUNTIME_DIR/enroot",
          "${XDG_RUNTIME_DIR}/enroot",
          "/run/enroot-user/$(id -u)",
        }) {
      PathTemplate t = PathTemplate.parse("--runtime-path", ok, Kind.RUNTIME);
      assertThat(t.dropInValue()).isEqualTo(ok);
    }
    assertThatThrownBy(
            () ->
                PathTemplate.parse(
                    "--runtime-path", "${XDG_RUNTIME_DIR:-/tmp/$(whoami)}/enroot", Kind.RUNTIME))
        .hasMessageStartingWith("--runtime-path: a command '$(whoami)' is not accepted")
        .hasMessageContaining("${XDG_RUNTIME_DIR:-PATH}");
    assertThatThrownBy(
            () -> PathTemplate.parse("--runtime-path", "${XDG_RUNTIME_DIR:-}/e", Kind.RUNTIME))
        .hasMessageStartingWith("--runtime-path: an expansion '${XDG_RUNTIME_DIR:-}'");
    assertThatThrownBy(
            () -> PathTemplate.parse("--runtime-path", "${TMPDIR:-/tmp}/e", Kind.RUNTIME))
        .hasMessageStartingWith("--runtime-path: an expansion '${TMPDIR:-/tmp}'");
  }
}
