package dev.onebeat.scheduler.operate.monitor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import dev.onebeat.scheduler.SchedulerIT;
import dev.onebeat.scheduler.SchedulerTestDatabase;
import dev.onebeat.scheduler.engine.calendar.Calendars;
import dev.onebeat.scheduler.engine.cluster.ClusterState;
import dev.onebeat.scheduler.engine.fire.FireFaults;
import dev.onebeat.scheduler.engine.fire.InstantRecords;
import dev.onebeat.scheduler.engine.registry.JobCatalog;
import dev.onebeat.scheduler.engine.registry.JobRegistry;
import dev.onebeat.scheduler.engine.schedule.FireMoments;
import dev.onebeat.scheduler.operate.monitor.MonitorTable.Event;
import dev.onebeat.scheduler.operate.monitor.MonitorTable.Progress;
import io.micrometer.core.instrument.MeterRegistry;
import java.sql.Connection;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import javax.sql.DataSource;
import net.javacrumbs.shedlock.core.LockProvider;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.ApplicationContext;
import org.springframework.context.event.ContextClosedEvent;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Checks of the missed-fire detector run by hand at chosen times over ledger and attempt rows the test writes: what
 * each check judges, the events it writes once each, the jobs' streaks and thresholds, and what it leaves for later.
 * Quartz does not fire; every job is an interval of one minute, so its instants are the round minutes.
 */
@SchedulerIT(properties = {SchedulerTestDatabase.NO_DEMO, SchedulerTestDatabase.QUARTZ_STOPPED,
        "onebeat.monitor.enabled=false", "onebeat.monitor.max-events-per-check=3",
        "onebeat.jobs[0].name=steady", "onebeat.jobs[0].every=60s", "onebeat.jobs[0].task=t",
        "onebeat.jobs[0].alerts.grace=10s",
        "onebeat.jobs[1].name=flaky", "onebeat.jobs[1].every=60s", "onebeat.jobs[1].task=t",
        "onebeat.jobs[1].alerts.after-failures=2", "onebeat.jobs[1].alerts.resolve-after=2",
        "onebeat.jobs[2].name=quiet", "onebeat.jobs[2].every=60s", "onebeat.jobs[2].task=t",
        "onebeat.jobs[2].alerts.enabled=false",
        "onebeat.jobs[3].name=held", "onebeat.jobs[3].every=60s", "onebeat.jobs[3].task=t",
        "onebeat.jobs[4].name=spread-wide", "onebeat.jobs[4].every=60s", "onebeat.jobs[4].task=t",
        "onebeat.jobs[4].spread=50s", "onebeat.jobs[4].alerts.grace=10s",
        "onebeat.calendars.around-midnight.weekly[0]=MON-SUN 00:00-00:03",
        "onebeat.jobs[5].name=on-calendar", "onebeat.jobs[5].every=60s", "onebeat.jobs[5].task=t",
        "onebeat.jobs[5].alerts.grace=10s", "onebeat.jobs[5].calendars.exclude[0]=around-midnight"})
class MonitorCheckIT {

    /** A round minute well after the jobs were stored; each test works a day of its own after it. */
    private static final Instant T0 = Instant.parse("2027-06-01T00:00:00Z");


    @Autowired
    ApplicationContext context;
    @Autowired
    MonitorCheck check;
    @Autowired
    MonitorTable table;
    @Autowired
    MonitorMetrics metrics;
    @Autowired
    MeterRegistry meters;
    @Autowired
    JdbcClient jdbc;
    @Autowired
    InstantRecords records;
    @Autowired
    LockProvider locks;
    @Autowired
    ClusterState cluster;
    @Autowired
    DataSource dataSource;
    @Autowired
    JobRegistry registry;
    @Autowired
    JobCatalog catalog;
    @Autowired
    TransactionTemplate transactions;
    @Autowired
    MonitorProperties properties;
    @Autowired
    ObjectProvider<JobEventSink> sinks;
    @Autowired
    FireFaults faults;
    @Autowired
    Calendars calendars;

