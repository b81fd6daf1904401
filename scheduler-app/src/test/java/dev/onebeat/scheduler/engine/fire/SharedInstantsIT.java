package dev.onebeat.scheduler.engine.fire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.onebeat.scheduler.SchedulerIT;
import dev.onebeat.scheduler.SchedulerTestDatabase;
import dev.onebeat.scheduler.engine.fire.SliceTable.SliceClaim;
import dev.onebeat.scheduler.engine.registry.JobRegistry;
import dev.onebeat.scheduler.engine.registry.ScheduleKeys;
import io.micrometer.core.instrument.MeterRegistry;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.quartz.Scheduler;
import org.quartz.SchedulerException;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * A large instant shared out in slices ({@link SharedInstants}), on one replica and the real database: each job fires
 * once and no slice is left; a slice another session holds is waited for and fired here the moment its holder's
 * session is terminated; a claim that sits idle past its lease is ended by the server and its slice fired by the
 * acquirer, the late claim's delete failing; and a slice nobody is firing (its acquirer died) is found and fired by
 * the replica's helper; a slice that takes longer than its lease (1.5 s here) to fire keeps its claim, kept alive
 * meanwhile; and a replica stopped and started again shares its instants again.
 * Several replicas sharing one instant, and a helper killed with SIGKILL, are {@code SharedInstantReplicasIT}'s.
 */
@SchedulerIT(properties = {SchedulerTestDatabase.NO_DEMO, "onebeat.fire.share.min-jobs=6",
        "onebeat.fire.share.slice-jobs=3", "onebeat.fire.share.poll-interval=50ms", "onebeat.fire.share.lease=1500ms",
        "onebeat.jobs[0].name=share-00", "onebeat.jobs[0].every=1h", "onebeat.jobs[0].task=t",
        "onebeat.jobs[1].name=share-01", "onebeat.jobs[1].every=1h", "onebeat.jobs[1].task=t",
        "onebeat.jobs[2].name=share-02", "onebeat.jobs[2].every=1h", "onebeat.jobs[2].task=t",
        "onebeat.jobs[3].name=share-03", "onebeat.jobs[3].every=1h", "onebeat.jobs[3].task=t",
        "onebeat.jobs[4].name=share-04", "onebeat.jobs[4].every=1h", "onebeat.jobs[4].task=t",
        "onebeat.jobs[5].name=share-05", "onebeat.jobs[5].every=1h", "onebeat.jobs[5].task=t",
        "onebeat.jobs[6].name=share-06", "onebeat.jobs[6].every=1h", "onebeat.jobs[6].task=t",
        "onebeat.jobs[7].name=share-07", "onebeat.jobs[7].every=1h", "onebeat.jobs[7].task=t",
        "onebeat.jobs[8].name=share-08", "onebeat.jobs[8].every=1h", "onebeat.jobs[8].task=t",
        "onebeat.jobs[9].name=share-09", "onebeat.jobs[9].every=1h", "onebeat.jobs[9].task=t",
        "onebeat.jobs[10].name=share-10", "onebeat.jobs[10].every=1h", "onebeat.jobs[10].task=t",
        "onebeat.jobs[11].name=share-11", "onebeat.jobs[11].every=1h", "onebeat.jobs[11].task=t",
})
class SharedInstantsIT {

    private static final int JOBS = 12;
    private static final Set<Instant> USED_INSTANTS = ConcurrentHashMap.newKeySet();

    @Autowired
    ScheduleFire scheduleFire;
    @Autowired
    SliceTable slices;
    @Autowired
    JobRegistry registry;
    @Autowired
    JdbcClient jdbc;
    @Autowired
    Scheduler scheduler;
    @Autowired
    MeterRegistry meters;
    @Autowired
    ConfigurableApplicationContext context;
    @Value("${spring.datasource.url}")
    String url;
    @Value("${spring.datasource.username}")
    String username;
    @Value("${spring.datasource.password}")
    String password;

    @AfterEach
    void quartzRuns() throws SchedulerException {
        scheduler.start();
    }

