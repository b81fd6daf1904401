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
}