    @BeforeEach
    void cleanUp() {
        jdbc.sql("TRUNCATE onebeat_job_monitor, onebeat_job_event, onebeat_fire, onebeat_fire_attempt, onebeat_fire_fault")
                .update();
        jdbc.sql("UPDATE onebeat_job SET paused = false").update();
    }

    @Test
    void twoInstantsWithNoFireAreMissedOnceEachAndTheNextSuccessRecovers() {
        Instant base = day(1);
        check.run(base.plusSeconds(1), "n1");
        Instant m1 = base.plusSeconds(60);
        Instant m2 = base.plusSeconds(120);
        Instant m3 = base.plusSeconds(180);
        commit("steady", m3, m3.plusMillis(150));

        List<Event> events = check.run(m3.plusSeconds(20), "n1").events();
        MonitorCheck.Result again = check.run(m3.plusSeconds(20), "n1");

        assertThat(of("steady", events)).extracting(Event::instant, Event::kind).containsExactly(
                tuple(m1, "missed"), tuple(m2, "missed"),
                tuple(m3, "recovered"));
        assertThat(of("steady", events)).allSatisfy(event -> assertThat(event.alerted()).isTrue());
        assertThat(of("steady", events).get(0).reason()).isEqualTo("no fire began by " + m1.plusSeconds(10)
                + " (grace PT10S)");
        assertThat(of("steady", again.events())).as("judged once").isEmpty();
        Progress progress = table.progress().get("steady");
        assertThat(progress.checkedUntil()).isEqualTo(m3);
        assertThat(progress.alerting()).isFalse();
        assertThat(progress.lastSuccessAt()).isEqualTo(m3.plusMillis(150 + 30));
        assertThat(progress.nextDeadline()).as("the next instant plus its grace").isEqualTo(m3.plusSeconds(70));
    }

    @Test
    void aSpreadJobsInstantIsAwaitedUntilItsPlannedMomentPlusTheGraceAndJudgedFromThere() {
        Instant base = day(20);
        check.run(base.plusSeconds(1), "n1");
        Instant first = base.plusSeconds(60);
        Instant second = base.plusSeconds(120);
        Duration offset = FireMoments.offset("spread-wide", Duration.ZERO, Duration.ofSeconds(50), first);
        assertThat(offset).as("the same offset at every instant")
                .isEqualTo(FireMoments.offset("spread-wide", Duration.ZERO, Duration.ofSeconds(50), second))
                .as("far enough past the instant to tell the two deadlines apart").isGreaterThan(Duration.ofSeconds(1));
        commit("spread-wide", first, first.plus(offset).plusMillis(120));

        List<Event> beforeDeadline = of("spread-wide", check.run(second.plus(offset).plusSeconds(9), "n1").events());
        List<Event> afterDeadline = of("spread-wide", check.run(second.plus(offset).plusSeconds(11), "n1").events());

        assertThat(beforeDeadline).as("its first instant on time, its second inside the grace of its moment").isEmpty();
        assertThat(afterDeadline).extracting(Event::instant, Event::kind).containsExactly(tuple(second, "missed"));
        assertThat(afterDeadline.get(0).reason()).isEqualTo("no fire began by " + second.plus(offset).plusSeconds(10)
                + " (grace PT10S)");
        assertThat(table.progress().get("spread-wide").nextDeadline()).as("the next planned moment plus the grace")
                .isEqualTo(second.plusSeconds(60).plus(offset).plusSeconds(10));
    }

