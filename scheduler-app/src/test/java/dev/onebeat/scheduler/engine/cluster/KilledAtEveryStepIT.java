package dev.onebeat.scheduler.engine.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.onebeat.scheduler.FaultInjection;
import dev.onebeat.scheduler.engine.quartz.TimetableTrigger;
import dev.onebeat.testsupport.PostgresExtension;
import dev.onebeat.testsupport.TestDatabase;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * A schedule never stops by itself: a replica is SIGKILLed at each step of a fire, and the instant it
 * was firing, and the instants after it, must each fire once on a survivor started after it. The
 * replica stops at the step for good ({@link PausePoint} in the JVM, {@code pg_sleep} in a database
 * trigger limited to its sessions), the test kills it there and, for the steps inside a database
 * transaction, ends its sessions as the server would once it saw the connection gone.
 */
@FaultInjection
@ExtendWith(PostgresExtension.class)
class KilledAtEveryStepIT {

    private static final int JOBS = 20;
    private static final Duration EVERY = Duration.ofSeconds(3);
    private static final String VICTIM = "victim";

    /** Where the victim stops. */
    enum Step {
        /** In Quartz's transaction that records the fire and stores the trigger's next fire time. */
        RE_ARM("re-arm", null),
        /** The fire recorded, the schedule's job about to run. */
        BEFORE_FIRE("before-fire", null),
        /** In the batch's transaction: ledger rows claimed, jobs run, tasks written, not committed. */
        MID_BATCH(null, "CREATE TRIGGER pause_victim AFTER INSERT ON onebeat_task FOR EACH STATEMENT"
                + " EXECUTE FUNCTION pause_victim()"),
        /** In the batch's commit (a deferred constraint trigger runs as the transaction commits). */
        AT_COMMIT(null, "CREATE CONSTRAINT TRIGGER pause_victim AFTER INSERT ON onebeat_fire"
                + " DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION pause_victim()"),
        /** The batch committed, the schedule's fire not yet ended in Quartz. */
        AFTER_COMMIT("after-commit", null),
        /** Handing the fire of a job it does not register back to the cluster (a rolling deploy). */
        HAND_BACK(null, "CREATE TRIGGER pause_victim AFTER INSERT ON qrtz_triggers FOR EACH ROW"
                + " WHEN (NEW.trigger_group = 'onebeat-handback') EXECUTE FUNCTION pause_victim()");

        final String pausePoint;
        final String databaseTrigger;

        Step(String pausePoint, String databaseTrigger) {
            this.pausePoint = pausePoint;
            this.databaseTrigger = databaseTrigger;
        }
    }

