package dev.onebeat.scheduler.migration;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import liquibase.exception.LiquibaseException;
import liquibase.integration.spring.SpringLiquibase;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Liquibase run under a PostgreSQL advisory lock. Replicas starting together on an empty database
 * would otherwise race to create Liquibase's own tables ({@code DATABASECHANGELOG} is created
 * before Liquibase takes its lock) and all but one would fail to start.
 */
class SerializedLiquibase extends SpringLiquibase {

    private static final Logger log = LoggerFactory.getLogger(SerializedLiquibase.class);
    // any fixed number; only onebeat replicas take it
    static final long LOCK_KEY = 0x6f6e65626561744cL;

    @Override
    public void afterPropertiesSet() throws LiquibaseException {
        try (Connection lock = getDataSource().getConnection()) {
            lock.setAutoCommit(true);
            call(lock, "SELECT pg_advisory_lock(?)");
            try {
                long start = System.nanoTime();
                super.afterPropertiesSet();
                log.info("migrations applied changelog={} durationMs={}", getChangeLog(),
                        (System.nanoTime() - start) / 1_000_000);
            } finally {
                call(lock, "SELECT pg_advisory_unlock(?)");
            }
        } catch (SQLException e) {
            throw new LiquibaseException("could not take the migration lock: " + e.getMessage(), e);
        }
    }

    private static void call(Connection connection, String sql) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(sql)) {
            statement.setLong(1, LOCK_KEY);
            statement.execute();
        }
    }
}