    @Test
    void anInstantItsCalendarsLeaveOutIsNeitherMissedNorAwaitedAndDoesNotResolveAnAlert() {
        // the calendar holds 00:00 to 00:03 of every day: the instants of 00:00, 00:01 and 00:02 are left out
        Instant midnight = day(24);
        check.run(midnight.minusSeconds(119), "n1");
        Instant missed = midnight.minusSeconds(60);
        Instant firstAfter = midnight.plusSeconds(180);
        commit("on-calendar", firstAfter, firstAfter.plusMillis(100));

        List<Event> events = of("on-calendar", check.run(firstAfter.plusSeconds(20), "n1").events());

        assertThat(events).extracting(Event::instant, Event::kind).as("23:59 missed; 00:00-00:02 neither missed nor a "
                + "success; 00:03 the success that recovers").containsExactly(tuple(missed, "missed"),
                tuple(firstAfter, "recovered"));
        assertThat(table.progress().get("on-calendar").checkedUntil()).as("walked past them").isEqualTo(firstAfter);
    }

    @Test
    void failuresAreAlertedFromTheThresholdAndResolvedAfterTwoSuccesses() {
        Instant base = day(2);
        check.run(base.plusSeconds(1), "n1");
        fail("flaky", base.plusSeconds(60));
        fail("flaky", base.plusSeconds(120));
        commit("flaky", base.plusSeconds(180), base.plusSeconds(180));
        commit("flaky", base.plusSeconds(240), base.plusSeconds(240));

        List<Event> events = of("flaky", check.run(base.plusSeconds(250), "n1").events());

        assertThat(events).extracting(Event::kind, Event::alerted).containsExactly(
                tuple("failed", false), tuple("failed", true),
                tuple("recovered", true));
        assertThat(events.get(0).reason()).isEqualTo("attempt 1 failed: java.lang.IllegalStateException: boom "
                + "(1 of 2 failures in a row before an alert)");
        assertThat(events.get(2).instant()).as("the second success in a row").isEqualTo(base.plusSeconds(240));
    }

    @Test
    void anInstantWhoseRetryIsArmedHoldsTheJobsChecksUntilItSettles() {
        Instant base = day(3);
        check.run(base.plusSeconds(1), "n1");
        Instant retried = base.plusSeconds(60);
        jdbc.sql("""
                        INSERT INTO onebeat_fire_attempt (job_name, scheduled_at, attempt, outcome, error_class, node,
                                                          trigger_kind, attempted_at, retry_at)
                        VALUES ('steady', ?, 1, 'failed', 'java.lang.IllegalStateException', 'n1', 'scheduled', ?, ?)""")
                .params(ts(retried), ts(retried.plusSeconds(1)), ts(retried.plusSeconds(900)))
                .update();

        List<Event> events = of("steady", check.run(base.plusSeconds(300), "n1").events());

        assertThat(events).isEmpty();
        Progress progress = table.progress().get("steady");
        assertThat(progress.checkedUntil()).isEqualTo(base.plusSeconds(1));
        assertThat(progress.nextDeadline()).isEqualTo(retried.plusSeconds(10));

        jdbc.sql("""
                        INSERT INTO onebeat_fire (job_name, scheduled_at, fired_at, node, trigger_kind, outcome, attempt)
                        VALUES ('steady', ?, ?, 'n1', 'retry', 'committed', 2)""")
                .params(ts(retried), ts(retried.plusSeconds(901))).update();
        assertThat(of("steady", check.run(base.plusSeconds(960), "n1").events())).extracting(Event::instant)
                .as("the retried instant committed, the next ones missed").doesNotContain(retried);
        assertThat(table.progress().get("steady").checkedUntil()).isEqualTo(base.plusSeconds(900));
    }

    @Test
    void aPausedJobsInstantsAreNotMissedAndItHasNoDeadline() {
        Instant base = day(4);
        check.run(base.plusSeconds(1), "n1");
        jdbc.sql("UPDATE onebeat_job SET paused = true WHERE name = 'held'").update();

        List<Event> events = of("held", check.run(base.plusSeconds(600), "n1").events());

        assertThat(events).isEmpty();
        assertThat(table.progress().get("held").checkedUntil()).as("the instant due now is pending")
                .isEqualTo(base.plusSeconds(540));
        assertThat(table.progress().get("held").nextDeadline()).isNull();
    }

