package dev.onebeat.scheduler.engine.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.onebeat.scheduler.FaultInjection;
import dev.onebeat.testsupport.PostgresExtension;
import dev.onebeat.testsupport.TestDatabase;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * The retry of a failed fire lives in the cluster, not in the replica that failed: that replica is
 * SIGKILLed after arming the retry and before it is due, and a replica started afterwards makes the
 * attempt, for the same instant.
 */
@FaultInjection
@ExtendWith(PostgresExtension.class)
class RetryKilledIT {

    private record Armed(Instant scheduledAt, Instant retryAt) {
    }

    @Test
    void aRetryArmedByAReplicaKilledBeforeItIsDueIsMadeByAnother(TestDatabase database) throws Exception {
        JdbcClient jdbc = JdbcClient.create(database.dataSource());
        Armed armed;
        Instant killedAt;
        try (Replicas replicas = new Replicas(database, "retry-killed")) {
            replicas.start("replica-1", "flaky", Map.of(ReplicaMain.FAIL_PROPERTY, "true"));
            // the table exists once the replica's Liquibase has run
            // killed once the failed fire has ended in Quartz too: a kill inside it would leave its instant to Quartz's
            // recovery, which a survivor runs at once, and the retry would find it fired (a case of its own)
            await().atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(100)).ignoreExceptions()
                    .until(() -> firstArmed(jdbc).isPresent() && executing(jdbc) == 0);
            replicas.kill("replica-1");
            killedAt = Instant.now();
            armed = firstArmed(jdbc).orElseThrow();
            assertThat(armed.retryAt()).as("the retry was not due yet when its replica died").isAfter(killedAt);

            replicas.start("replica-2", "flaky");
            await().atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(500))
                    .until(() -> !ledger(jdbc, armed.scheduledAt()).isEmpty());
        }

        assertThat(ledger(jdbc, armed.scheduledAt())).containsExactly("replica-2 retry attempt 2");
        assertThat(jdbc.sql("""
                        SELECT node || ' ' || outcome || ' attempt ' || attempt FROM onebeat_fire_attempt
                        WHERE job_name = ? AND scheduled_at = ? ORDER BY attempt
                        """)
                .params(ReplicaMain.FLAKY_JOB, Timestamp.from(armed.scheduledAt())).query(String.class).list())
                .containsExactly("replica-1 failed attempt 1");
        assertThat(jdbc.sql("SELECT count(*) FROM onebeat_task WHERE job_name = ? AND scheduled_at = ?")
                .params(ReplicaMain.FLAKY_JOB, Timestamp.from(armed.scheduledAt())).query(Long.class).single())
                .isEqualTo(1);
        System.out.printf("retry after SIGKILL: instant %s failed on replica-1, retry due %s, replica-1 killed %s,"
                + " retried by replica-2%n", armed.scheduledAt(), armed.retryAt(), killedAt);
    }

    private static Optional<Armed> firstArmed(JdbcClient jdbc) {
        return jdbc.sql("""
                        SELECT scheduled_at, retry_at FROM onebeat_fire_attempt
                        WHERE job_name = ? AND retry_at IS NOT NULL ORDER BY scheduled_at LIMIT 1
                        """)
                .param(ReplicaMain.FLAKY_JOB)
                .query((rs, row) -> new Armed(rs.getTimestamp(1).toInstant(), rs.getTimestamp(2).toInstant()))
                .optional();
    }

    /** @return the fires Quartz has handed to a job that has not ended yet */
    private static int executing(JdbcClient jdbc) {
        return jdbc.sql("SELECT count(*) FROM qrtz_fired_triggers WHERE state = 'EXECUTING'").query(Integer.class)
                .single();
    }

    private static List<String> ledger(JdbcClient jdbc, Instant scheduledAt) {
        return jdbc.sql("""
                        SELECT node || ' ' || trigger_kind || ' attempt ' || attempt FROM onebeat_fire
                        WHERE job_name = ? AND scheduled_at = ?
                        """)
                .params(ReplicaMain.FLAKY_JOB, Timestamp.from(scheduledAt)).query(String.class).list();
    }
}