    @BeforeEach
    void membersSinceLongBefore() throws SchedulerException {
        scheduler.start();
        jdbc.sql("UPDATE onebeat_job SET member_since = TIMESTAMPTZ '2020-01-01 00:00:00Z'").update();
        jdbc.sql("""
                CREATE TABLE IF NOT EXISTS slice_written (scheduled_at timestamptz, slice int, jobs int)""").update();
        jdbc.sql("""
                CREATE OR REPLACE FUNCTION note_slice() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN INSERT INTO slice_written VALUES (NEW.scheduled_at, NEW.slice, cardinality(NEW.jobs));
                RETURN NULL; END $$""").update();
        jdbc.sql("DROP TRIGGER IF EXISTS note_slice ON onebeat_fire_slice").update();
        jdbc.sql("""
                CREATE TRIGGER note_slice AFTER INSERT ON onebeat_fire_slice FOR EACH ROW
                EXECUTE FUNCTION note_slice()""").update();
    }

    @Test
    void anInstantOfManyJobsFiresInSlicesEachJobOnceAndLeavesNoSlice() {
        Instant instant = instant();

        ScheduleFire.Outcome outcome = scheduleFire.fire(scheduleKey(), FireRequest.of(instant, FireTrigger.SCHEDULED,
                "test-node"));

        assertThat(outcome.members()).isEqualTo(JOBS);
        assertThat(jdbc.sql("SELECT jobs FROM slice_written WHERE scheduled_at = ? ORDER BY slice")
                .param(Timestamp.from(instant)).query(Integer.class).list()).as("jobs per slice written")
                .containsExactly(3, 3, 3, 3);
        assertThat(firesPerJob(instant)).as("fires per job").isEqualTo(everyJobOnce());
        assertThat(slicesLeft(instant)).as("slices left").isZero();
    }

    @Test
    void aReplicaStoppedAndStartedAgainSharesItsInstantsAgain() {
        // a stop winds sharing down (its instants left to the others); a start winds it up again: here a pause and a
        // restart, as Spring's test cache does to a context it holds between classes
        context.pause();
        context.restart();
        Instant instant = instant();

        scheduleFire.fire(scheduleKey(), FireRequest.of(instant, FireTrigger.SCHEDULED, "test-node"));

        assertThat(jdbc.sql("SELECT jobs FROM slice_written WHERE scheduled_at = ? ORDER BY slice")
                .param(Timestamp.from(instant)).query(Integer.class).list()).as("jobs per slice written")
                .containsExactly(3, 3, 3, 3);
        assertThat(firesPerJob(instant)).as("fires per job").isEqualTo(everyJobOnce());
    }

    @Test
    void aSliceAnotherReplicaHoldsIsWaitedForAndFiredHereOnceItsSessionIsTerminated() throws Exception {
        // this replica's helper would fire the slices before the test holds one: it helps only while Quartz runs
        scheduler.standby();
        Instant instant = instant();
        // the slices of an instant whose first acquirer died: this fire is its recovery, and joins them
        slices.create(scheduleKey(), instant, FireTrigger.SCHEDULED, "replica-gone", List.of(
                names(0, 3), names(3, 6), names(6, 9), names(9, 12)));
        // a session outside the pool: another replica's
        try (Connection holder = DriverManager.getConnection(url, username, password)) {
            holder.setAutoCommit(false);
            int holderPid = hold(holder, instant, 2);

            CompletableFuture<ScheduleFire.Outcome> firing = CompletableFuture.supplyAsync(() -> scheduleFire.fire(
                    scheduleKey(), FireRequest.of(instant, FireTrigger.RECOVERY, "test-node")));
            // a fire that ended (or threw) before the 9 jobs is reported as such, with what the database shows
            try {
                await().atMost(Duration.ofSeconds(30)).until(() -> firesPerJob(instant).size() == 9 || firing.isDone());
            } catch (ConditionTimeoutException e) {
                throw new AssertionError("9 jobs not fired in 30 s; " + state(instant, firing), e);
            }
            assertThat(firesPerJob(instant)).as("fired while slice 2 is held; %s", state(instant, firing)).hasSize(9);
            Thread.sleep(500);
            assertThat(firing).as("waits for the slice another replica holds").isNotDone();
            assertThat(firesPerJob(instant)).as("fired meanwhile").doesNotContainKeys(names(6, 9).toArray(String[]::new));

            terminate(holderPid);
            firing.get(30, TimeUnit.SECONDS);
        }
        assertThat(firesPerJob(instant)).as("fires per job").isEqualTo(everyJobOnce());
        assertThat(slicesLeft(instant)).as("slices left").isZero();
        assertThat(jdbc.sql("SELECT count(*) FROM slice_written WHERE scheduled_at = ?").param(Timestamp.from(instant))
                .query(Long.class).single()).as("slices written again by the recovery").isEqualTo(4);
    }