    @Test
    void aJobWithAlertsOffHasItsMissesRecordedButNotAlerted() {
        Instant base = day(5);
        check.run(base.plusSeconds(1), "n1");

        List<Event> events = of("quiet", check.run(base.plusSeconds(100), "n1").events());

        assertThat(events).singleElement().satisfies(event -> {
            assertThat(event.kind()).isEqualTo("missed");
            assertThat(event.alerted()).isFalse();
        });
    }

    @Test
    void missesPastTheLimitOfOneCheckBecomeOneEventSayingHowManyItStandsFor() {
        Instant base = day(6);
        check.run(base.plusSeconds(1), "n1");

        List<Event> events = of("held", check.run(base.plusSeconds(7 * 60 + 50), "n1").events());

        assertThat(events).extracting(Event::instant).containsExactly(base.plusSeconds(60), base.plusSeconds(120),
                base.plusSeconds(180), base.plusSeconds(420));
        assertThat(events.get(3).reason()).isEqualTo("missed, with the 4 missed instants from " + base.plusSeconds(240)
                + " to this one, reported as one event");
    }

    @Test
    void theGaugesSayEachJobsLastSuccessAndNextDeadline() {
        Instant base = day(7);
        check.run(base.plusSeconds(1), "n1");
        commit("steady", base.plusSeconds(60), base.plusSeconds(60));
        check.run(base.plusSeconds(61), "n1");
        jdbc.sql("UPDATE onebeat_job SET paused = true WHERE name = 'held'").update();
        check.run(base.plusSeconds(62), "n1");

        metrics.progress(table.progress());

        assertThat(meters.get("onebeat.job.last.success.timestamp").tag("job", "steady").gauge().value())
                .isEqualTo(base.plusSeconds(60).plusMillis(30).toEpochMilli() / 1000.0);
        assertThat(meters.get("onebeat.job.deadline.timestamp").tag("job", "steady").gauge().value())
                .isEqualTo(base.plusSeconds(130).toEpochMilli() / 1000.0);
        assertThat(meters.get("onebeat.job.deadline.timestamp").tag("job", "held").gauge().value())
                .isEqualTo(Double.POSITIVE_INFINITY);
        assertThat(meters.get("onebeat.job.missed").tag("job", "quiet").counter().count()).isPositive();
    }

    @Test
    void aReplicaWhoseClockRunsAnHourAheadJudgesNoInstantPastTheDatabasesNow() {
        Instant databaseNow = records.databaseNow();
        // a member of its schedule, and judged, since five minutes ago
        jdbc.sql("UPDATE onebeat_job SET member_since = ? WHERE name = 'held'")
                .param(Timestamp.from(databaseNow.minusSeconds(300))).update();
        jdbc.sql("""
                        INSERT INTO onebeat_job_monitor (job_name, checked_until, alerting, failures_in_row, successes_in_row,
                                                         updated_at)
                        VALUES ('held', ?, false, 0, 0, now())""")
                .param(Timestamp.from(databaseNow.minusSeconds(300))).update();
        Clock ahead = Clock.offset(Clock.systemUTC(), Duration.ofHours(1));

        List<Event> events = new MissedFireDetector(check, table, records, metrics, locks, cluster, ahead,
                MonitorProperties.DEFAULTS).checkIfFree().orElseThrow().events();

        assertThat(of("held", events)).isNotEmpty()
                .allSatisfy(event -> assertThat(event.instant()).isBefore(databaseNow.plusSeconds(60)));
        assertThat(table.progress().get("held").checkedUntil()).isBefore(databaseNow.plusSeconds(60));
    }

