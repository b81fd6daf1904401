package dev.onebeat.scheduler.engine.quartz;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.util.HashSet;
import java.util.Set;
import org.quartz.impl.jdbcjobstore.LockException;
import org.quartz.impl.jdbcjobstore.StdRowLockSemaphore;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * Quartz's row lock ({@code QRTZ_LOCKS}, {@code SELECT … FOR UPDATE}), tried again after a failure as Quartz does, but
 * without rolling back work that is not Quartz's own.
 *
 * <p>Quartz's {@link StdRowLockSemaphore} rolls its connection back before each new try: a lock wait that ran past
 * the server's {@code lock_timeout} (3 s), or was cancelled, leaves a PostgreSQL transaction aborted. On its own
 * connections that is harmless: Quartz takes the lock first. But a change made through the {@code Scheduler} inside
 * a Spring transaction (an admin change, the schedules' sync, a hand-back) runs on that transaction's connection
 * ({@code LocalDataSourceJobStore}), after its own statements: the rollback undid them, the transaction went on with
 * the next try and committed the rest. A runtime job created while another session held the lock could so commit its
 * trigger and audit row without its own row (and without the advisory locks that order changes to one job).
 *
 * <p>Here, inside a Spring transaction, the lock's tries run behind a savepoint, and Quartz's rollback goes back to
 * it: a failed try undoes only itself (when the connection is the transaction's, not one in auto-commit). A lock the
 * transaction already holds is taken again by one plain statement, which cannot wait for it (the row stays locked
 * until the transaction ends), so a transaction of many Quartz changes (a sync of 500 jobs, a look handing back many
 * instants) pays for the savepoint once per lock. Out of a transaction
 * (Quartz's own work on its own connections) nothing changes. Written by hand because Quartz has no setting for it
 * and no other lock handler fits PostgreSQL.
 */
public class SavepointRowLockSemaphore extends StdRowLockSemaphore {

    /** The key of the current transaction's set of lock names it holds. */
    private final Object heldKey = new Object();

    @Override
    protected void executeSQL(Connection connection, String lockName, String sql, String insertSql)
            throws LockException {
        if (!TransactionSynchronizationManager.isActualTransactionActive() || autoCommit(connection)) {
            super.executeSQL(connection, lockName, sql, insertSql);
            return;
        }
        Set<String> held = heldInThisTransaction();
        if (held.contains(lockName) && lockAgain(connection, lockName, sql)) {
            return;
        }
        Savepoint savepoint;
        try {
            savepoint = connection.setSavepoint();
        } catch (SQLException e) {
            throw new LockException("Failure setting a savepoint before lock " + lockName + ": " + e.getMessage(), e);
        }
        super.executeSQL(rollingBackTo(connection, savepoint), lockName, sql, insertSql);
        try {
            // the row lock stays with the transaction
            connection.releaseSavepoint(savepoint);
        } catch (SQLException e) {
            throw new LockException("Failure releasing the savepoint of lock " + lockName + ": " + e.getMessage(), e);
        }
        held.add(lockName);
    }

    /**
     * @return whether the connection commits each statement: not the Spring transaction's, though one is active on
     *     this thread (Quartz's connection provider is a JVM-wide registry by scheduler name, so two application
     *     contexts in one JVM share the first one's data source): nothing of the caller's to undo, and no savepoint
     *     to set
     */
    private static boolean autoCommit(Connection connection) {
        try {
            return connection.getAutoCommit();
        } catch (SQLException e) {
            // a broken connection: Quartz's own handling reports it
            return true;
        }
    }

    /**
     * Takes again a lock this transaction holds: the statement finds the row locked by the transaction itself, so it
     * neither waits nor retries. A failure (a cancel, a broken connection) fails the caller's transaction as a whole.
     *
     * @return false when the row is not there: the transaction inserted it (Quartz writes its lock rows when first
     *     taken) and a rollback to a savepoint of its own removed it since; the lock is then taken as a first time
     */
    private static boolean lockAgain(Connection connection, String lockName, String sql) throws LockException {
        try (PreparedStatement select = connection.prepareStatement(sql)) {
            select.setString(1, lockName);
            try (ResultSet row = select.executeQuery()) {
                return row.next();
            }
        } catch (SQLException e) {
            throw new LockException("Failure taking again lock " + lockName + " the transaction holds: "
                    + e.getMessage(), e);
        }
    }

    /**
     * @return the names of the locks the current transaction took through this handler; unbound while it is
     *     suspended (an inner transaction of its own holds none of them) and when it ends. Not tracked, so empty each
     *     time, without transaction synchronization
     */
    @SuppressWarnings("unchecked")
    private Set<String> heldInThisTransaction() {
        Set<String> held = (Set<String>) TransactionSynchronizationManager.getResource(heldKey);
        if (held != null) {
            return held;
        }
        Set<String> fresh = new HashSet<>();
        if (!TransactionSynchronizationManager.isSynchronizationActive()) {
            return fresh;
        }
        TransactionSynchronizationManager.bindResource(heldKey, fresh);
        TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
            @Override
            public void suspend() {
                TransactionSynchronizationManager.unbindResource(heldKey);
            }

            @Override
            public void resume() {
                TransactionSynchronizationManager.bindResource(heldKey, fresh);
            }

            @Override
            public void afterCompletion(int status) {
                TransactionSynchronizationManager.unbindResourceIfPossible(heldKey);
            }
        });
        return fresh;
    }

    /** @return {@code connection}, whose {@code rollback()} goes back to {@code savepoint} instead */
    private static Connection rollingBackTo(Connection connection, Savepoint savepoint) {
        return (Connection) Proxy.newProxyInstance(SavepointRowLockSemaphore.class.getClassLoader(),
                new Class<?>[] {Connection.class}, (proxy, method, arguments) -> {
                    if (method.getName().equals("rollback") && method.getParameterCount() == 0) {
                        connection.rollback(savepoint);
                        return null;
                    }
                    try {
                        return method.invoke(connection, arguments);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }
}
