package dev.onebeat.scheduler.engine.fire;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.onebeat.testsupport.PostgresExtension;
import dev.onebeat.testsupport.TestDatabase;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.ServerSocket;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.quartz.impl.jdbcjobstore.LockException;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * The line that begins a period of database faults says what the database did, from real failures of PostgreSQL and
 * of the connection pool: a wait for a lock another session held past {@code lock_timeout} is not an unreachable
 * database (a look for lost fires that held Quartz's trigger lock 52 s was logged as one), nor is a statement cut off
 * by {@code statement_timeout}, a pool whose connections are all busy, or a read-only server; a refused connection, or
 * a session the server terminated, is.
 */
@ExtendWith(PostgresExtension.class)
class FireFaultsWordingIT {

    @Test
    void aLockWaitPastLockTimeoutAsQuartzsStoreReportsItBeginsAPeriodSayingSo(TestDatabase database) throws Exception {
        SQLException timedOut;
        try (Connection holder = database.connect(); Connection waiter = database.connect();
             Statement holding = holder.createStatement(); Statement waiting = waiter.createStatement()) {
            holding.execute("CREATE TABLE fault_lock (name text PRIMARY KEY)");
            holding.execute("INSERT INTO fault_lock VALUES ('TRIGGER_ACCESS')");
            holder.setAutoCommit(false);
            holding.execute("SELECT * FROM fault_lock FOR UPDATE");
            waiting.execute("SET lock_timeout = '100ms'");
            timedOut = failure(() -> waiting.execute("SELECT * FROM fault_lock FOR UPDATE"));
            holder.rollback();
        }
        // as Quartz's row lock semaphore wraps it, and its store tells the listeners
        LockException quartz = new LockException("Failure obtaining db row lock: " + timedOut.getMessage(), timedOut);
        ListAppender<ILoggingEvent> lines = new ListAppender<>();
        Logger logger = (Logger) LoggerFactory.getLogger(FireFaults.class);
        lines.start();
        logger.addAppender(lines);
        FireFaults faults = new FireFaults(JdbcClient.create(database.dataSource()), Clock.systemUTC(),
                new SimpleMeterRegistry());
        try {
            faults.failed(FireFaults.Stage.QUARTZ, "node-1", quartz);
        } finally {
            faults.destroy();
            logger.detachAppender(lines);
        }

        assertThat(lines.list).extracting(ILoggingEvent::getFormattedMessage).first().asString()
                .startsWith("fires wait past lock_timeout for a lock another session holds (SQLSTATE 55P03), instants "
                        + "due meanwhile may not fire node=node-1 stage=quartz");
    }

    @Test
    void aStatementCutOffByStatementTimeoutAndAWriteToAReadOnlyServer(TestDatabase database) throws Exception {
        try (Connection connection = database.connect(); Statement statement = connection.createStatement()) {
            statement.execute("SET statement_timeout = '100ms'");
            SQLException cut = failure(() -> statement.execute("SELECT pg_sleep(5)"));
            statement.execute("SET statement_timeout = 0");
            statement.execute("CREATE TABLE fault_write (id int)");
            statement.execute("SET default_transaction_read_only = on");
            SQLException readOnly = failure(() -> statement.execute("INSERT INTO fault_write VALUES (1)"));

            assertThat(FireFaults.what(new IllegalStateException("fire failed", cut)))
                    .startsWith("have statements cancelled or cut off by statement_timeout");
            assertThat(FireFaults.what(readOnly)).startsWith("cannot write: the server is read-only");
        }
    }

    @Test
    void aPoolWhoseConnectionsAreAllBusyOrThatIsRefusedADatabaseIsNotAnUnreachableDatabase(TestDatabase database) throws Exception {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(database.jdbcUrl());
        config.setUsername(database.username());
        config.setPassword(database.password());
        config.setMaximumPoolSize(1);
        config.setConnectionTimeout(250);
        try (HikariDataSource pool = new HikariDataSource(config); Connection busy = pool.getConnection()) {
            SQLException timedOut = failure(() -> pool.getConnection().close());

            assertThat(FireFaults.what(new IllegalStateException("no connection", timedOut)))
                    .isEqualTo("wait past the connection pool's timeout for a connection, all of them busy");
        }
        // a pool that cannot open a connection times out too, named by what its last attempt was told
        config.setJdbcUrl(database.jdbcUrl().replace("/" + database.name(), "/" + database.name() + "_gone"));
        config.setInitializationFailTimeout(-1);
        // long enough for the pool's own attempt to be refused first, on a loaded machine too
        config.setConnectionTimeout(3_000);
        try (HikariDataSource pool = new HikariDataSource(config)) {
            SQLException timedOut = failure(() -> pool.getConnection().close());

            assertThat(FireFaults.what(timedOut)).as("the server answered: no such database")
                    .isEqualTo("fail in the database (SQLSTATE 3D000)");
        }
    }

    @Test
    void aConnectionRefusedOrATerminatedSessionIsUnreachableAMissingDatabaseIsNot(TestDatabase database)
            throws Exception {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        SQLException refused = failure(() -> DriverManager.getConnection(
                "jdbc:postgresql://127.0.0.1:" + closedPort + "/postgres?connectTimeout=2", "postgres", "").close());
        SQLException missing = failure(() -> DriverManager.getConnection(
                database.jdbcUrl().replace("/" + database.name(), "/" + database.name() + "_gone"),
                database.username(), database.password()).close());
        SQLException terminated;
        try (Connection victim = database.connect(); Connection killer = database.connect();
             Statement statement = victim.createStatement(); Statement kill = killer.createStatement()) {
            statement.execute("SELECT 1");
            kill.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() "
                    + "AND pid <> pg_backend_pid()");
            terminated = failure(() -> statement.execute("SELECT 1"));
        }

        assertThat(FireFaults.what(refused)).isEqualTo("cannot reach the database");
        assertThat(FireFaults.what(terminated)).as("its session terminated").isEqualTo("cannot reach the database");
        assertThat(FireFaults.what(missing)).as("the server answered: no such database").isEqualTo(
                "fail in the database (SQLSTATE 3D000)");
    }

    private interface Failing {
        void run() throws SQLException;
    }

    private static SQLException failure(Failing failing) {
        try {
            failing.run();
        } catch (SQLException e) {
            return e;
        }
        throw new AssertionError("no failure");
    }
}
