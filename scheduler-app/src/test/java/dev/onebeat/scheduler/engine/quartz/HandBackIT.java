package dev.onebeat.scheduler.engine.quartz;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.onebeat.testsupport.PostgresExtension;
import dev.onebeat.testsupport.TestDatabase;
import io.micrometer.core.instrument.MeterRegistry;
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
            // the new replica counts as alive only while it checks in to the cluster (a replica whose Quartz never
            // runs has its jobs orphaned): its check-in row stands for one whose scheduler is in standby, checking
            // in but firing nothing until started; its own check-ins take the row over once it starts
            jdbc.sql("""
                            INSERT INTO qrtz_scheduler_state (sched_name, instance_name, last_checkin_time,
                                                              checkin_interval)
                            VALUES (?, 'new', ?, 600000)""")
                    .params(oldReplica.getBean(Scheduler.class).getSchedulerName(), System.currentTimeMillis())
                    .update();
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

    @Test
    void jobKeepsFiringWhenAReplicaThatDoesNotKnowItStartsLastAndIsAlertedMissedOnceItsOnlyReplicaIsGone(
            TestDatabase database) throws Exception {
        JdbcClient jdbc = JdbcClient.create(database.dataSource());
        String[] cluster = {"--onebeat.monitor.check-interval=1s"};
        String[] knowsIt = {"--onebeat.jobs[0].name=" + KNOWN, "--onebeat.jobs[0].every=2s",
                "--onebeat.jobs[0].task=t", "--onebeat.jobs[0].alerts.grace=1s"};
        // the replica that registers the job starts first: Quartz's connection provider is then the old one's, and
        // closing this one leaves the old one firing
        ConfigurableApplicationContext registering = HandBackReplicas.start(database, "registering", true,
                concat(cluster, knowsIt));
        ConfigurableApplicationContext old = null;
        try {
            await().atMost(Duration.ofSeconds(60)).until(() -> count(jdbc, KNOWN) >= 2);
            // an old, canary or rolled-back replica that does not know the job starts last
            old = HandBackReplicas.start(database, "old", true, cluster);
            long afterOldStarted = count(jdbc, KNOWN);
            await().atMost(Duration.ofSeconds(60)).until(() -> count(jdbc, KNOWN) >= afterOldStarted + 3);
            assertThat(orphaned(jdbc, KNOWN)).as("a live replica registers it").isFalse();

            registering.close();
            Instant lastFire = jdbc.sql("SELECT max(scheduled_at) FROM onebeat_fire WHERE job_name = ?").param(KNOWN)
                    .query((rs, row) -> rs.getTimestamp(1).toInstant()).single();
            await().atMost(Duration.ofSeconds(60)).until(() -> orphaned(jdbc, KNOWN));
            await().atMost(Duration.ofSeconds(60)).until(() -> jdbc.sql("""
                            SELECT count(*) FROM onebeat_job_event
                            WHERE job_name = ? AND kind = 'missed' AND alerted AND scheduled_at > ?""")
                    .params(KNOWN, java.sql.Timestamp.from(lastFire)).query(Long.class).single() >= 2);
            MeterRegistry meters = old.getBean(MeterRegistry.class);
            assertThat(meters.get("onebeat.job.missed").tag("job", KNOWN).counter().count()).isGreaterThanOrEqualTo(2);
        } finally {
            registering.close();
            if (old != null) {
                old.close();
            }
        }
    }

    @Test
    void jobRegisteredOnlyByAReplicaWhoseQuartzDoesNotRunIsOrphanedAndAlertedMissed(TestDatabase database)
            throws Exception {
        JdbcClient jdbc = JdbcClient.create(database.dataSource());
        // a deployer: it registers the job and stays up, but its Quartz never starts, so it never fires anything
        ConfigurableApplicationContext deployer = HandBackReplicas.start(database, "deployer", false,
                "--onebeat.monitor.check-interval=1s", "--onebeat.jobs[0].name=" + DEPLOYED,
                "--onebeat.jobs[0].every=2s", "--onebeat.jobs[0].task=t", "--onebeat.jobs[0].alerts.grace=1s");
        ConfigurableApplicationContext firing = null;
        try {
            firing = HandBackReplicas.start(database, "firing", true, "--onebeat.monitor.check-interval=1s");
            Instant started = jdbc.sql("SELECT now()").query((rs, row) -> rs.getTimestamp(1).toInstant()).single();

            await().atMost(Duration.ofSeconds(30)).until(() -> orphaned(jdbc, DEPLOYED));
            await().atMost(Duration.ofSeconds(30)).until(() -> jdbc.sql("""
                            SELECT count(*) FROM onebeat_job_event
                            WHERE job_name = ? AND kind = 'missed' AND alerted AND scheduled_at > ?""")
                    .params(DEPLOYED, java.sql.Timestamp.from(started)).query(Long.class).single() >= 1);
            assertThat(count(jdbc, DEPLOYED)).as("no replica fires it").isZero();
        } finally {
            // the replica whose Quartz runs first: the deployer started first and owns Quartz's connection provider
            if (firing != null) {
                firing.close();
            }
            deployer.close();
        }
    }

    private static final String DEPLOYED = "deployed-only";

    private static final String KNOWN = "known-to-one";

    private static String[] concat(String[] first, String[] second) {
        return java.util.stream.Stream.concat(java.util.Arrays.stream(first), java.util.Arrays.stream(second))
                .toArray(String[]::new);
    }

    private static long count(JdbcClient jdbc, String job) {
        return jdbc.sql("SELECT count(*) FROM onebeat_fire WHERE job_name = ?").param(job).query(Long.class).single();
    }

    private static boolean orphaned(JdbcClient jdbc, String job) {
        return jdbc.sql("SELECT orphaned FROM onebeat_job WHERE name = ?").param(job).query(Boolean.class).single();
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
