package dev.onebeat.scheduler.engine.quartz;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onebeat.scheduler.engine.schedule.Timetable;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Date;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The trigger's fire times are its instants less the lead, and every way Quartz moves the trigger on (an
 * on-time fire, a fire of a trigger armed without the lead, every misfire policy) keeps the instant a
 * fire stands for and the next one apart.
 */
class TimetableTriggerTest {

    private static final Duration LEAD = TimetableTrigger.LEAD;

    @Test
    void firesTheLeadBeforeEachInstantAndEachFireStandsForItsInstant() {
        TimetableTrigger trigger = trigger("cron 0 0 8 * * ? Europe/Paris", Instant.parse("2027-03-27T12:00:00Z"));
        Timetable timetable = trigger.timetable();

        assertThat(trigger.computeFirstFireTime(null).toInstant())
                .isEqualTo(Instant.parse("2027-03-28T06:00:00Z").minus(LEAD));
        for (String instant : new String[] {"2027-03-28T06:00:00Z", "2027-03-29T06:00:00Z", "2027-03-30T06:00:00Z"}) {
            Instant fireTime = trigger.getNextFireTime().toInstant();
            assertThat(fireTime).isEqualTo(Instant.parse(instant).minus(LEAD));
            trigger.triggered(null);

            // Quartz hands the job the previous fire time as the scheduled time
            assertThat(trigger.getPreviousFireTime().toInstant()).isEqualTo(fireTime);
            assertThat(TimetableTrigger.isFireTime(timetable, fireTime)).isTrue();
            assertThat(LogicalInstants.ofFireTime(timetable, fireTime)).isEqualTo(Instant.parse(instant));
        }
    }

    @Test
    void anInstantLessThanTheLeadAfterTheStartIsStillFired() {
        Instant start = Instant.parse("2027-01-01T00:00:09.900Z");

        TimetableTrigger trigger = trigger("every 10s", start);

        assertThat(trigger.computeFirstFireTime(null).toInstant()).isEqualTo(Instant.parse("2027-01-01T00:00:10Z").minus(LEAD));
    }

    @Test
    void aTriggerArmedAtTheInstantItselfFiresItOnTimeAndThenTakesTheLead() {
        TimetableTrigger trigger = trigger("every 10s", Instant.parse("2027-01-01T00:00:00Z"));
        Instant legacy = Instant.parse("2027-01-01T00:00:20Z");
        trigger.setNextFireTime(Date.from(legacy));

        trigger.triggered(null);

        assertThat(trigger.getPreviousFireTime().toInstant()).isEqualTo(legacy);
        assertThat(TimetableTrigger.isFireTime(trigger.timetable(), legacy)).as("counts as on time").isTrue();
        assertThat(LogicalInstants.ofFireTime(trigger.timetable(), legacy)).isEqualTo(legacy);
        assertThat(trigger.getNextFireTime().toInstant()).isEqualTo(Instant.parse("2027-01-01T00:00:30Z").minus(LEAD));
    }

    @Test
    void fireOnceNowStandsForTheLatestInstantUpToNowAndTheNextFireIsForALaterOne() {
        Instant longAgo = Instant.now().minus(Duration.ofDays(1)).truncatedTo(ChronoUnit.SECONDS);
        TimetableTrigger trigger = trigger("every 1s", longAgo);
        trigger.setMisfireInstruction(TimetableTrigger.MISFIRE_FIRE_ONCE_NOW);
        trigger.setNextFireTime(Date.from(longAgo));

        trigger.updateAfterMisfire(null);
        trigger.triggered(null);

        Instant firedAt = trigger.getPreviousFireTime().toInstant();
        Instant standsFor = LogicalInstants.ofFireTime(trigger.timetable(), firedAt);
        Instant next = LogicalInstants.ofFireTime(trigger.timetable(), trigger.getNextFireTime().toInstant());
        assertThat(TimetableTrigger.isFireTime(trigger.timetable(), firedAt)).as("a misfire, unless it fell on a fire time")
                .isEqualTo(firedAt.plus(LEAD).getNano() == 0 || firedAt.getNano() == 0);
        assertThat(standsFor).isBetween(firedAt.minusSeconds(1), firedAt.plus(LEAD));
        assertThat(next).isEqualTo(standsFor.plusSeconds(1));
    }

