package dev.onebeat.scheduler.engine.relay;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onebeat.job.Jobs;
import dev.onebeat.job.PeriodicJob;
import dev.onebeat.job.Schedule;
import dev.onebeat.job.TaskRequest;
import dev.onebeat.scheduler.SchedulerTestDatabase;
import dev.onebeat.scheduler.engine.fire.FireOutcome;
import dev.onebeat.scheduler.engine.fire.FirePath;
import dev.onebeat.scheduler.engine.fire.FireRequest;
import dev.onebeat.scheduler.engine.fire.FireResult;
import dev.onebeat.scheduler.engine.fire.FireTrigger;
import dev.onebeat.testsupport.PostgresExtension;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * With {@code onebeat.relay.unrouted=reject}, a code job (which start-up cannot check) dispatching to
 * a queue no route names fails its fire: nothing it dispatched is written, the routed task included.
 */
@ExtendWith(PostgresExtension.class)
@DirtiesContext
@SpringBootTest(properties = {SchedulerTestDatabase.NO_DEMO, SchedulerTestDatabase.QUARTZ_STOPPED,
        "onebeat.relay.unrouted=reject", "onebeat.relay.queues.kept.transport=database"})
class UnroutedRejectIT {

    @DynamicPropertySource
    static void database(DynamicPropertyRegistry registry) {
        SchedulerTestDatabase.register(registry, UnroutedRejectIT.class);
    }

    @Autowired
    FirePath firePath;
    @Autowired
    JdbcClient jdbc;

    @Test
    void codeJobDispatchingToAnUnroutedQueueFailsItsFireAndWritesNothing() {
        PeriodicJob job = Jobs.periodic("misrouted", Schedule.every(Duration.ofMinutes(1))).execute(ctx -> {
            ctx.dispatch(TaskRequest.builder("kept.task").queue("kept").build());
            ctx.dispatch(TaskRequest.builder("lost.task").queue("nowhere").build());
        });

        FireResult result = firePath.fire(job,
                FireRequest.of(Instant.parse("2026-11-29T08:00:00Z"), FireTrigger.MANUAL, "node-a"));

        assertThat(result.outcome()).isEqualTo(FireOutcome.FAILED);
        assertThat(result.error()).hasMessageContaining("queue 'nowhere' is not routed in onebeat.relay.queues "
                + "(onebeat.relay.unrouted=reject); routed queues: [kept, onebeat.alerts]");
        assertThat(jdbc.sql("SELECT count(*) FROM onebeat_task").query(Integer.class).single()).isZero();
        assertThat(jdbc.sql("SELECT count(*) FROM onebeat_fire WHERE job_name = 'misrouted'").query(Integer.class).single())
                .isZero();
    }
}
