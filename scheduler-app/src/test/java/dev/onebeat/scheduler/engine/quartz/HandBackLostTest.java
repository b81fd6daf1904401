package dev.onebeat.scheduler.engine.quartz;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Metrics;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.quartz.JobDataMap;
import org.quartz.JobExecutionContext;
import org.quartz.JobPersistenceException;
import org.quartz.ObjectAlreadyExistsException;
import org.quartz.Scheduler;
import org.quartz.Trigger;

class HandBackLostTest {

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

    @AfterEach
    void detach() {
        Metrics.removeRegistry(registry);
    }

    @Test
    void aFireHandedBackTheLastTimeIsGivenUpAndCountedLost() {
        Metrics.addRegistry(registry);
        JobDataMap data = new JobDataMap();
        data.put(HandBack.ATTEMPT, HandBack.MAX_ATTEMPTS);
        // the context of the fire is a collaborator here: what is under test is the give-up and its count
        JobExecutionContext context = mock(JobExecutionContext.class);
        when(context.getMergedJobDataMap()).thenReturn(data);

        HandBack.again(context, "nightly", Instant.parse("2027-01-01T00:00:00Z"), Clock.systemUTC());

        assertThat(registry.get(HandBack.LOST_METRIC).counter().count()).isEqualTo(1.0);
    }

    @Test
    void aLostFireThatCannotBeHandedBackFailsTheLookAndIsNotCountedLost() throws Exception {
        Metrics.addRegistry(registry);
        // the scheduler is a collaborator here: what is under test is what recover makes of its failures
        Scheduler scheduler = mock(Scheduler.class);
        when(scheduler.scheduleJob(any(Trigger.class))).thenThrow(new JobPersistenceException("cancelled"));

        assertThatThrownBy(() -> HandBack.recover(scheduler, List.of("nightly"), Instant.parse("2027-01-01T00:00:00Z"),
                Clock.systemUTC())).isInstanceOf(JobPersistenceException.class);
        Counter lost = registry.find(HandBack.LOST_METRIC).counter();
        assertThat(lost == null ? 0.0 : lost.count()).as("the look rolls back and looks again").isZero();
    }

    @Test
    void aLostFireHandedBackAlreadyIsLeftAsItIs() throws Exception {
        Scheduler scheduler = mock(Scheduler.class);
        when(scheduler.scheduleJob(any(Trigger.class))).thenThrow(new ObjectAlreadyExistsException("handed back"));

        HandBack.recover(scheduler, List.of("nightly"), Instant.parse("2027-01-01T00:00:00Z"), Clock.systemUTC());

        verify(scheduler).scheduleJob(any(Trigger.class));
    }
}