    @ParameterizedTest
    @ValueSource(ints = {TimetableTrigger.MISFIRE_FIRE_ONCE_NOW, TimetableTrigger.MISFIRE_DO_NOTHING,
            TimetableTrigger.MISFIRE_CATCH_UP})
    void everyMisfirePolicyFiresOnceNowAndThatFireAloneKnowsTheFirstMissedInstant(int instruction) {
        Instant longAgo = Instant.now().minus(Duration.ofDays(1)).truncatedTo(ChronoUnit.SECONDS);
        TimetableTrigger trigger = trigger("every 1s", longAgo);
        trigger.setMisfireInstruction(instruction);
        trigger.setNextFireTime(Date.from(longAgo.minus(LEAD)));
        Instant before = Instant.now().truncatedTo(ChronoUnit.MILLIS);

        trigger.updateAfterMisfire(null);
        trigger.triggered(null);

        Instant firedAt = trigger.getPreviousFireTime().toInstant();
        assertThat(firedAt).as("now").isBetween(before, Instant.now());
        assertThat(trigger.missedSince(firedAt)).as("the first instant missed").isEqualTo(longAgo);
        Instant next = trigger.getNextFireTime().toInstant();
        trigger.triggered(null);
        assertThat(trigger.missedSince(next)).as("the next fire is an ordinary one").isNull();
        assertThat(trigger.missedSince(firedAt)).as("still known to a recovery of the fire after the misfire")
                .isEqualTo(longAgo);
    }

    @Test
    void aMisfireOfTheFireAfterAMisfireKeepsTheFirstMissedInstant() {
        Instant longAgo = Instant.now().minus(Duration.ofDays(1)).truncatedTo(ChronoUnit.SECONDS);
        TimetableTrigger trigger = trigger("every 1s", longAgo);
        trigger.setMisfireInstruction(TimetableTrigger.MISFIRE_CATCH_UP);
        trigger.setNextFireTime(Date.from(longAgo.minus(LEAD)));

        trigger.updateAfterMisfire(null);
        trigger.setNextFireTime(Date.from(Instant.now().minusSeconds(120)));
        trigger.updateAfterMisfire(null);
        trigger.triggered(null);

        assertThat(trigger.missedSince(trigger.getPreviousFireTime().toInstant())).isEqualTo(longAgo);
    }

    @Test
    void theMissedRangeIsStoredWithTheTrigger() {
        Instant longAgo = Instant.parse("2027-01-01T00:00:00Z");
        TimetableTrigger trigger = trigger("every 10s", longAgo);
        trigger.setMisfireInstruction(TimetableTrigger.MISFIRE_CATCH_UP);
        trigger.setNextFireTime(Date.from(longAgo.minus(LEAD)));
        trigger.updateAfterMisfire(null);
        trigger.triggered(null);
        Instant firedAt = trigger.getPreviousFireTime().toInstant();

        TimetableTriggerPersistence persistence = new TimetableTriggerPersistence();
        TimetableTrigger loaded = (TimetableTrigger) ((TimetableScheduleBuilder) persistence.getTriggerPropertyBundle(
                persistence.getTriggerProperties(trigger)).getScheduleBuilder()).build();

        assertThat(loaded.missedSince(firedAt)).isEqualTo(longAgo);
        assertThat(loaded.schedule()).isEqualTo("every 10s");
    }

    private static TimetableTrigger trigger(String schedule, Instant start) {
        TimetableTrigger trigger = new TimetableTrigger(schedule);
        trigger.setStartTime(Date.from(start));
        return trigger;
    }
}
