package dev.clusterrun.core.spec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** srun's --time forms and clusterrun's units; anything else is refused saying what is expected. */
class TimeLimitTest {
  @ParameterizedTest
  @CsvSource({
    "30, PT30M",
    "0:05, PT5S",
    "10:30, PT10M30S",
    "1:02:03, PT1H2M3S",
    "2-12, PT60H",
    "1-0:30, PT24H30M",
    "1-2:3:4, PT26H3M4S",
    "90s, PT1M30S",
    "30m, PT30M",
    "2h, PT2H",
    "1d, PT24H",
    "0, PT0S",
    "UNLIMITED, PT0S",
    "infinite, PT0S"
  })
  void srunsFormsAndUnits(String text, String expected) {
    assertThat(TimeLimit.parse(text)).isEqualTo(Duration.parse(expected));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "",
        "-1",
        "1:2:3:4",
        "10x",
        "1.5h",
        "abc",
        "1-",
        "-5",
        "5 m",
        "9999999999",
        "1;reboot",
        "$(id)"
      })
  void anythingElseIsRefusedSayingWhatIsExpected(String text) {
    assertThatThrownBy(() -> TimeLimit.parse(text))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("expected MM, MM:SS, HH:MM:SS");
  }

  @ParameterizedTest
  @ValueSource(strings = {"366d", "400-0", "9000h"})
  void moreThanAYearIsRefused(String text) {
    assertThatThrownBy(() -> TimeLimit.parse(text)).hasMessageContaining("at most a year");
  }

  @ParameterizedTest
  @CsvSource({"PT10S, 10s", "PT1H30M, 1h 30m", "PT51H, 2d 3h", "PT0S, none"})
  void displayedAsPeopleReadIt(String d, String shown) {
    assertThat(TimeLimit.display(Duration.parse(d))).isEqualTo(shown);
  }
}
