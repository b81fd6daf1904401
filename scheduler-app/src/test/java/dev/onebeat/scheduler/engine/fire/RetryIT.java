package dev.onebeat.scheduler.engine.fire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.onebeat.job.Entity;
import dev.onebeat.job.Jobs;
import dev.onebeat.job.PeriodicJob;
import dev.onebeat.job.RetryPolicy;
import dev.onebeat.job.Schedule;
import dev.onebeat.job.TaskRequest;
import dev.onebeat.scheduler.SchedulerIT;
import dev.onebeat.scheduler.engine.registry.JobRegistry;
import java.sql.ResultSet;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * Failed fires on a running scheduler: each attempt is recorded, the next is armed with the instant and
 * its keys, one attempt at most commits, and the last failure leaves the instant {@code failed}; the retry
 * of a backfill's attempt is a backfill too.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@SchedulerIT
class RetryIT {

    /** One second between attempts at most: the tests wait for retries in real time. */
    static final RetryPolicy QUICK = new RetryPolicy(3, Duration.ofSeconds(1), Duration.ofSeconds(1));
    /** Calls per instant of each job. */
    static final Map<String, AtomicInteger> CALLS = new ConcurrentHashMap<>();
    /** The first instant each job saw: the one whose first attempts fail. */
    static final Map<String, Instant> FIRST = new ConcurrentHashMap<>();
    static final AtomicReference<Integer> TERMINATED_PID = new AtomicReference<>();
    static final CountDownLatch PID_KNOWN = new CountDownLatch(1);
    static final CountDownLatch BACKEND_GONE = new CountDownLatch(1);


    @TestConfiguration
    static class FailingJobs {

        /** Its first instant fails twice, then commits on the third attempt. */
        @Bean
        PeriodicJob flaky() {
            return Jobs.periodic("flaky", Schedule.every(Duration.ofSeconds(2))).retry(QUICK).execute(ctx -> {
                int call = call(ctx.jobName(), ctx.scheduledAt());
                if (ctx.scheduledAt().equals(FIRST.get(ctx.jobName())) && call <= 2) {
                    throw new IllegalStateException("flaky failure " + call);
                }
                ctx.dispatch(TaskRequest.builder("flaky.report").queue("retry").entity(Entity.of("day", 1)).build());
            });
        }

        /** Fails every attempt: two per instant. */
        @Bean
        PeriodicJob doomed() {
            return Jobs.periodic("doomed", Schedule.every(Duration.ofSeconds(2))).retry(QUICK.withAttempts(2))
                    .execute(ctx -> {
                        call(ctx.jobName(), ctx.scheduledAt());
                        throw new UnsupportedOperationException("doomed " + ctx.scheduledAt());
                    });
        }

        /** Its first instant's first attempt loses its database session mid-fire (pg_terminate_backend). */
        @Bean
        PeriodicJob terminated() {
            return Jobs.periodic("terminated", Schedule.every(Duration.ofSeconds(3))).retry(QUICK).execute(ctx -> {
                int call = call(ctx.jobName(), ctx.scheduledAt());
                ctx.dispatch(TaskRequest.builder("terminated.sync").queue("retry").entity(Entity.of("shop", 7)).build());
                if (ctx.scheduledAt().equals(FIRST.get(ctx.jobName())) && call == 1) {
                    try (Statement statement = ctx.connection().createStatement();
                         ResultSet rs = statement.executeQuery("SELECT pg_backend_pid()")) {
                        rs.next();
                        TERMINATED_PID.set(rs.getInt(1));
                    }
                    PID_KNOWN.countDown();
                    BACKEND_GONE.await(60, TimeUnit.SECONDS);
                }
                try (Statement statement = ctx.connection().createStatement()) {
                    statement.execute("SELECT 1");
                }
            });
        }

        /** Hourly, its tasks expiring a minute after their instant; an instant's first attempt fails. */
        @Bean
        PeriodicJob backfilledFlaky() {
            return Jobs.periodic("backfilled-flaky", Schedule.every(Duration.ofHours(1))).retry(QUICK).execute(ctx -> {
                if (call(ctx.jobName(), ctx.scheduledAt()) == 1) {
                    throw new IllegalStateException("backfilled failure");
                }
                ctx.dispatch(TaskRequest.builder("backfilled.report").queue("retry").expires(Duration.ofMinutes(1))
                        .build());
            });
        }