    /**
     * A replica writes its fault periods once the database takes them, so the period that explains a miss may reach
     * the table after the miss's grace: while a fault is near (here another replica's period that ended 5 s before
     * the instant's window), a miss no period explains waits, and takes its reason from the period written late.
     */
    @Test
    void aMissNearAFaultWaitsForThePeriodThatExplainsItWrittenLate() {
        Instant base = day(8);
        check.run(base.plusSeconds(1), "n1");
        Instant m1 = base.plusSeconds(60);
        fault("replica-2", "quartz", m1.minusSeconds(40), m1.minusSeconds(6));

        List<Event> held = check.run(m1.plusSeconds(11), "n1").events();
        fault("replica-3", "fire", m1.minusMillis(500), m1.plusSeconds(30));
        List<Event> explained = check.run(m1.plusSeconds(13), "n1").events();

        assertThat(of("steady", held)).as("past its grace, a fault near, no period explaining it").isEmpty();
        assertThat(of("steady", explained)).singleElement().satisfies(event -> {
            assertThat(event.instant()).isEqualTo(m1);
            assertThat(event.kind()).isEqualTo("missed");
            assertThat(event.reason()).startsWith("no fire began by " + m1.plusSeconds(10) + " (grace PT10S): "
                    + InstantJudge.UNREACHABLE + ": replica-3 fire from ");
        });
    }

    /** The wait for a period that explains a miss ends {@link MonitorCheck#FAULT_SETTLE} after the grace. */
    @Test
    void aMissNearAFaultThatNoPeriodExplainsIsJudgedWithoutAReasonOnceTheWaitEnds() {
        Instant base = day(9);
        check.run(base.plusSeconds(1), "n1");
        Instant m1 = base.plusSeconds(60);
        Instant graceEnds = m1.plusSeconds(10);
        fault("replica-2", "members", m1.minusSeconds(40), m1.minusSeconds(6));

        List<Event> waiting = check.run(graceEnds.plus(MonitorCheck.FAULT_SETTLE).minusMillis(1), "n1").events();
        List<Event> judged = check.run(graceEnds.plus(MonitorCheck.FAULT_SETTLE), "n1").events();

        assertThat(of("steady", waiting)).isEmpty();
        assertThat(of("steady", judged)).extracting(Event::instant, Event::kind, Event::reason)
                .containsExactly(tuple(m1, "missed", "no fire began by " + graceEnds + " (grace PT10S)"));
        assertThat(table.progress().get("steady").checkedUntil()).isEqualTo(m1);
    }

    /**
     * A shutdown waits for the check under way to end: cut off by the pool's close, it would leave its lock held for
     * five minutes, and no replica would check meanwhile. Here the check's write waits for a row another transaction
     * is inserting, until the server's lock_timeout (3 s) fails it.
     */
    @Test
    void aShutdownWaitsForTheCheckUnderWayWhichReleasesItsLock() throws Exception {
        MonitorProperties often = new MonitorProperties(true, Duration.ofMillis(200), Duration.ofSeconds(10), 1000, 10,
                20_000, 10_000);
        // the context's check is left running: the detector's stop ends its own
        MonitorCheck own = ownCheck();
        MissedFireDetector detector = new MissedFireDetector(own, table, records, metrics, locks, cluster,
                Clock.systemUTC(), often);
        // a lock an earlier test's check left held for its minimum time
        jdbc.sql("DELETE FROM shedlock WHERE name = ?").param(MissedFireDetector.LOCK).update();
        try (Connection other = dataSource.getConnection()) {
            other.setAutoCommit(false);
            try (Statement statement = other.createStatement()) {
                statement.execute("""
                        INSERT INTO onebeat_job_monitor (job_name, checked_until, alerting, failures_in_row,
                                                         successes_in_row, updated_at)
                        VALUES ('flaky', now(), false, 0, 0, now())""");
            }
            detector.startChecks();
            awaitCheckWaitingForTheRow();

            detector.destroy();

            assertThat(jdbc.sql("""
                            SELECT count(*) FROM shedlock
                            WHERE name = ? AND lock_until > timezone('utc', CURRENT_TIMESTAMP) + interval '1 second'""")
                    .param(MissedFireDetector.LOCK).query(Integer.class).single())
                    .as("the check's lock, released by the check before the shutdown went on").isZero();
            assertThatThrownBy(() -> own.run(Instant.now(), "n1")).as("its checks end at their first checkpoint")
                    .isInstanceOf(MonitorCheck.Stopped.class);
            other.rollback();
        } finally {
            detector.destroy();
            jdbc.sql("DELETE FROM shedlock WHERE name = ?").param(MissedFireDetector.LOCK).update();
        }
    }

