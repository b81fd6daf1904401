package dev.onebeat.worker.retention;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import dev.onebeat.job.Entity;
import dev.onebeat.job.IdempotencyKey;
import dev.onebeat.job.JobContext;
import dev.onebeat.job.TaskRequest;
import dev.onebeat.testsupport.PostgresExtension;
import dev.onebeat.testsupport.TestDatabase;
import dev.onebeat.worker.WorkerSchema;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(PostgresExtension.class)
class RetentionIT {

    private static final Duration WEEK = Duration.ofDays(7);

    private static HikariDataSource dataSource;

    @BeforeAll
    static void migrate(TestDatabase database) {
        dataSource = WorkerSchema.migrated(database);
    }

    @AfterAll
    static void close() {
        dataSource.close();
    }

    @BeforeEach
    void rows() throws SQLException {
        execute("TRUNCATE onebeat_processed, onebeat_task, onebeat_effect");
        journal(25, "10 days");
        journal(5, "1 day");
        tasks(7, "done", "10 days");
        tasks(2, "published", "10 days");
        tasks(1, "dead", "10 days");
        tasks(3, "pending", "10 days");
        tasks(2, "failed", "10 days");
        tasks(4, "done", "1 day");
        effects(4, "sent", "10 days");
        effects(1, "dead", "10 days");
        effects(2, "pending", "10 days");
        effects(3, "sent", "1 day");
    }

    @Test
    void purgeRemovesOnlyFinishedRowsOlderThanTheHorizonInSeveralBatches() throws SQLException {
        Purged purged = Retention.purge(dataSource, WEEK, 4);

        assertThat(purged).isEqualTo(new Purged(25, 10, 5));
        assertThat(count("SELECT count(*) FROM onebeat_processed")).isEqualTo(5);
        assertThat(count("SELECT count(*) FROM onebeat_processed WHERE processed_at < now() - interval '7 days'")).isZero();
        assertThat(count("SELECT count(*) FROM onebeat_task WHERE status IN ('pending', 'failed')")).isEqualTo(5);
        assertThat(count("SELECT count(*) FROM onebeat_task WHERE status = 'done'")).isEqualTo(4);
        assertThat(count("SELECT count(*) FROM onebeat_effect WHERE status = 'pending'")).isEqualTo(2);
        assertThat(count("SELECT count(*) FROM onebeat_effect WHERE status = 'sent'")).isEqualTo(3);
    }

    @Test
    void purgeOnAConnectionStopsAtItsRowBudget() throws SQLException {
        try (Connection connection = dataSource.getConnection()) {
            Purged purged = Retention.purge(connection, Instant.now().minus(WEEK), 4, 10);

            assertThat(purged).isEqualTo(new Purged(10, 0, 0));
        }
        assertThat(count("SELECT count(*) FROM onebeat_processed")).isEqualTo(20);
    }

    @Test
    void retentionJobPurgesWithTheHorizonOfItsScheduledInstantInTheFiresTransaction() throws SQLException {
        RetentionJob job = new RetentionJob(WEEK, 4, 1_000, RetentionJob.DAILY);
        try (Connection connection = dataSource.getConnection()) {
            connection.setAutoCommit(false);
            // a fire scheduled 5 days ago sees a horizon 12 days back: nothing here is that old
            job.run(new Fire(connection, Instant.now().minus(Duration.ofDays(5))));
            assertThat(count(connection, "SELECT count(*) FROM onebeat_processed")).isEqualTo(30);

            job.run(new Fire(connection, Instant.now()));
            assertThat(count(connection, "SELECT count(*) FROM onebeat_processed")).isEqualTo(5);
            connection.rollback();
        }
        assertThat(count("SELECT count(*) FROM onebeat_processed")).isEqualTo(30);
    }

    private record Fire(Connection connection, Instant scheduledAt) implements JobContext {

        @Override
        public String jobName() {
            return RetentionJob.NAME;
        }

        @Override
        public IdempotencyKey dispatch(TaskRequest task) {
            throw new UnsupportedOperationException("retention dispatches nothing");
        }

        @Override
        public IdempotencyKey keyFor(String task, Entity entity) {
            throw new UnsupportedOperationException("retention dispatches nothing");
        }
    }

    private static void journal(int rows, String age) throws SQLException {
        execute("INSERT INTO onebeat_processed (consumer, idempotency_key, processed_at) "
                + "SELECT 'mail', '" + age + "-' || i, now() - interval '" + age + "' FROM generate_series(1, " + rows + ") i");
    }

    private static void tasks(int rows, String status, String age) throws SQLException {
        execute("INSERT INTO onebeat_task (idempotency_key, job_name, scheduled_at, task, queue, payload, status, created_at) "
                + "SELECT '" + status + age + "-' || i, 'job', now(), 'task', 'q', '{}'::jsonb, '" + status + "', "
                + "now() - interval '" + age + "' FROM generate_series(1, " + rows + ") i");
    }

    private static void effects(int rows, String status, String age) throws SQLException {
        execute("INSERT INTO onebeat_effect (idempotency_key, channel, destination, payload, status, created_at) "
                + "SELECT '" + status + age + "-' || i, 'mail', 'a@b.c', 'hi', '" + status + "', "
                + "now() - interval '" + age + "' FROM generate_series(1, " + rows + ") i");
    }

    private static void execute(String sql) throws SQLException {
        try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }

    private static long count(String sql) throws SQLException {
        try (Connection connection = dataSource.getConnection()) {
            return count(connection, sql);
        }
    }

    private static long count(Connection connection, String sql) throws SQLException {
        try (Statement statement = connection.createStatement(); ResultSet row = statement.executeQuery(sql)) {
            row.next();
            return row.getLong(1);
        }
    }
}
