package dev.onebeat.scheduler.engine.quartz;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.onebeat.scheduler.SchedulerIT;
import dev.onebeat.scheduler.SchedulerTestDatabase;
import io.micrometer.core.instrument.MeterRegistry;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import org.junit.jupiter.api.Test;
import org.quartz.Scheduler;
import org.quartz.TriggerBuilder;
import org.quartz.TriggerKey;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * What a failover leaves in the new primary's Quartz tables for a replica that lives on: a trigger ACQUIRED by a fire
 * record of this very replica that no thread of it will ever fire (it acquired the trigger on the old primary). Quartz
 * recovers such records of dead replicas only; the sweep of {@link StrandedTriggers} gives the trigger back.
 */
@SchedulerIT(properties = {SchedulerTestDatabase.NO_DEMO,
        "onebeat.jobs[0].name=stranded-3s", "onebeat.jobs[0].every=3s", "onebeat.jobs[0].task=t",
        "onebeat.failover.sweep-interval=1s", "onebeat.failover.stranded-after=10s"})
class StrandedTriggersIT {

    // every 3 s: Quartz acquires a trigger 1 s (idleWaitTime) before its fire, so it waits 2 s of each 3
    private static final String JOB = "stranded-3s";

    @Autowired
    JdbcClient jdbc;
    @Autowired
    TransactionTemplate transactions;
    @Autowired
    Scheduler scheduler;
    @Autowired
    MeterRegistry meters;

    @Test
    void aTriggerLeftAcquiredByThisLiveReplicasOwnFireRecordFiresAgain() throws Exception {
        await().atMost(Duration.ofSeconds(30)).until(() -> committedAfter(Instant.EPOCH) >= 2);
        String instance = scheduler.getSchedulerInstanceId();
        // the state a failover leaves: the trigger ACQUIRED, by a record of this replica from before the failover;
        // made under Quartz's own lock, while the trigger waits (not while this replica holds it for its next fire)
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(50))
                .until(() -> Boolean.TRUE.equals(transactions.execute(status -> strand(instance))));
        Instant stranded = Instant.now();
        assertThat(jdbc.sql("SELECT trigger_state FROM qrtz_triggers WHERE trigger_group = ?")
                .param(QuartzTriggers.SCHEDULE_GROUP).query(String.class).single()).isEqualTo("ACQUIRED");

        await().atMost(Duration.ofSeconds(40)).until(() -> committedAfter(stranded.plusSeconds(1)) >= 2);
        assertThat(jdbc.sql("SELECT count(*) FROM qrtz_fired_triggers WHERE entry_id = 'left-by-failover'")
                .query(Integer.class).single()).as("the stranded record").isZero();
        assertThat(meters.counter(StrandedTriggers.METRIC).count()).isGreaterThanOrEqualTo(1);
    }

    @Test
    void aOneShotTriggerWhoseFireWasUnderWayWhenAFailoverLostItIsRemovedWithItsRecord() throws Exception {
        // a hand-back (a lost fire, a rolling deploy) that this replica marked fired on the old primary: the new one
        // holds the trigger COMPLETE and this replica's EXECUTING record, and no thread of it runs that fire. Left as
        // it is, nothing would ever delete the trigger, and a look for lost fires would take its fires as handed back
        TriggerKey key = TriggerKey.triggerKey("stranded-3s@1#1", HandBack.GROUP);
        scheduler.scheduleJob(TriggerBuilder.newTrigger().withIdentity(key).forJob(QuartzTriggers.SINGLE_JOB)
                .usingJobData(QuartzTriggers.JOB_NAME, JOB).usingJobData(HandBack.INSTANT, 1L)
                .startAt(Date.from(Instant.now().plus(Duration.ofHours(1)))).build());
        long before = System.currentTimeMillis() - 60_000;
        String instance = scheduler.getSchedulerInstanceId();
        transactions.executeWithoutResult(status -> {
            jdbc.sql("UPDATE qrtz_triggers SET trigger_state = 'COMPLETE', next_fire_time = -1 "
                    + "WHERE trigger_group = ? AND trigger_name = ?").params(key.getGroup(), key.getName()).update();
            jdbc.sql("""
                            INSERT INTO qrtz_fired_triggers (sched_name, entry_id, trigger_name, trigger_group,
                                instance_name, fired_time, sched_time, priority, state, job_name, job_group,
                                is_nonconcurrent, requests_recovery)
                            SELECT sched_name, 'fired-before-failover', trigger_name, trigger_group, ?, ?, ?, priority,
                                'EXECUTING', job_name, job_group, false, false
                            FROM qrtz_triggers WHERE trigger_group = ? AND trigger_name = ?""")
                    .params(instance, before, before, key.getGroup(), key.getName()).update();
        });

        await().atMost(Duration.ofSeconds(30)).until(() -> !scheduler.checkExists(key));
        assertThat(jdbc.sql("SELECT count(*) FROM qrtz_fired_triggers WHERE entry_id = 'fired-before-failover'")
                .query(Integer.class).single()).as("the stranded record").isZero();
    }

    private boolean strand(String instance) {
        jdbc.sql("SELECT lock_name FROM qrtz_locks WHERE sched_name = 'onebeat' AND lock_name = 'TRIGGER_ACCESS' "
                + "FOR UPDATE").query(String.class).optional();
        int acquired = jdbc.sql("""
                        UPDATE qrtz_triggers SET trigger_state = 'ACQUIRED'
                        WHERE trigger_group = ? AND trigger_state = 'WAITING'""")
                .param(QuartzTriggers.SCHEDULE_GROUP).update();
        if (acquired != 1) {
            return false;
        }
        long before = System.currentTimeMillis() - 60_000;
        jdbc.sql("""
                        INSERT INTO qrtz_fired_triggers (sched_name, entry_id, trigger_name, trigger_group,
                            instance_name, fired_time, sched_time, priority, state, job_name, job_group,
                            is_nonconcurrent, requests_recovery)
                        SELECT sched_name, 'left-by-failover', trigger_name, trigger_group, ?, ?, ?, priority,
                            'ACQUIRED', NULL, NULL, false, false
                        FROM qrtz_triggers WHERE trigger_group = ?""")
                .params(instance, before, before, QuartzTriggers.SCHEDULE_GROUP).update();
        return true;
    }

    private long committedAfter(Instant after) {
        return jdbc.sql("SELECT count(*) FROM onebeat_fire WHERE job_name = ? AND scheduled_at > ?")
                .params(JOB, Timestamp.from(after)).query(Long.class).single();
    }
}
