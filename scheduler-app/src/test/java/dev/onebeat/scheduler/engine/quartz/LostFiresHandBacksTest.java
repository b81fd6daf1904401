package dev.onebeat.scheduler.engine.quartz;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** How a look cuts the lost fires it found into hand-back triggers. */
class LostFiresHandBacksTest {

    private static final Instant T = Instant.parse("2026-12-07T12:00:00Z");
    private static final Instant T5 = T.plusSeconds(5);

    @Test
    void theJobsOfAnInstantFiredTogetherGoAsGroupsOfAThousandTheOthersAloneOldestInstantFirst() {
        List<LostFires.Lost> lost = new ArrayList<>();
        for (int i = 0; i < 2_500; i++) {
            lost.add(new LostFires.Lost(String.format("job-%04d", i), T5, true));
        }
        lost.add(new LostFires.Lost("in-code", T5, false));
        lost.add(new LostFires.Lost("job-0001", T, true));

        List<LostFires.HandBackTrigger> triggers = LostFires.handBacks(lost, Set.of());

        assertThat(triggers).extracting(trigger -> trigger.jobs().size())
                .containsExactly(1, LostFires.JOBS_PER_HAND_BACK, LostFires.JOBS_PER_HAND_BACK, 500, 1);
        assertThat(triggers).extracting(LostFires.HandBackTrigger::at).containsExactly(T, T5, T5, T5, T5);
        assertThat(triggers).extracting(LostFires.HandBackTrigger::together)
                .containsExactly(true, true, true, true, false);
        assertThat(triggers.get(1).jobs()).as("sorted, so that a look finding the same set makes the same trigger")
                .startsWith("job-0000", "job-0001").endsWith("job-0999");
        assertThat(triggers.get(4).jobs()).containsExactly("in-code");
    }

    @Test
    void aGroupHoldsNoMoreNamesThanItsRowShouldCarry() {
        List<LostFires.Lost> lost = new ArrayList<>();
        for (int i = 0; i < 1_000; i++) {
            lost.add(new LostFires.Lost(String.format("%0150d", i), T, true));
        }

        List<LostFires.HandBackTrigger> triggers = LostFires.handBacks(lost, Set.of());

        assertThat(triggers).allSatisfy(trigger -> assertThat(trigger.jobs().stream().mapToInt(job -> job.length() + 1)
                .sum()).isLessThanOrEqualTo(LostFires.NAMES_PER_HAND_BACK));
        assertThat(triggers.stream().mapToInt(trigger -> trigger.jobs().size()).sum()).isEqualTo(1_000);
        assertThat(triggers).hasSize(5);
    }

    @Test
    void firesHandedBackAlreadyAreLeftOut() {
        List<LostFires.Lost> lost = List.of(new LostFires.Lost("a", T, true), new LostFires.Lost("b", T, true),
                new LostFires.Lost("c", T, false), new LostFires.Lost("a", T5, true));

        List<LostFires.HandBackTrigger> triggers = LostFires.handBacks(lost,
                Set.of("b@" + T.toEpochMilli(), "c@" + T.toEpochMilli(), "a@" + T5.toEpochMilli()));

        assertThat(triggers).containsExactly(new LostFires.HandBackTrigger(T, List.of("a"), true));
    }
}
