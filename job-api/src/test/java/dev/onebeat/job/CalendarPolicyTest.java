package dev.onebeat.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class CalendarPolicyTest {

    private static final Instant JAN = Instant.parse("2027-01-01T00:00:00Z");

    @Test
    void noneLeavesEveryInstantAndIsTheJobsDefault() {
        PeriodicJob job = Jobs.periodic("reports", Schedule.every(java.time.Duration.ofMinutes(1))).execute(c -> { });

        assertThat(job.calendars()).isSameAs(CalendarPolicy.NONE);
        assertThat(CalendarPolicy.NONE.none()).isTrue();
    }

    @Test
    void aPolicyIsBuiltFromIncludedAndExcludedCalendarsAndAnActivePeriod() {
        CalendarPolicy policy = CalendarPolicy.including("business-hours").andExcluding("fr-holidays", "freeze")
                .activeBetween(JAN, JAN.plusSeconds(86_400));

        assertThat(policy.include()).containsExactly("business-hours");
        assertThat(policy.exclude()).containsExactly("fr-holidays", "freeze");
        assertThat(policy.calendars()).containsExactly("business-hours", "fr-holidays", "freeze");
        assertThat(policy.none()).isFalse();
        assertThat(policy.pick()).isEqualTo(CalendarPolicy.Pick.ALL);
        assertThat(CalendarPolicy.NONE.picking(CalendarPolicy.Pick.LAST_IN_MONTH).none()).isFalse();
    }

    @Test
    void aBadNameATwiceNamedCalendarOrAnEmptyPeriodIsRefusedNamingIt() {
        assertThatIllegalArgumentException().isThrownBy(() -> CalendarPolicy.excluding("ok", "no spaces"))
                .withMessageStartingWith("exclude[1]: must be a calendar name");
        assertThatIllegalArgumentException().isThrownBy(() -> CalendarPolicy.including("a", "a"))
                .withMessage("include[1]: 'a' is named twice");
        assertThatIllegalArgumentException().isThrownBy(() -> new CalendarPolicy(List.of(), List.of(), JAN, JAN))
                .withMessage("activeUntil must be after activeFrom (2027-01-01T00:00:00Z), was 2027-01-01T00:00:00Z");
    }
}
