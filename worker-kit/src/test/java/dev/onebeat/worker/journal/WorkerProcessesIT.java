package dev.onebeat.worker.journal;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import dev.onebeat.testsupport.PostgresExtension;
import dev.onebeat.testsupport.TestDatabase;
import dev.onebeat.worker.WorkerSchema;
import dev.onebeat.worker.metrics.WorkerMetrics;
import java.nio.file.Files;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Separate worker JVMs racing and dying: the journal, not the process, decides what is applied. */
@ExtendWith(PostgresExtension.class)
class WorkerProcessesIT {

    private static TestDatabase database;
    private static HikariDataSource dataSource;
    private static Effects effects;
    private static IdempotentConsumer redelivery;

    @BeforeAll
    static void migrate(TestDatabase testDatabase) throws Exception {
        database = testDatabase;
        dataSource = WorkerSchema.migrated(database);
        effects = new Effects(dataSource);
        redelivery = IdempotentConsumer.of(dataSource, JournalWorkerMain.CONSUMER, WorkerMetrics.NOOP);
    }

    @AfterAll
    static void close() {
        dataSource.close();
    }

    @Test
    void twoWorkerProcessesRacingTheSameKeysApplyEachEffectOnce() throws Exception {
        try (WorkerProcesses workers = new WorkerProcesses(database, "race")) {
            var go = workers.dir().resolve("go");
            Files.deleteIfExists(go);
            workers.start("a", "race", go.toString(), "200");
            workers.start("b", "race", go.toString(), "200");
            workers.awaitLine("a", "READY");
            workers.awaitLine("b", "READY");

            Files.createFile(go);

            int applied = applied(workers.awaitLine("a", "APPLIED=")) + applied(workers.awaitLine("b", "APPLIED="));
            assertThat(applied).isEqualTo(200);
        }
        try (Connection connection = dataSource.getConnection();
             Statement statement = connection.createStatement();
             ResultSet row = statement.executeQuery(
                     "SELECT count(*), count(DISTINCT key) FROM test_effect WHERE key LIKE 'race-%'")) {
            row.next();
            assertThat(row.getLong(1)).isEqualTo(200);
            assertThat(row.getLong(2)).isEqualTo(200);
        }
    }

    @Test
    void workerKilledAfterTheJournalInsertBeforeCommitIsAppliedOnceByTheRedelivery() throws Exception {
        try (WorkerProcesses workers = new WorkerProcesses(database, "kill-in-work")) {
            workers.start("a", "hang-in-work", "order-in-work");
            workers.awaitLine("a", "IN_WORK");
            assertThat(effects.journalRows("order-in-work")).isZero();

            workers.kill("a");
        }

        assertThat(redelivery.process("order-in-work", tx -> Effects.apply(tx, "order-in-work"))).isTrue();
        assertThat(effects.count("order-in-work")).isEqualTo(1);
    }

    @Test
    void workerKilledAfterCommitBeforeTheAckMakesTheRedeliveryADuplicate() throws Exception {
        try (WorkerProcesses workers = new WorkerProcesses(database, "kill-before-ack")) {
            workers.start("a", "hang-before-ack", "order-acked");
            workers.awaitLine("a", "COMMITTED");

            workers.kill("a");
        }

        assertThat(redelivery.process("order-acked", tx -> Effects.apply(tx, "order-acked"))).isFalse();
        assertThat(effects.count("order-acked")).isEqualTo(1);
    }

    private static int applied(String line) {
        return Integer.parseInt(line.substring("APPLIED=".length()));
    }
}
