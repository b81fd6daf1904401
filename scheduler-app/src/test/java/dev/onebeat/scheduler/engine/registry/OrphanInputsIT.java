package dev.onebeat.scheduler.engine.registry;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onebeat.scheduler.SchedulerIT;
import dev.onebeat.scheduler.SchedulerTestDatabase;
import dev.onebeat.scheduler.engine.cluster.LiveNodes;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * What the orphan judgement depends on, read without reading the catalog ({@link JobCatalog#orphanInputs}): the same
 * while nothing changes, different once a replica writes its registrations or a runtime job changes, however it is
 * written. The cluster judges every job again only when it differs from what its last judgement read
 * ({@code OrphanJudgementIT}), or every ten minutes.
 */
@SchedulerIT(properties = {SchedulerTestDatabase.NO_DEMO, SchedulerTestDatabase.QUARTZ_STOPPED,
        "onebeat.jobs[0].name=configured", "onebeat.jobs[0].every=1h", "onebeat.jobs[0].task=t"})
class OrphanInputsIT {

    @Autowired
    JobCatalog catalog;
    @Autowired
    LiveNodes nodes;
    @Autowired
    TransactionTemplate transactions;
    @Autowired
    JdbcClient jdbc;

    @Test
    void theInputsStayWhileNothingChangesAndMoveWithRegistrationsAndRuntimeJobs() {
        String idle = catalog.orphanInputs();
        assertThat(catalog.orphanInputs()).as("read again, nothing changed").isEqualTo(idle);

        transactions.executeWithoutResult(status -> nodes.registers(List.of("configured", "another")));
        String registered = catalog.orphanInputs();
        assertThat(registered).as("after this replica wrote its registrations").isNotEqualTo(idle);

        jdbc.sql("""
                INSERT INTO onebeat_runtime_job (name, kind, definition, updated_by)
                VALUES ('by-hand', 'job', '{"name":"by-hand","every":"1h","task":"t"}', 'an operator')""").update();
        String runtime = catalog.orphanInputs();
        assertThat(runtime).as("after a runtime job was written by hand").isNotEqualTo(registered);

        jdbc.sql("DELETE FROM onebeat_runtime_job WHERE name = 'by-hand'").update();
        assertThat(catalog.orphanInputs()).as("after it was deleted").isNotEqualTo(runtime);
    }

    @Test
    void replicasInDifferentTimeZonesReadTheSameInputs() {
        transactions.executeWithoutResult(status -> nodes.registers(List.of("configured")));

        assertThat(inputsInTimeZone("Pacific/Chatham")).as("the driver takes the session's zone from its JVM's")
                .isEqualTo(inputsInTimeZone("UTC")).isEqualTo(inputsInTimeZone("America/St_Johns"));
    }

    @Test
    void aReplicaIsJudgedAliveAtTheTransactionsStartForEveryReadInIt() {
        String inputs = transactions.execute(status -> {
            jdbc.sql("""
                    INSERT INTO qrtz_scheduler_state (sched_name, instance_name, last_checkin_time, checkin_interval)
                    VALUES ('test', 'on-the-edge', 0, 1000)""").update();
            // stamped by hand (the trigger stamps check-ins only): alive until 10 ms after the transaction began
            jdbc.sql("""
                    UPDATE qrtz_scheduler_state SET onebeat_checked_in_at = now() - interval '1990 milliseconds'
                    WHERE instance_name = 'on-the-edge'""").update();
            jdbc.sql("SELECT pg_sleep(0.05)").query(Object.class).single();
            return catalog.orphanInputs();
        });
        try {
            assertThat(inputs.substring(0, inputs.indexOf('|'))).as("live replicas, read past the edge")
                    .contains("on-the-edge");
        } finally {
            jdbc.sql("DELETE FROM qrtz_scheduler_state WHERE instance_name = 'on-the-edge'").update();
        }
    }

    private String inputsInTimeZone(String zone) {
        return transactions.execute(status -> {
            jdbc.sql("SELECT set_config('TimeZone', ?, true)").param(zone).query(String.class).single();
            return catalog.orphanInputs();
        });
    }
}
