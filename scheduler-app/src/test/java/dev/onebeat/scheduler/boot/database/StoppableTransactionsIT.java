package dev.onebeat.scheduler.boot.database;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.onebeat.testsupport.PostgresExtension;
import dev.onebeat.testsupport.TestDatabase;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * A background task's transactions stopped by a shutdown, on a real pool and server: a statement under way is
 * cancelled in the task's own session, a task of short statements ends at its next checkpoint, both roll back, and
 * the stop returns once they have.
 */
@ExtendWith(PostgresExtension.class)
class StoppableTransactionsIT {

    private HikariDataSource pool;
    private JdbcClient jdbc;
    private StoppableTransactions transactions;
    private final ExecutorService thread = Executors.newSingleThreadExecutor();

    @BeforeEach
    void pool(TestDatabase database) {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(database.jdbcUrl());
        config.setUsername(database.username());
        config.setPassword(database.password());
        config.setMaximumPoolSize(2);
        pool = new HikariDataSource(config);
        jdbc = JdbcClient.create(pool);
        jdbc.sql("CREATE TABLE IF NOT EXISTS written (n int)").update();
        jdbc.sql("TRUNCATE written").update();
        transactions = new StoppableTransactions(new TransactionTemplate(new DataSourceTransactionManager(pool)), pool,
                "test task");
    }

    @AfterEach
    void close() {
        // a task a failed test left in its statement is ended first: the drop would wait for it
        transactions.stop(Duration.ofSeconds(5));
        thread.shutdownNow();
        jdbc.sql("DROP TABLE IF EXISTS written").update();
        pool.close();
    }

    @Test
    void aStatementUnderWayIsCancelledInTheTasksSessionAndTheStopReturnsOnceItHasRolledBack() throws Exception {
        CountDownLatch sleeping = new CountDownLatch(1);
        Future<Object> task = thread.submit(() -> transactions.execute(() -> {
            jdbc.sql("INSERT INTO written VALUES (1)").update();
            sleeping.countDown();
            return jdbc.sql("SELECT pg_sleep(30)").query(Object.class).single();
        }));
        assertThat(sleeping.await(10, TimeUnit.SECONDS)).isTrue();
        awaitSleeping();
        long start = System.nanoTime();

        assertThat(transactions.stop(Duration.ofSeconds(10))).as("no transaction runs").isTrue();

        assertThat(Duration.ofNanos(System.nanoTime() - start)).as("not the statement's 30 s")
                .isLessThan(Duration.ofSeconds(5));
        // rolled back when the stop returns; the task's thread then still carries its failure out of the
        // transaction and into its future (CI saw it not done yet, microseconds after the stop)
        assertThat(jdbc.sql("SELECT count(*) FROM written").query(Integer.class).single()).as("rolled back").isZero();
        assertThatThrownBy(() -> task.get(1, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                .cause().isInstanceOf(StoppableTransactions.Stopped.class)
                .rootCause().isInstanceOf(SQLException.class)
                .satisfies(error -> assertThat(((SQLException) error).getSQLState()).isEqualTo("57014"));
        assertThat(jdbc.sql("SELECT 1").query(Integer.class).single()).as("the pool's sessions still serve").isOne();
    }

    @Test
    void aTaskOfManyStepsEndsAtItsNextCheckpoint() throws Exception {
        AtomicBoolean wrote = new AtomicBoolean();
        Future<Object> task = thread.submit(() -> transactions.execute(() -> {
            jdbc.sql("INSERT INTO written VALUES (1)").update();
            wrote.set(true);
            // steps with no statement under way, which no cancel could end
            while (true) {
                transactions.checkpoint();
                try {
                    Thread.sleep(5);
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            }
        }));
        while (!wrote.get()) {
            Thread.sleep(5);
        }

        assertThat(transactions.stop(Duration.ofSeconds(10))).isTrue();

        assertThatThrownBy(() -> task.get(1, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                .cause().isInstanceOf(StoppableTransactions.Stopped.class);
        assertThat(jdbc.sql("SELECT count(*) FROM written").query(Integer.class).single()).as("rolled back").isZero();
    }

    @Test
    void aStopBegunWhileTheTaskIsBetweenStatementsReturnsAtOnceAndCancelsItsNextStatement() throws Exception {
        // the shutdown begins the stop and goes on (its fires, its relay) before it waits: the task, between two
        // statements when the stop began, is cancelled in the next one it starts
        CountDownLatch between = new CountDownLatch(1);
        CountDownLatch stopBegun = new CountDownLatch(1);
        Future<Object> task = thread.submit(() -> transactions.execute(() -> {
            jdbc.sql("INSERT INTO written VALUES (1)").update();
            between.countDown();
            try {
                assertThat(stopBegun.await(10, TimeUnit.SECONDS)).isTrue();
                // a cancel sent now finds the session idle and is ignored by the server
                Thread.sleep(300);
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
            return jdbc.sql("SELECT pg_sleep(30)").query(Object.class).single();
        }));
        assertThat(between.await(10, TimeUnit.SECONDS)).isTrue();

        // returns at once: were it to wait for the task, the task would wait for it
        transactions.beginStop();
        stopBegun.countDown();

        assertThatThrownBy(() -> task.get(5, TimeUnit.SECONDS)).as("not the statement's 30 s")
                .isInstanceOf(ExecutionException.class)
                .cause().isInstanceOf(StoppableTransactions.Stopped.class)
                .rootCause().isInstanceOf(SQLException.class)
                .satisfies(error -> assertThat(((SQLException) error).getSQLState()).isEqualTo("57014"));
        assertThat(transactions.stop(Duration.ofSeconds(1))).as("the wait finds it ended").isTrue();
        assertThat(jdbc.sql("SELECT count(*) FROM written").query(Integer.class).single()).as("rolled back").isZero();
    }

    @Test
    void noTransactionStartsOnceTheStopHasBegun() {
        transactions.stop(Duration.ofSeconds(1));
        AtomicBoolean ran = new AtomicBoolean();

        assertThatThrownBy(() -> transactions.execute(() -> ran.getAndSet(true)))
                .isInstanceOf(StoppableTransactions.Stopped.class);
        assertThat(ran).isFalse();
    }

    private void awaitSleeping() throws InterruptedException {
        for (int attempt = 0; attempt < 500; attempt++) {
            if (jdbc.sql("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                    + "AND state = 'active' AND query = 'SELECT pg_sleep(30)'").query(Integer.class).single() == 1) {
                return;
            }
            Thread.sleep(10);
        }
        throw new AssertionError("the task's statement never ran");
    }
}