    @Test
    void theShutdownsBeginningStopsTheChecksBeforeAnythingWaitsForThem() throws Exception {
        MonitorCheck own = ownCheck();
        MissedFireDetector detector = new MissedFireDetector(own, table, records, metrics, locks, cluster,
                Clock.systemUTC(), new MonitorProperties(true, Duration.ofMillis(200), Duration.ofSeconds(10), 1000,
                10, 20_000, 10_000));
        detector.setApplicationContext(context);
        try {
            detector.shutdownBegins(new ContextClosedEvent(context));

            assertThatThrownBy(() -> own.run(Instant.now(), "n1")).as("its checks end at their first checkpoint")
                    .isInstanceOf(MonitorCheck.Stopped.class);
            // a shutdown that began while the replica was starting: its ready event starts nothing and fails nothing
            assertThatCode(detector::startChecks).doesNotThrowAnyException();
        } finally {
            detector.destroy();
        }
    }

    @Test
    void aCheckStoppedByTheShutdownWritesNothing() {
        MonitorCheck stopped = ownCheck();
        stopped.stop();

        assertThatThrownBy(() -> stopped.run(day(1).plusSeconds(600), "n1")).isInstanceOf(MonitorCheck.Stopped.class);
        assertThat(table.progress()).isEmpty();
        assertThat(jdbc.sql("SELECT count(*) FROM onebeat_job_event").query(Integer.class).single()).isZero();
        assertThat(check.run(day(1).plusSeconds(1), "n1").jobs()).as("the context's own check runs on").isPositive();
    }

    private MonitorCheck ownCheck() {
        return new MonitorCheck(registry, catalog, records, table, transactions, properties, sinks, metrics, faults,
                calendars);
    }

    private void awaitCheckWaitingForTheRow() throws InterruptedException {
        for (int attempt = 0; attempt < 500; attempt++) {
            if (jdbc.sql("""
                            SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()
                              AND wait_event_type = 'Lock' AND query LIKE '%INSERT INTO onebeat_job_monitor%'""")
                    .query(Integer.class).single() == 1) {
                return;
            }
            Thread.sleep(10);
        }
        throw new AssertionError("no check waited for the row");
    }

    private void fault(String node, String stage, Instant since, Instant until) {
        jdbc.sql("""
                        INSERT INTO onebeat_fire_fault (node, stage, since, until, failures, error)
                        VALUES (?, ?, ?, ?, 3, 'org.postgresql.util.PSQLException: terminating connection')""")
                .params(node, stage, ts(since), ts(until)).update();
    }

    private static Instant day(int n) {
        return T0.plus(Duration.ofDays(n));
    }

    private static List<Event> of(String job, List<Event> events) {
        return events.stream().filter(event -> event.job().equals(job)).toList();
    }

    private void commit(String job, Instant instant, Instant firedAt) {
        jdbc.sql("""
                        INSERT INTO onebeat_fire (job_name, scheduled_at, fired_at, node, trigger_kind, outcome, duration_ms)
                        VALUES (?, ?, ?, 'n1', 'scheduled', 'committed', 30)""")
                .params(job, ts(instant), ts(firedAt)).update();
    }

    private void fail(String job, Instant instant) {
        jdbc.sql("""
                        INSERT INTO onebeat_fire_attempt (job_name, scheduled_at, attempt, outcome, error_class,
                                                          error_message, node, trigger_kind, attempted_at)
                        VALUES (?, ?, 1, 'failed', 'java.lang.IllegalStateException', 'boom', 'n1', 'scheduled', ?)""")
                .params(job, ts(instant), ts(instant.plusSeconds(1))).update();
    }

    private static Timestamp ts(Instant instant) {
        return Timestamp.from(instant);
    }
}
