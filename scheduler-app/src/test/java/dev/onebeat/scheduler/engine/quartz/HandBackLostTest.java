package dev.onebeat.scheduler.engine.quartz;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;

import io.micrometer.core.instrument.Metrics;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.quartz.JobDataMap;
import org.quartz.JobExecutionContext;

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
}
