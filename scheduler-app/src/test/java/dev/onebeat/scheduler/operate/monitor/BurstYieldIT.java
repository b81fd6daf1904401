package dev.onebeat.scheduler.operate.monitor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.onebeat.scheduler.SchedulerIT;
import dev.onebeat.scheduler.SchedulerTestDatabase;
import dev.onebeat.scheduler.engine.cluster.ClusterState;
import dev.onebeat.scheduler.engine.fire.InstantRecords;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import net.javacrumbs.shedlock.core.LockProvider;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * A check of the missed-fire detector waits while fires are committed in a burst (a large instant's batches), and
 * runs once they have: here a thread of the test commits 5,000 ledger rows a statement every 0.2 s, as a replica's
 * batches do, ten times {@link MissedFireDetector#BURST_FIRES_PER_SECOND}. A burst that does not end holds the check back for one
 * check interval at most, and a quiet ledger not at all beyond one look.
 */
@SchedulerIT(properties = {SchedulerTestDatabase.NO_DEMO, SchedulerTestDatabase.QUARTZ_STOPPED,
        "onebeat.monitor.enabled=false"})
class BurstYieldIT {

    private static final String PREFIX = "burst-yield-";
    private static final int ROWS = 5_000;
    private static final Duration PAUSE = Duration.ofMillis(200);
    /** Granted at once: which replica checks is not what is tested here, and other classes' checks hold the lock. */
    private static final LockProvider ALWAYS = configuration -> Optional.of(() -> { });

    @Autowired
    MonitorCheck check;
    @Autowired
    MonitorTable table;
    @Autowired
    MonitorMetrics metrics;
    @Autowired
    JdbcClient jdbc;
    @Autowired
    InstantRecords records;
    @Autowired
    ClusterState cluster;

    private final ExecutorService writers = Executors.newSingleThreadExecutor();
    private final List<Burst> bursts = new ArrayList<>();

    @AfterEach
    void removeTheBursts() throws Exception {
        for (Burst burst : bursts) {
            burst.stop.set(true);
            burst.running.get(1, TimeUnit.MINUTES);
        }
        writers.shutdownNow();
        jdbc.sql("DELETE FROM onebeat_fire WHERE job_name LIKE '" + PREFIX + "%'").update();
    }

    @Test
    void aCheckWaitsForABurstOfFiresToCommitAndThenRuns() throws Exception {
        Burst burst = new Burst(Duration.ofSeconds(3));
        await().atMost(Duration.ofSeconds(30)).until(() -> burst.statements.get() >= 1);

        Optional<MonitorCheck.Result> result = detector(MonitorProperties.DEFAULTS).checkIfFree();
        long returned = System.nanoTime();

        assertThat(result).as("the check ran").isPresent();
        burst.running.get();
        assertThat(returned - burst.lastCommit.get()).as("the check returned after the burst's last commit, "
                + "not while it went on (%d statements)", burst.statements.get()).isPositive();
    }

    @Test
    void aBurstThatDoesNotEndHoldsTheCheckBackForOneIntervalAtMost() throws Exception {
        Burst burst = new Burst(Duration.ofMinutes(2));
        await().atMost(Duration.ofSeconds(30)).until(() -> burst.statements.get() >= 1);

        int probes = detector(new MonitorProperties(true, Duration.ofSeconds(2), Duration.ofSeconds(10), 1000, 10,
                20_000, 10_000)).yieldToBursts();
        int committedBefore = burst.statements.get();

        assertThat(probes).as("looks at the ledger while the burst goes on").isGreaterThan(1);
        await().atMost(Duration.ofSeconds(30)).until(() -> burst.statements.get() > committedBefore);
        assertThat(burst.running.isDone()).as("the burst still going after the check stopped waiting").isFalse();
        burst.stop.set(true);
        burst.running.get();
    }

    @Test
    void aQuietLedgerHoldsTheCheckForOneLookOnly() {
        assertThat(detector(MonitorProperties.DEFAULTS).yieldToBursts()).isEqualTo(1);
    }

    private MissedFireDetector detector(MonitorProperties properties) {
        return new MissedFireDetector(check, table, records, metrics, ALWAYS, cluster, Clock.systemUTC(), properties);
    }

    /** Ledger rows committed {@link #ROWS} a statement every {@link #PAUSE}, for {@code lasting}. */
    private final class Burst {

        final AtomicInteger statements = new AtomicInteger();
        final AtomicLong lastCommit = new AtomicLong();
        final AtomicBoolean stop = new AtomicBoolean();
        final Future<?> running;

        Burst(Duration lasting) {
            bursts.add(this);
            String names = PREFIX + bursts.size() + "-";
            long until = System.nanoTime() + lasting.toNanos();
            Timestamp instant = Timestamp.from(Instant.parse("2027-01-01T00:00:00Z"));
            running = writers.submit(() -> {
                while (!stop.get() && System.nanoTime() - until < 0) {
                    jdbc.sql("""
                                    INSERT INTO onebeat_fire (job_name, scheduled_at, fired_at, node, trigger_kind, outcome,
                                                              duration_ms)
                                    SELECT ? || (? + g), ?, now(), 'n1', 'scheduled', 'committed', 1
                                    FROM generate_series(1, ?) AS g""")
                            .params(names, statements.get() * ROWS, instant, ROWS).update();
                    lastCommit.set(System.nanoTime());
                    statements.incrementAndGet();
                    // some 20,000 fires a second, ten times the rate a check waits for, each look finding a statement
                    Thread.sleep(PAUSE.toMillis());
                }
                return null;
            });
        }
    }
}
