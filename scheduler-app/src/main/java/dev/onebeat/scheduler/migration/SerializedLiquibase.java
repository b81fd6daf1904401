package dev.onebeat.scheduler.migration;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;
import liquibase.exception.LiquibaseException;
import liquibase.integration.spring.SpringLiquibase;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;

/**
 * Liquibase run under a PostgreSQL advisory lock. Replicas starting together on an empty database
 * would otherwise race to create Liquibase's own tables ({@code DATABASECHANGELOG} is created
 * before Liquibase takes its lock) and all but one would fail to start.
 *
 * <p>The lock and the migrations share one session, free of the pool's timeouts: waiting for another
 * replica's migrations and a migration itself (an index built over a large table, a table lock awaited behind
 * running fires) may take minutes, which the driver's {@code socketTimeout} and the server's {@code lock_timeout}
 * and {@code idle_in_transaction_session_timeout} set for every other connection would cut. The session gets them
 * back before it returns to the pool.
 */
class SerializedLiquibase extends SpringLiquibase {

    private static final Logger log = LoggerFactory.getLogger(SerializedLiquibase.class);
    // any fixed number; only onebeat replicas take it
    static final long LOCK_KEY = 0x6f6e65626561744cL;
    private static final String UNBOUNDED = "SET lock_timeout = 0; SET idle_in_transaction_session_timeout = 0";
    // back to the values the session started with (the URL's or the pool's options)
    private static final String BOUNDED = "RESET lock_timeout; RESET idle_in_transaction_session_timeout";

    @Override
    public void afterPropertiesSet() throws LiquibaseException {
        DataSource pool = getDataSource();
        try (Connection session = pool.getConnection()) {
            session.setAutoCommit(true);
            // the pool restores its network timeout when the connection is given back
            session.setNetworkTimeout(Runnable::run, 0);
            execute(session, UNBOUNDED);
            call(session, "SELECT pg_advisory_lock(?)");
            setDataSource(new SingleConnectionDataSource(session, true));
            try {
                long start = System.nanoTime();
                super.afterPropertiesSet();
                log.info("migrations applied changelog={} durationMs={}", getChangeLog(),
                        (System.nanoTime() - start) / 1_000_000);
            } finally {
                setDataSource(pool);
                session.setAutoCommit(true);
                call(session, "SELECT pg_advisory_unlock(?)");
                execute(session, BOUNDED);
            }
        } catch (SQLException e) {
            throw new LiquibaseException("could not take the migration lock: " + e.getMessage(), e);
        }
    }

    private static void execute(Connection connection, String sql) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }

    private static void call(Connection connection, String sql) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(sql)) {
            statement.setLong(1, LOCK_KEY);
            statement.execute();
        }
    }
}