    @Test
    void aClaimIdlePastItsLeaseIsEndedByTheServerAndItsSliceFiredByTheAcquirer() throws Exception {
        scheduler.standby();
        Instant instant = instant();
        slices.create(scheduleKey(), instant, FireTrigger.SCHEDULED, "replica-gone", List.of(
                names(0, 6), names(6, 12)));
        // a replica stalled with a slice claimed: the claim's transaction sits idle past its lease of 1 s
        try (SliceClaim stalled = slices.claimNext(Duration.ofSeconds(1), scheduleKey(), instant)) {
            assertThat(stalled.slices()).hasSize(1);
            ScheduleFire.Outcome outcome = scheduleFire.fire(scheduleKey(), FireRequest.of(instant,
                    FireTrigger.RECOVERY, "test-node"));
            assertThat(outcome.members()).isEqualTo(JOBS);
            assertThat(firesPerJob(instant)).as("fires per job").isEqualTo(everyJobOnce());
            assertThatThrownBy(stalled::done).as("the stalled claim's late delete")
                    .isInstanceOf(SQLException.class);
        }
        assertThat(slicesLeft(instant)).as("slices left").isZero();
    }

    @Test
    void aSliceFiringLongerThanItsLeaseKeepsItsClaimAlive() throws Exception {
        Instant instant = instant();
        // one job of the instant takes 4 s to insert its ledger row, more than twice the lease of 1.5 s (and less than
        // the pool's socket timeout of 5 s, which would end the batch's own statement)
        jdbc.sql("CREATE TABLE IF NOT EXISTS slow_instant (at timestamptz)").update();
        jdbc.sql("INSERT INTO slow_instant VALUES (?)").param(Timestamp.from(instant)).update();
        jdbc.sql("""
                CREATE OR REPLACE FUNCTION slow_fire() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN IF NEW.job_name = 'share-00' AND NEW.scheduled_at IN (SELECT at FROM slow_instant)
                THEN PERFORM pg_sleep(4); END IF; RETURN NEW; END $$""").update();
        jdbc.sql("DROP TRIGGER IF EXISTS slow_fire ON onebeat_fire").update();
        jdbc.sql("CREATE TRIGGER slow_fire BEFORE INSERT ON onebeat_fire FOR EACH ROW EXECUTE FUNCTION slow_fire()")
                .update();
        double duplicatesBefore = duplicates();

        // a claim lost at every attempt would fire the slice again and again, each time past its lease: bounded here
        CompletableFuture.supplyAsync(() -> scheduleFire.fire(scheduleKey(), FireRequest.of(instant,
                FireTrigger.SCHEDULED, "test-node"))).get(60, TimeUnit.SECONDS);

        assertThat(firesPerJob(instant)).as("fires per job").isEqualTo(everyJobOnce());
        assertThat(duplicates() - duplicatesBefore).as("fires refused as duplicates: a claim lost and fired again")
                .isZero();
        assertThat(slicesLeft(instant)).as("slices left").isZero();
    }

    private double duplicates() {
        return meters.find("onebeat.fires").tag("outcome", "duplicate").counters().stream()
                .filter(counter -> counter.getId().getTag("job").startsWith("share-"))
                .mapToDouble(counter -> counter.count()).sum();
    }

