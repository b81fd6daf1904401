package dev.onebeat.scheduler.quartz;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

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
 * A rolling deploy: replica "old" does not know job {@code shared}, replica "new" does. Fires that
 * reach the old replica are handed back to the cluster and fired by the new one with their own
 * scheduled instants, so no instant is lost and none fires twice.
 */
@ExtendWith(PostgresExtension.class)
class HandBackIT {

    @Test
    void fireOfAJobThisReplicaDoesNotRegisterIsHandedBackAndFiredByOneThatDoes(TestDatabase database)
            throws Exception {
        JdbcClient jdbc = JdbcClient.create(database.dataSource());
        ConfigurableApplicationContext oldReplica = HandBackReplicas.start(database, "old", true);
        ConfigurableApplicationContext newReplica = null;
        try {
            newReplica = HandBackReplicas.start(database, "new", false,
                    "--onebeat.jobs[0].name=shared", "--onebeat.jobs[0].every=2s", "--onebeat.jobs[0].task=t");
            // only the old replica fires at first: every instant of "shared" reaches the replica that lacks it
            await().atMost(Duration.ofSeconds(30)).until(() -> HandBackReplicas.handBacks(jdbc) >= 1);
            assertThat(fires(jdbc)).isEmpty();

            newReplica.getBean(Scheduler.class).start();
            await().atMost(Duration.ofSeconds(60)).until(() -> fires(jdbc).size() >= 4);
            oldReplica.close();
            await().atMost(Duration.ofSeconds(60)).until(() -> HandBackReplicas.handBacks(jdbc) == 0);
        } finally {
            // old first, whatever happened: both contexts of one JVM share Quartz's connection provider,
            // and a job store whose provider was closed retries its last completion forever on shutdown
            oldReplica.close();
            if (newReplica != null) {
                newReplica.close();
            }
        }

        List<Fire> fires = fires(jdbc);
        for (int i = 1; i < fires.size(); i++) {
            assertThat(Duration.between(fires.get(i - 1).scheduledAt(), fires.get(i).scheduledAt()))
                    .as("every instant once, including those handed back").isEqualTo(Duration.ofSeconds(2));
        }
        assertThat(fires).anyMatch(fire -> fire.trigger().equals("recovery"));
        assertThat(fires).allMatch(fire -> fire.node().equals("new"));
        assertThat(fires).allMatch(fire -> fire.scheduledAt().getEpochSecond() % 2 == 0);
    }

    record Fire(Instant scheduledAt, String trigger, String node) {
    }

    private static List<Fire> fires(JdbcClient jdbc) {
        return jdbc.sql("SELECT scheduled_at, trigger_kind, node FROM onebeat_fire WHERE job_name = 'shared' "
                        + "ORDER BY scheduled_at")
                .query((rs, row) -> new Fire(rs.getTimestamp(1).toInstant(), rs.getString(2), rs.getString(3)))
                .list();
    }
}
