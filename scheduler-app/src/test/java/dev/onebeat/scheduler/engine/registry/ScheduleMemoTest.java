package dev.onebeat.scheduler.engine.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.onebeat.job.Schedule;
import org.junit.jupiter.api.Test;

/**
 * Jobs sharing a schedule parse it once; a bad schedule is never remembered, so each definition that has it is
 * refused with its own path.
 */
class ScheduleMemoTest {

    @Test
    void theSameFieldsGiveTheSameScheduleParsedOnce() {
        Schedule first = Schedules.parse("onebeat.jobs[0]", "15 4 * * *", null, "Europe/Paris", "skip", null);
        Schedule second = Schedules.parse("onebeat.jobs[1]", "15 4 * * *", null, "Europe/Paris", "skip", null);

        assertThat(second).isSameAs(first);
        assertThat(Schedules.parse("", "15 4 * * *", null, "Europe/Paris", null, null)).as("another policy")
                .isNotEqualTo(first);
    }

    @Test
    void aBadScheduleIsRefusedEachTimeWithThePathOfItsDefinition() {
        assertThatThrownBy(() -> Schedules.parse("onebeat.jobs[0]", "61 * * * *", null, null, null, null))
                .hasMessageStartingWith("onebeat.jobs[0].cron: ");
        assertThatThrownBy(() -> Schedules.parse("onebeat.jobs[7]", "61 * * * *", null, null, null, null))
                .hasMessageStartingWith("onebeat.jobs[7].cron: ");
    }
}
