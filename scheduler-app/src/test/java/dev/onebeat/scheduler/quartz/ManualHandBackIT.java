package dev.onebeat.scheduler.quartz;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.onebeat.scheduler.admin.ManualTriggers;
import dev.onebeat.testsupport.PostgresExtension;
import dev.onebeat.testsupport.TestDatabase;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.quartz.Scheduler;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * A "trigger now" whose one-shot trigger reaches a replica that does not register the job is handed
 * back and fired by one that does, still as a manual fire for the instant it was requested for.
 */
@ExtendWith(PostgresExtension.class)
class ManualHandBackIT {

    @Test
    void manualFireHandedBackKeepsItsRequestedInstant(TestDatabase database) throws Exception {
        JdbcClient jdbc = JdbcClient.create(database.dataSource());
        try (ConfigurableApplicationContext oldReplica = HandBackReplicas.start(database, "old", true)) {
            // started second, so Quartz's per-JVM connection provider is this context's, as the trigger call needs
            try (ConfigurableApplicationContext newReplica = HandBackReplicas.start(database, "new", false,
                    "--onebeat.jobs[0].name=yearly", "--onebeat.jobs[0].cron=0 6 1 1 *", "--onebeat.jobs[0].task=t")) {
                Instant requested = newReplica.getBean(ManualTriggers.class).trigger("yearly", "hand-me-back").scheduledAt();
                await().atMost(Duration.ofSeconds(60)).until(() -> HandBackReplicas.handBacks(jdbc) >= 1);
                // the old replica, signalled by its own hand-backs, would otherwise win every one of them
                oldReplica.close();

                newReplica.getBean(Scheduler.class).start();
                await().atMost(Duration.ofSeconds(30)).until(() -> fires(jdbc).size() == 1);

                assertThat(fires(jdbc)).containsExactly(new Fire(requested, "manual", "new"));
            }
        }
    }

    record Fire(Instant scheduledAt, String trigger, String node) {
    }

    private static List<Fire> fires(JdbcClient jdbc) {
        return jdbc.sql("SELECT scheduled_at, trigger_kind, node FROM onebeat_fire WHERE job_name = 'yearly'")
                .query((rs, row) -> new Fire(rs.getTimestamp(1).toInstant(), rs.getString(2), rs.getString(3)))
                .list();
    }
}