        /** Hourly, and fails every attempt: its instants are fired by the tests, as replicas repeating one would. */
        @Bean
        PeriodicJob repeated() {
            return Jobs.periodic("repeated", Schedule.every(Duration.ofHours(1))).retry(QUICK).execute(ctx -> {
                throw new IllegalStateException("repeated failure");
            });
        }

        private static int call(String job, Instant at) {
            FIRST.putIfAbsent(job, at);
            return CALLS.computeIfAbsent(job + "@" + at, key -> new AtomicInteger()).incrementAndGet();
        }
    }

    @Autowired
    JdbcClient jdbc;
    @Autowired
    FirePath firePath;
    @Autowired
    JobRegistry registry;

    @Test
    void anInstantFailingTwiceCommitsOnItsThirdAttemptWithItsTasksOnce() {
        await().atMost(Duration.ofSeconds(60)).until(() -> FIRST.containsKey("flaky") && committed("flaky", FIRST.get("flaky")));
        Instant instant = FIRST.get("flaky");

        assertThat(attempts("flaky", instant)).containsExactly(
                "1 failed java.lang.IllegalStateException flaky failure 1 retry armed",
                "2 failed java.lang.IllegalStateException flaky failure 2 retry armed");
        assertThat(ledger("flaky", instant)).isEqualTo("attempt 3 retry");
        assertThat(CALLS.get("flaky@" + instant)).hasValue(3);
        assertThat(tasks("flaky", instant)).isEqualTo(1);
    }

    @Test
    void anInstantFailingEveryAttemptIsGivenUpAfterTheLastWithNoCommit() {
        await().atMost(Duration.ofSeconds(60)).until(() -> FIRST.containsKey("doomed")
                && attempts("doomed", FIRST.get("doomed")).size() == 2);
        Instant instant = FIRST.get("doomed");

        assertThat(attempts("doomed", instant)).containsExactly(
                "1 failed java.lang.UnsupportedOperationException doomed " + instant + " retry armed",
                "2 failed java.lang.UnsupportedOperationException doomed " + instant + " given up");
        assertThat(jdbc.sql("SELECT count(*) FROM onebeat_fire WHERE job_name = 'doomed'").query(Long.class).single())
                .isZero();
        assertThat(tasks("doomed", instant)).isZero();
    }

    @Test
    void aFireWhoseDatabaseSessionIsKilledIsRetriedAndCommitsOnce() throws InterruptedException {
        assertThat(PID_KNOWN.await(60, TimeUnit.SECONDS)).isTrue();
        Instant instant = FIRST.get("terminated");
        assertThat(jdbc.sql("SELECT pg_terminate_backend(?)").param(TERMINATED_PID.get()).query(Boolean.class).single())
                .isTrue();
        BACKEND_GONE.countDown();

        await().atMost(Duration.ofSeconds(60)).until(() -> committed("terminated", instant));
        List<String> attempts = attempts("terminated", instant);
        assertThat(attempts).hasSize(1);
        assertThat(attempts.get(0)).startsWith("1 failed ").endsWith(" retry armed");
        assertThat(ledger("terminated", instant)).isEqualTo("attempt 2 retry");
        assertThat(tasks("terminated", instant)).as("the first attempt's task rolled back with it").isEqualTo(1);
    }

    @Test
    void theRetryOfAFailedBackfillAttemptFiresAsABackfillItsExpiryCountedFromItsOwnFire() {
        // minutes in the past, within the job's catch-up window: the failed attempt is retried
        Instant instant = Instant.now().minus(Duration.ofMinutes(5)).truncatedTo(ChronoUnit.SECONDS);
        Instant before = Instant.now();

        // as the backfill runner fires an instant
        FireResult first = firePath.fire(registry.find("backfilled-flaky").orElseThrow().job(),
                FireRequest.of(instant, FireTrigger.BACKFILL, "test"));

        assertThat(first.outcome()).isEqualTo(FireOutcome.FAILED);
        await().atMost(Duration.ofSeconds(30)).until(() -> committed("backfilled-flaky", instant));
        assertThat(ledger("backfilled-flaky", instant)).isEqualTo("attempt 2 backfill");
        String expiresFrom = jdbc.sql("""
                        SELECT payload->'delivery'->>'expires_from' FROM onebeat_task WHERE job_name = ? AND scheduled_at = ?
                        """).params("backfilled-flaky", Timestamp.from(instant)).query(String.class).single();
        assertThat(expiresFrom).as("the expiry counts from the retry, not from the instant five minutes ago").isNotNull();
        assertThat(Instant.parse(expiresFrom)).isAfter(before);
    }

