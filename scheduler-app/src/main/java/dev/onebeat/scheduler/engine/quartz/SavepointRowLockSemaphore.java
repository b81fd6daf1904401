package dev.onebeat.scheduler.engine.quartz;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Savepoint;
import org.quartz.impl.jdbcjobstore.LockException;
import org.quartz.impl.jdbcjobstore.StdRowLockSemaphore;
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
 * it: a failed try undoes only itself. Out of a transaction (Quartz's own work on its own connections) nothing
 * changes. Written by hand because Quartz has no setting for it and no other lock handler fits PostgreSQL.
 */
public class SavepointRowLockSemaphore extends StdRowLockSemaphore {

    @Override
    protected void executeSQL(Connection connection, String lockName, String sql, String insertSql)
            throws LockException {
        if (!TransactionSynchronizationManager.isActualTransactionActive()) {
            super.executeSQL(connection, lockName, sql, insertSql);
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
