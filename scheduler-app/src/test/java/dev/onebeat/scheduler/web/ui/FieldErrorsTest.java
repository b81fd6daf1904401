package dev.onebeat.scheduler.web.ui;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class FieldErrorsTest {

    private static final Set<String> FIELDS = Set.of("cron", "every", "zone", "lockAtMostFor");

    @Test
    void messageGoesToTheFieldItNames() {
        assertThat(FieldErrors.of("zone: 'Mars/Olympus' is not a known IANA time zone", FIELDS))
                .isEqualTo(Map.of("zone", "'Mars/Olympus' is not a known IANA time zone"));
    }

    @Test
    void messageNamingTwoFieldsGoesToBoth() {
        assertThat(FieldErrors.of("cron, every: set exactly one of cron and every", FIELDS))
                .containsOnlyKeys("cron", "every").containsValue("set exactly one of cron and every");
    }

    @Test
    void configurationSpellingOfAFieldIsRecognised() {
        assertThat(FieldErrors.of("lock-at-most-for: 'soon' is not a duration", FIELDS))
                .isEqualTo(Map.of("lockAtMostFor", "'soon' is not a duration"));
    }

    @Test
    void messageNamingNoFieldOfTheFormGoesToTheForm() {
        assertThat(FieldErrors.of("task: job 'x' is defined in code", FIELDS))
                .isEqualTo(Map.of(FieldErrors.FORM, "task: job 'x' is defined in code"));
        assertThat(FieldErrors.of("something went wrong", FIELDS))
                .isEqualTo(Map.of(FieldErrors.FORM, "something went wrong"));
    }
}