    @Test
    void aRepeatedFireOfAnAttemptWhoseFailureWasRecordedArmsNoSecondChain() {
        PeriodicJob job = registry.find("repeated").orElseThrow().job();
        Instant instant = Instant.now().minus(Duration.ofMinutes(5)).truncatedTo(ChronoUnit.SECONDS);
        assertThat(firePath.fire(job, FireRequest.of(instant, FireTrigger.RECOVERY, "replica-a")).outcome())
                .isEqualTo(FireOutcome.FAILED);
        await().atMost(Duration.ofSeconds(30)).until(() -> attempts("repeated", instant).size() == 3);
        List<String> chain = List.of("1 failed java.lang.IllegalStateException repeated failure retry armed",
                "2 failed java.lang.IllegalStateException repeated failure retry armed",
                "3 failed java.lang.IllegalStateException repeated failure given up");
        assertThat(attempts("repeated", instant)).containsExactlyElementsOf(chain);
        await().atMost(Duration.ofSeconds(10)).until(() -> retriesArmed("repeated", instant) == 0);

        // a Quartz recovery on another replica runs attempt 1 again, after the chain's retry triggers are gone
        assertThat(firePath.fire(job, FireRequest.of(instant, FireTrigger.RECOVERY, "replica-b")).outcome())
                .isEqualTo(FireOutcome.FAILED);

        assertThat(retriesArmed("repeated", instant)).as("attempt 2 armed again").isZero();
        assertThat(attempts("repeated", instant)).as("one failure per attempt, one given up").containsExactlyElementsOf(chain);
    }

    @Test
    void twoReplicasFailingTheLastAttemptAtOnceGiveTheInstantUpOnce() throws Exception {
        PeriodicJob job = registry.find("repeated").orElseThrow().job();
        Instant instant = Instant.now().minus(Duration.ofMinutes(7)).truncatedTo(ChronoUnit.SECONDS);
        CyclicBarrier start = new CyclicBarrier(2);
        ExecutorService replicas = Executors.newFixedThreadPool(2);
        try {
            List<Future<FireResult>> results = new ArrayList<>();
            for (String node : List.of("replica-a", "replica-b")) {
                results.add(replicas.submit(() -> {
                    start.await(10, TimeUnit.SECONDS);
                    return firePath.fire(job, new FireRequest(instant, FireTrigger.RETRY, node, null, 3));
                }));
            }
            for (Future<FireResult> result : results) {
                assertThat(result.get(30, TimeUnit.SECONDS).outcome()).isEqualTo(FireOutcome.FAILED);
            }
        } finally {
            replicas.shutdownNow();
        }

        assertThat(attempts("repeated", instant)).as("the last attempt's failure, recorded once")
                .containsExactly("3 failed java.lang.IllegalStateException repeated failure given up");
    }

    /** @return the retry triggers armed for the job's instant, of any attempt */
    private long retriesArmed(String job, Instant instant) {
        return jdbc.sql("SELECT count(*) FROM qrtz_triggers WHERE trigger_group = 'onebeat-retry' AND trigger_name LIKE ?")
                .param(job + "@" + instant.toEpochMilli() + "#%").query(Long.class).single();
    }

    private boolean committed(String job, Instant instant) {
        return jdbc.sql("SELECT count(*) FROM onebeat_fire WHERE job_name = ? AND scheduled_at = ?")
                .params(job, Timestamp.from(instant)).query(Long.class).single() == 1;
    }

    private List<String> attempts(String job, Instant instant) {
        return jdbc.sql("""
                        SELECT attempt || ' ' || outcome || ' ' || error_class || ' ' || error_message || ' '
                               || CASE WHEN retry_at IS NULL THEN 'given up' ELSE 'retry armed' END
                        FROM onebeat_fire_attempt WHERE job_name = ? AND scheduled_at = ? ORDER BY attempt
                        """)
                .params(job, Timestamp.from(instant)).query(String.class).list();
    }

    private String ledger(String job, Instant instant) {
        return jdbc.sql("SELECT 'attempt ' || attempt || ' ' || trigger_kind FROM onebeat_fire WHERE job_name = ? AND scheduled_at = ?")
                .params(job, Timestamp.from(instant)).query(String.class).single();
    }

    private long tasks(String job, Instant instant) {
        return jdbc.sql("SELECT count(*) FROM onebeat_task WHERE job_name = ? AND scheduled_at = ?")
                .params(job, Timestamp.from(instant)).query(Long.class).single();
    }
}