    @Test
    void aSliceNoReplicaFiresIsFoundAndFiredByTheHelper() {
        Instant instant = instant();
        // an acquirer wrote its slices and died before its recovery came: the helper of a live replica fires them
        slices.create(scheduleKey(), instant, FireTrigger.SCHEDULED, "replica-gone", List.of(names(0, 6), names(6, 12)));

        await().atMost(Duration.ofSeconds(30)).until(() -> slicesLeft(instant) == 0 && firesPerJob(instant).size() == JOBS);

        assertThat(firesPerJob(instant)).as("fires per job").isEqualTo(everyJobOnce());
        assertThat(jdbc.sql("SELECT DISTINCT trigger_kind FROM onebeat_fire WHERE scheduled_at = ?")
                .param(Timestamp.from(instant)).query(String.class).list()).as("as the acquirer's kind of fire")
                .containsExactly("scheduled");
    }

    /**
     * An instant of its own for each test, never on the hour the jobs are due at. Drawn again if an earlier test of the
     * class had it: tests run within one second drew from the same 998 milliseconds, and one that met an earlier
     * test's instant found its jobs fired already (CI, 6 December).
     */
    private static Instant instant() {
        Instant drawn;
        do {
            drawn = Instant.now().truncatedTo(ChronoUnit.SECONDS).minusSeconds(5)
                    .plusMillis(ThreadLocalRandom.current().nextInt(1, 999));
        } while (!USED_INSTANTS.add(drawn));
        return drawn;
    }

    private int hold(Connection holder, Instant instant, int slice) throws SQLException {
        try (Statement statement = holder.createStatement()) {
            var locked = statement.executeQuery("SELECT 1 FROM onebeat_fire_slice WHERE scheduled_at = '" + instant
                    + "' AND slice = " + slice + " FOR UPDATE");
            assertThat(locked.next()).as("slice %d held by the other session", slice).isTrue();
            var rs = statement.executeQuery("SELECT pg_backend_pid()");
            rs.next();
            return rs.getInt(1);
        }
    }

    /** @return what a failed wait is read by: fires so far, slices left, sessions at work, how the fire ended */
    private String state(Instant instant, CompletableFuture<ScheduleFire.Outcome> firing) {
        String ended = !firing.isDone() ? "still firing" : firing.handle((outcome, error) -> error == null
                ? "ended with " + outcome : "threw " + error).join();
        return "fires " + new TreeMap<>(firesPerJob(instant)) + "; slices left " + jdbc.sql(
                "SELECT slice FROM onebeat_fire_slice WHERE scheduled_at = ? ORDER BY slice")
                .param(Timestamp.from(instant)).query(Integer.class).list() + "; sessions " + jdbc.sql("""
                        SELECT pid || ' ' || state || coalesce(' waiting ' || wait_event_type || '/' || wait_event, '')
                               || ': ' || left(query, 120)
                        FROM pg_stat_activity
                        WHERE datname = current_database() AND pid <> pg_backend_pid() AND state <> 'idle'""")
                .query(String.class).list() + "; fire " + ended;
    }

    private void terminate(int pid) {
        assertThat(jdbc.sql("SELECT pg_terminate_backend(?)").param(pid).query(Boolean.class).single()).isTrue();
    }


    private String scheduleKey() {
        return ScheduleKeys.key(registry.find("share-00").orElseThrow().job());
    }

    private static List<String> names(int from, int to) {
        return IntStream.range(from, to).mapToObj(i -> String.format("share-%02d", i)).toList();
    }

    private static Map<String, Long> everyJobOnce() {
        return names(0, JOBS).stream().collect(Collectors.toMap(name -> name, name -> 1L));
    }

    private Map<String, Long> firesPerJob(Instant instant) {
        return jdbc.sql("SELECT job_name, count(*) FROM onebeat_fire WHERE scheduled_at = ? GROUP BY job_name")
                .param(Timestamp.from(instant))
                .query((rs, row) -> Map.entry(rs.getString(1), rs.getLong(2))).list().stream()
                .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
    }

    private long slicesLeft(Instant instant) {
        return jdbc.sql("SELECT count(*) FROM onebeat_fire_slice WHERE scheduled_at = ?").param(Timestamp.from(instant))
                .query(Long.class).single();
    }
}
