package dev.onebeat.scheduler.engine.fire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.anyBoolean;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import dev.onebeat.job.Schedule;
import dev.onebeat.scheduler.engine.registry.JobRegistry;
import dev.onebeat.scheduler.engine.registry.ScheduleMembers;
import dev.onebeat.scheduler.engine.schedule.Timetable;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Which of the members' columns a fire reads: the join times only when it settles instants it passed over, the one
 * case that can plan with them. The catalog is a mock here; what its read returns is {@code ScheduleSyncIT}'s.
 */
class MemberReadsTest {

    private static final Instant AT = Instant.parse("2027-05-01T10:20:00Z");
    private static final ScheduleMembers.Members READ = new ScheduleMembers.Members(List.of("report"), List.of(),
            Map.of());

    private final ScheduleMembers catalog = mock(ScheduleMembers.class);
    private final MemberReads reads = new MemberReads(catalog, mock(JobRegistry.class), mock(FireFaults.class),
            Clock.fixed(AT, ZoneOffset.UTC), () -> false);

    @Test
    void aFireOnTimeDoesNotReadWhenItsMembersJoined() {
        when(catalog.membersAt(eq("every-minute"), eq(AT), anyBoolean())).thenReturn(READ);

        assertThat(reads.due("every-minute", AT, "node-1", Missed.NONE)).isSameAs(READ);

        verify(catalog).membersAt("every-minute", AT, false);
    }

    @Test
    void aFireSettlingInstantsItPassedOverReadsWhenItsMembersJoined() {
        Missed missed = new Missed(Timetable.of(Schedule.every(Duration.ofMinutes(1)))
                .between(AT.minus(Duration.ofMinutes(5)), AT, 10), true, true, 0);
        when(catalog.membersAt(eq("every-minute"), eq(AT), anyBoolean())).thenReturn(READ);

        assertThat(reads.due("every-minute", AT, "node-1", missed)).isSameAs(READ);

        assertThat(missed.passedOver()).isNotEmpty();
        verify(catalog).membersAt("every-minute", AT, true);
    }
}
