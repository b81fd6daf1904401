package dev.onebeat.scheduler.boot.startup;

import java.sql.SQLException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTransientConnectionException;
import java.util.Set;

/**
 * Tells a failure to reach the database, which may pass by itself, from any other failure, which will not: only the
 * first is worth trying again at start-up. Libraries wrap the driver's exception (Liquibase, Quartz, Spring, Hikari),
 * so the whole cause chain is read.
 */
public final class DatabaseUnavailable {

    /**
     * SQLState classes and codes of a database away or on its way back: {@code 08} connection exceptions (refused,
     * reset, closed), {@code 57P01}-{@code 57P03} a session terminated by an administrator, a crash or a server not yet
     * accepting connections, {@code 53300} too many connections, {@code 25006} a read-only server (a standby not yet
     * promoted during a failover).
     */
    private static final Set<String> CODES = Set.of("57P01", "57P02", "57P03", "53300", "25006");
    private static final int MAX_DEPTH = 32;
    // Hikari's error on a connection it has already closed, after the driver reported it broken; it has no SQLState
    private static final String HIKARI_CLOSED = "Connection is closed";

    private DatabaseUnavailable() {
    }

    /** @return whether the SQLSTATE is one of a database away or on its way back (see {@link #CODES}) */
    public static boolean unavailable(String sqlState) {
        return sqlState != null && (sqlState.startsWith("08") || CODES.contains(sqlState));
    }

    /** @return whether {@code failure} or one of its causes says the database could not be reached */
    public static boolean test(Throwable failure) {
        Throwable cause = failure;
        for (int depth = 0; cause != null && depth < MAX_DEPTH; depth++, cause = cause.getCause()) {
            if (cause instanceof SQLTransientConnectionException || cause instanceof SQLRecoverableException) {
                return true;
            }
            if (cause instanceof SQLException sql && unavailable(sql.getSQLState())) {
                return true;
            }
            if (cause instanceof SQLException sql && sql.getSQLState() == null
                    && HIKARI_CLOSED.equals(sql.getMessage())) {
                return true;
            }
        }
        return false;
    }
}