    @ParameterizedTest
    @EnumSource(Step.class)
    void killedAtAnyStepOfAFireItsInstantAndTheNextFireOnceOnASurvivor(Step step, TestDatabase database)
            throws Exception {
        JdbcClient jdbc = JdbcClient.create(database.dataSource());
        jdbc.sql("DROP SCHEMA public CASCADE; CREATE SCHEMA public").update();
        BurstJobs jobs = new BurstJobs(database.dataSource(), JOBS);
        // every missed instant fires: on a loaded machine the survivor can take longer to start than Quartz's misfire
        // threshold, and under the default policy the instants of its start-up would be skipped, not owed
        jobs.store("3s", ",\"misfire\":\"FIRE_ALL_MISSED\",\"maxCatchUp\":100");
        if (step.databaseTrigger != null) {
            jdbc.sql("""
                    CREATE FUNCTION pause_victim() RETURNS trigger LANGUAGE plpgsql AS $$
                    BEGIN
                        IF current_setting('application_name') = 'victim' THEN PERFORM pg_sleep(3600); END IF;
                        RETURN NULL;
                    END $$""").update();
            jdbc.sql(step.databaseTrigger).update();
        }
        boolean handBack = step == Step.HAND_BACK;
        Instant interrupted;
        String survivorJob = handBack ? "extra" : "none";
        try (Replicas replicas = new Replicas(database, "killed-at-" + step.name().toLowerCase())) {
            replicas.start(VICTIM, "none", step.pausePoint == null ? Map.of() : Map.of(PausePoint.PROPERTY, step.pausePoint),
                    "--spring.datasource.hikari.data-source-properties.ApplicationName=" + VICTIM,
                    "--spring.quartz.properties.org.quartz.jobStore.class=" + PausingJobStore.class.getName());
            if (handBack) {
                // a newer replica stores the job the victim does not know, then leaves: the victim fires its trigger
                await().atMost(Duration.ofMinutes(2)).until(() -> clusterSize(jdbc) == 1);
                // a replica counts as alive (the job it registers not orphaned) only while it checks in to the
                // cluster: this row stands for a deployer whose scheduler stands by, checking in, firing nothing
                jdbc.sql("""
                                INSERT INTO qrtz_scheduler_state (sched_name, instance_name, last_checkin_time,
                                                                  checkin_interval)
                                SELECT sched_name, 'deployer', ?, 600000 FROM qrtz_scheduler_state LIMIT 1""")
                        .param(System.currentTimeMillis()).update();
                replicas.start("deployer", "extra", "--spring.quartz.auto-startup=false");
                await().atMost(Duration.ofMinutes(2)).until(() -> replicas.logged("deployer", "jobs synced"));
                replicas.stop("deployer");
            }
            await().atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(200))
                    .until(() -> replicas.logged(VICTIM, PausePoint.MARKER) || sleeping(jdbc));
            interrupted = firingOnVictim(jdbc);
            replicas.kill(VICTIM);
            // the server ends the sessions of a client it finds gone; pg_sleep would hold them for an hour
            jdbc.sql("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = ?")
                    .param(VICTIM).query((rs, row) -> true).list();
            System.out.printf("%s: victim killed while firing %s%n", step, interrupted);

            replicas.start("survivor", survivorJob);
            await().atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(500)).until(() ->
                    jobs.completeInstants(interrupted.minusSeconds(1)).size() >= 4
                            && (!handBack || extraFires(jdbc, interrupted).size() >= 4));
        }

        List<Instant> complete = jobs.completeInstants(interrupted.minusSeconds(1));
        if (handBack) {
            List<Instant> extra = extraFires(jdbc, interrupted);
            assertThat(extra.get(0)).as("the instant being handed back").isEqualTo(interrupted);
            assertThat(Duration.between(extra.get(0), extra.get(3))).as("and the next ones, none skipped")
                    .isEqualTo(Duration.ofSeconds(9));
        } else {
            assertThat(complete.get(0)).as("the interrupted instant").isEqualTo(interrupted);
        }
        assertThat(Duration.between(complete.get(0), complete.get(3))).as("instants after it, none skipped")
                .isEqualTo(EVERY.multipliedBy(3));
        for (Instant instant : complete.subList(0, 4)) {
            assertThat(jobs.missing(instant)).as("jobs missing at %s", instant).isEmpty();
            assertThat(jobs.wrongTasks(instant)).as("tasks of %s", instant).isEmpty();
        }
        System.out.printf("%s: %s %s; next %s %s%n", step, interrupted, jobs.firesByNodeAndTrigger(interrupted),
                complete.get(1), jobs.firesByNodeAndTrigger(complete.get(1)));
    }

    /** @return the instant of the schedule trigger the victim was firing (Quartz fired it its lead ahead) */
    private static Instant firingOnVictim(JdbcClient jdbc) {
        return Instant.ofEpochMilli(jdbc.sql("""
                        SELECT min(sched_time) FROM qrtz_fired_triggers WHERE instance_name = ?
                        AND trigger_group = 'onebeat-schedule'
                        """).param(VICTIM).query(Long.class).single()).plus(TimetableTrigger.LEAD);
    }

    private static boolean sleeping(JdbcClient jdbc) {
        return jdbc.sql("SELECT count(*) FROM pg_stat_activity WHERE application_name = ? AND wait_event = 'PgSleep'")
                .param(VICTIM).query(Long.class).single() > 0;
    }

    private static long clusterSize(JdbcClient jdbc) {
        try {
            return jdbc.sql("SELECT count(*) FROM qrtz_scheduler_state").query(Long.class).single();
        } catch (RuntimeException e) {
            return 0;
        }
    }

    private static List<Instant> extraFires(JdbcClient jdbc, Instant from) {
        return jdbc.sql("SELECT scheduled_at FROM onebeat_fire WHERE job_name = ? AND scheduled_at >= ? ORDER BY 1")
                .params(ReplicaMain.EXTRA_JOB, Timestamp.from(from)).query(Timestamp.class).list().stream()
                .map(Timestamp::toInstant).toList();
    }
}
