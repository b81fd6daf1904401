package dev.onebeat.scheduler.engine.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.onebeat.scheduler.FaultInjection;
import dev.onebeat.scheduler.SecurityTestUsers;
import dev.onebeat.testsupport.PostgresExtension;
import dev.onebeat.testsupport.TestDatabase;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * Every database session of three scheduler JVMs terminated every 0.3 s for 15 s, while a job written in code and a
 * job defined by data are due every second ({@link SessionsKilledIT} does it for a minute and waits for every retry
 * and misfire to settle): what the instants API, the detector's events, the logs and the metrics say of the instants
 * of those seconds. A class of its own: its database must not carry the ledger of another fault into the next.
 */
@FaultInjection
@ExtendWith(PostgresExtension.class)
class DatabaseFaultsIT {

    private static final Duration KILL_EVERY = Duration.ofMillis(300);
    private static final String DECLARED = "declared-1s";
    private static final List<String> JOBS = List.of(ReplicaMain.JOB, DECLARED);

    /**
     * Fifteen seconds of terminated sessions, then calm: every instant of those seconds, once past its grace, has in
     * the instants API a settled outcome with its reason, and each one missed says that fires could not reach the
     * database, there and in the detector's event for it (written once, when it was judged); the replicas log when
     * their fires cannot reach the database and count each failure; nothing commits twice.
     */
    @Test
    void everyFaultedInstantHasARecordedOutcomeWithItsReasonAndEachFailureIsLoggedAndCounted(TestDatabase database)
            throws Exception {
        Ledger ledger = new Ledger(database.dataSource());
        JdbcClient jdbc = JdbcClient.create(database.dataSource());
        String viewer = SecurityTestUsers.token("viewer");
        Instant from;
        Instant end;
        try (Replicas replicas = new Replicas(database, "sessions-killed-briefly")) {
            replicas.startThreeAndAwaitCluster("fanout", ledger, Stream.concat(Stream.of(
                    "--onebeat.jobs[0].name=" + DECLARED, "--onebeat.jobs[0].every=1s",
                    "--onebeat.jobs[0].task=declared.tick", "--onebeat.jobs[0].alerts.grace=5s",
                    "--onebeat.monitor.check-interval=2s"), DatabaseFaults.tokens().stream()).toArray(String[]::new));
            await().atMost(Duration.ofMinutes(1)).until(() -> JOBS.stream().allMatch(job -> committed(jdbc, job) >= 3));
            List<String> apis = List.of(replicas.baseUrl("replica-1"), replicas.baseUrl("replica-2"),
                    replicas.baseUrl("replica-3"));
            from = Instant.now().truncatedTo(ChronoUnit.SECONDS).plusSeconds(1);
            int killed = DatabaseFaults.killSessions(database.dataSource(), Duration.ofSeconds(15), KILL_EVERY);
            end = Instant.now().truncatedTo(ChronoUnit.SECONDS).plusSeconds(1);
            Map<String, List<DatabaseFaults.Judged>> judged = new HashMap<>();
            try {
                // until every instant is past its grace (30 s for the job written in code, 5 s for the declared one)
                await().atMost(Duration.ofSeconds(75)).pollInterval(Duration.ofSeconds(2)).untilAsserted(() -> {
                    for (String job : JOBS) {
                        List<DatabaseFaults.Judged> instants = DatabaseFaults.instants(apis.get(0), viewer, job, from,
                                end);
                        judged.put(job, instants);
                        assertThat(instants).as(job + ": every instant of the window")
                                .hasSize((int) Duration.between(from, end).toSeconds());
                        assertThat(instants).as(job + ": each past its grace, with its outcome and reason")
                                .allSatisfy(instant -> assertThat(!instant.graceEnds().isAfter(Instant.now())
                                        && instant.accounted() && (!instant.outcome().equals("missed")
                                        || instant.reason().contains(DatabaseFaults.UNREACHABLE)))
                                        .as(instant.toString()).isTrue());
                    }
                });
            } finally {
                judged.forEach((job, instants) -> System.out.printf(
                        "sessions killed briefly: %s, %s to %s, %d sessions terminated: %s%n", job, from, end, killed,
                        DatabaseFaults.counts(instants, Instant.now())));
            }
            // the detector has judged every instant of the window: a miss that no written period explains waits,
            // while a fault is near, up to 30 s past its grace for the replicas' periods
            await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofSeconds(1)).until(() -> jdbc.sql("""
                            SELECT count(*) FROM onebeat_job_monitor WHERE job_name IN (?, ?) AND checked_until >= ?""")
                    .params(JOBS.get(0), JOBS.get(1), Timestamp.from(end.minusSeconds(1))).query(Long.class)
                    .single() == JOBS.size());
            // the detector's record of each miss, written when it judged it, says why
            assertThat(jdbc.sql("""
                            SELECT job_name || ' ' || scheduled_at || ': ' || reason FROM onebeat_job_event
                            WHERE kind = 'missed' AND scheduled_at >= ? AND scheduled_at < ?""")
                    .params(Timestamp.from(from), Timestamp.from(end)).query(String.class).list())
                    .as("the fault periods written: %s", jdbc.sql("""
                            SELECT node || ' ' || stage || ' ' || since || ' to ' || until || ' (' || failures || ')'
                            FROM onebeat_fire_fault ORDER BY since""").query(String.class).list())
                    .allSatisfy(event -> assertThat(event).containsAnyOf(DatabaseFaults.UNREACHABLE,
                            ": began "));
            assertThat(replicas.countLogLines("fires cannot reach the database")).as("logged").isPositive();
            assertThat(apis.stream().mapToDouble(api -> DatabaseFaults.fireFailures(api, SecurityTestUsers.token("admin"))).sum())
                    .as("onebeat_fire_failed_total{reason=\"database\"}").isPositive();
        }
        assertThat(DatabaseFaults.duplicateCommits(jdbc)).isZero();
    }

    private static long committed(JdbcClient jdbc, String job) {
        return jdbc.sql("SELECT count(*) FROM onebeat_fire WHERE job_name = ?").param(job).query(Long.class).single();
    }
}
