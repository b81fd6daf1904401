package dev.onebeat.scheduler.engine.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.onebeat.scheduler.FaultInjection;
import dev.onebeat.testsupport.PostgresExtension;
import dev.onebeat.testsupport.TestDatabase;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * Every database session of three scheduler JVMs is terminated ({@code pg_terminate_backend}) every 0.3 s
 * for a minute, while a job written in code and a job defined by data are due every second. Once the
 * database is left alone, every instant of that minute ends with one outcome — committed, skipped with
 * its reason, or failed after its last attempt — none without a trace and none committed twice.
 */
@FaultInjection
@ExtendWith(PostgresExtension.class)
class SessionsKilledIT {

    private static final Duration CHAOS = Duration.ofSeconds(60);
    private static final Duration KILL_EVERY = Duration.ofMillis(300);
    private static final String DECLARED = "declared-1s";
    private static final List<String> JOBS = List.of(ReplicaMain.JOB, DECLARED);

    @Test
    void everyInstantOfTheMinuteHasOneOutcomeAndNoneCommittedTwice(TestDatabase database) throws Exception {
        Ledger ledger = new Ledger(database.dataSource());
        JdbcClient jdbc = JdbcClient.create(database.dataSource());
        Instant from;
        Instant until;
        int killed;
        try (Replicas replicas = new Replicas(database, "sessions-killed")) {
            replicas.startThreeAndAwaitCluster("fanout", ledger, "--onebeat.jobs[0].name=" + DECLARED,
                    "--onebeat.jobs[0].every=1s", "--onebeat.jobs[0].task=declared.tick");
            await().atMost(Duration.ofMinutes(1)).until(() -> JOBS.stream().allMatch(job -> committed(jdbc, job) >= 3));
            from = Instant.now().truncatedTo(ChronoUnit.SECONDS).plusSeconds(1);
            killed = DatabaseFaults.killSessions(database.dataSource(), CHAOS, KILL_EVERY);
            until = Instant.now().truncatedTo(ChronoUnit.SECONDS);
            // retries (10 s, then 20 s later by default), misfires (60 s late) and recoveries settle the rest
            await().atMost(Duration.ofMinutes(4)).pollInterval(Duration.ofSeconds(2))
                    .until(() -> JOBS.stream().allMatch(job -> unsettled(jdbc, job, from, until).isEmpty()));
        }

        for (String job : JOBS) {
            Map<Instant, List<String>> outcomes = outcomes(jdbc, job, from, until);
            assertThat(outcomes).as(job + ": every instant of the minute").hasSize((int) Duration.between(from, until)
                    .toSeconds() + 1);
            assertThat(outcomes).as(job + ": one outcome each").allSatisfy((instant, list) ->
                    assertThat(list).as(job + " at " + instant).hasSize(1));
            Map<String, Integer> counts = new TreeMap<>();
            outcomes.values().forEach(list -> counts.merge(list.get(0), 1, Integer::sum));
            System.out.printf("sessions killed: %s, %s to %s, %d sessions terminated: %s%n", job, from, until, killed,
                    counts);
        }
        assertThat(DatabaseFaults.duplicateCommits(jdbc)).isZero();
    }

    private static long committed(JdbcClient jdbc, String job) {
        return jdbc.sql("SELECT count(*) FROM onebeat_fire WHERE job_name = ?").param(job).query(Long.class).single();
    }

    /** @return the instants of the window with no outcome yet: not committed, not skipped, not given up */
    private static List<Instant> unsettled(JdbcClient jdbc, String job, Instant from, Instant until) {
        Map<Instant, List<String>> outcomes = outcomes(jdbc, job, from, until);
        List<Instant> open = new ArrayList<>();
        for (Instant at = from; !at.isAfter(until); at = at.plusSeconds(1)) {
            if (!outcomes.containsKey(at)) {
                open.add(at);
            }
        }
        return open;
    }

    /**
     * @return per instant of the window, its outcomes: {@code committed}, {@code skipped: <reason>}, or {@code failed}
     *         for a failed attempt after which none is armed and none came
     */
    private static Map<Instant, List<String>> outcomes(JdbcClient jdbc, String job, Instant from, Instant until) {
        Map<Instant, List<String>> outcomes = new HashMap<>();
        jdbc.sql("""
                        SELECT scheduled_at, 'committed (' || trigger_kind || ')' FROM onebeat_fire
                        WHERE job_name = :job AND run_id = ''
                          AND scheduled_at BETWEEN :from AND :until
                        UNION ALL
                        SELECT scheduled_at, 'skipped: ' || reason FROM onebeat_fire_attempt
                        WHERE job_name = :job AND outcome = 'skipped' AND scheduled_at BETWEEN :from AND :until
                        UNION ALL
                        SELECT a.scheduled_at, 'failed' FROM onebeat_fire_attempt a
                        WHERE a.job_name = :job AND a.outcome = 'failed' AND a.retry_at IS NULL AND a.run_id = ''
                          AND a.scheduled_at BETWEEN :from AND :until
                          AND NOT EXISTS (SELECT 1 FROM onebeat_fire f WHERE f.job_name = a.job_name
                                          AND f.scheduled_at = a.scheduled_at AND f.run_id = '')
                          AND NOT EXISTS (SELECT 1 FROM onebeat_fire_attempt later WHERE later.job_name = a.job_name
                                          AND later.scheduled_at = a.scheduled_at AND later.attempt > a.attempt)""")
                .param("job", job).param("from", Timestamp.from(from)).param("until", Timestamp.from(until))
                .query((rs, row) -> outcomes.computeIfAbsent(rs.getTimestamp(1).toInstant(), at -> new ArrayList<>())
                        .add(rs.getString(2)))
                .list();
        return outcomes;
    }
}
