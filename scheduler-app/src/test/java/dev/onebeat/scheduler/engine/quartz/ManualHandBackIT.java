package dev.onebeat.scheduler.engine.quartz;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.onebeat.scheduler.operate.admin.ManualTriggers;
import dev.onebeat.scheduler.operate.admin.ManualTriggersAt;
import dev.onebeat.testsupport.PostgresExtension;
import dev.onebeat.testsupport.TestDatabase;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.quartz.Scheduler;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * "Trigger now" requests whose one-shot triggers reach a replica that does not register the job are handed
 * back and fired by one that does, still as manual fires for the instant they were requested for; two
 * requests accepted in the same millisecond are two hand-backs, and both fire.
 */
@ExtendWith(PostgresExtension.class)
class ManualHandBackIT {

    @Test
    void manualFiresHandedBackKeepTheirRequestedInstantAndTwoOfOneMillisecondBothFire(TestDatabase database)
            throws Exception {
        JdbcClient jdbc = JdbcClient.create(database.dataSource());
        try (ConfigurableApplicationContext oldReplica = HandBackReplicas.start(database, "old", true)) {
            // started second, so Quartz's per-JVM connection provider is this context's, as the trigger call needs
            try (ConfigurableApplicationContext newReplica = HandBackReplicas.start(database, "new", false,
                    "--onebeat.jobs[0].name=yearly", "--onebeat.jobs[0].cron=0 6 1 1 *", "--onebeat.jobs[0].task=t")) {
                Instant requested = Instant.now().truncatedTo(ChronoUnit.MILLIS);
                ManualTriggers sameMillisecond = ManualTriggersAt.fixed(newReplica, requested);
                sameMillisecond.trigger("yearly", "hand-me-back-a");
                sameMillisecond.trigger("yearly", "hand-me-back-b");
                // the old replica took both requests and handed them back
                await().atMost(Duration.ofSeconds(60)).until(() -> manualTriggers(jdbc) == 0
                        && HandBackReplicas.handBacks(jdbc) >= 1);
                // the old replica, signalled by its own hand-backs, would otherwise win every one of them
                oldReplica.close();

                newReplica.getBean(Scheduler.class).start();
                await().atMost(Duration.ofSeconds(30)).until(() -> fires(jdbc).size() == 2);

                assertThat(fires(jdbc)).containsExactly(new Fire(requested, "manual", "new", "hand-me-back-a"),
                        new Fire(requested, "manual", "new", "hand-me-back-b"));
            }
        }
    }

    record Fire(Instant scheduledAt, String trigger, String node, String run) {
    }

    private static List<Fire> fires(JdbcClient jdbc) {
        return jdbc.sql("SELECT scheduled_at, trigger_kind, node, run_id FROM onebeat_fire WHERE job_name = 'yearly'"
                        + " ORDER BY run_id")
                .query((rs, row) -> new Fire(rs.getTimestamp(1).toInstant(), rs.getString(2), rs.getString(3),
                        rs.getString(4)))
                .list();
    }

    private static long manualTriggers(JdbcClient jdbc) {
        return jdbc.sql("SELECT count(*) FROM qrtz_triggers WHERE trigger_group = ?").param(QuartzTriggers.MANUAL_GROUP)
                .query(Long.class).single();
    }
}
