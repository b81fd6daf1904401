package dev.onebeat.scheduler.boot.database;

import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;
import javax.sql.DataSource;
import org.postgresql.PGConnection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.datasource.DataSourceUtils;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The transactions of a background task that a shutdown stops, rolled back, instead of leaving them to the closing
 * pool. The pool aborts a connection still in use when it closes: a task that read the whole catalog at a million jobs
 * (seconds) then failed in the middle, its rollback failed too, and the shutdown logged an error for what was only a
 * task cut short. {@link #beginStop}, as the shutdown begins, keeps new transactions from starting and cancels the
 * statement the running one waits on (again every {@value #CANCEL_EVERY_MS} ms, so that one caught between two
 * statements is cancelled in its next, if that runs longer); {@link #stop}, before the pool closes, waits for it to
 * roll back. A task of many short statements calls {@link #checkpoint}
 * between them, which ends it at the first after the stop began.
 *
 * <p>The cancel is the driver's ({@code PGConnection.cancelQuery}): it goes to the task's own session, by the key the
 * server gave it, over a socket of its own, so it needs no connection of the pool and cannot reach another session,
 * even on another server after a failover. Neither Spring ({@code JdbcClient} hands out no statement to cancel) nor
 * the pool offers this, hence this class. The cancel is sent only while the task's statements run on its connection,
 * never once its commit may have begun: the connection may be another thread's after that.
 */
public final class StoppableTransactions {

    private static final Logger log = LoggerFactory.getLogger(StoppableTransactions.class);
    /** How often the stop cancels the task's running statement again while it waits for the task to end. */
    private static final long CANCEL_EVERY_MS = 100;
    /** PostgreSQL's SQLSTATE for a statement cancelled on request. */
    private static final String QUERY_CANCELED = "57014";

    private final TransactionTemplate transactions;
    private final DataSource dataSource;
    private final String task;
    /** Held by the task from before its transaction begins until after it ends (commit or rollback). */
    private final ReentrantLock running = new ReentrantLock();
    /** Guards {@link #session}: the stop cancels only while the task's statements run on that session. */
    private final Object sessionLock = new Object();
    private PGConnection session;
    /**
     * The thread that cancels the running task's statements once a stop has begun; guarded by {@link #stopLock}, not
     * by {@link #sessionLock}, which a cancel holds while the driver reaches the server (up to its
     * {@code cancelSignalTimeout}).
     */
    private Thread canceller;
    private final Object stopLock = new Object();
    private volatile boolean stopping;
    /** Set when a stop gave up waiting: the pool's close ends the task, and the canceller sends no more. */
    private volatile boolean gaveUp;
    private volatile boolean cancelled;

    /**
     * @param transactions the task's transactions
     * @param dataSource their data source, the one their transaction manager binds connections of
     * @param task what the task is, in the stop's log
     */
    public StoppableTransactions(TransactionTemplate transactions, DataSource dataSource, String task) {
        this.transactions = transactions;
        this.dataSource = dataSource;
        this.task = task;
    }

    /**
     * Runs {@code work} in a transaction, one at a time.
     *
     * @return what {@code work} returned
     * @throws Stopped when a stop began before it, or cancelled its statement (its transaction was rolled back); any
     *     other failure, during a stop too, as it came
     */
    public <T> T execute(Supplier<T> work) {
        running.lock();
        try {
            if (stopping) {
                throw new Stopped(task + " not started: the shutdown has begun", null);
            }
            return transactions.execute(status -> {
                PGConnection connection = pgConnection();
                synchronized (sessionLock) {
                    session = connection;
                }
                try {
                    return work.get();
                } finally {
                    // before the commit, and before the pool may lend the connection to another thread
                    synchronized (sessionLock) {
                        session = null;
                    }
                }
            });
        } catch (RuntimeException e) {
            if (stopping && cancelled && cancelledStatement(e)) {
                throw new Stopped(task + " stopped by the shutdown, rolled back", e);
            }
            throw e;
        } finally {
            running.unlock();
        }
    }

    private PGConnection pgConnection() {
        try {
            return DataSourceUtils.getConnection(dataSource).unwrap(PGConnection.class);
        } catch (SQLException e) {
            throw new IllegalStateException(task + ": not a PostgreSQL connection", e);
        }
    }

    private static boolean cancelledStatement(Throwable error) {
        for (Throwable cause = error; cause != null; cause = cause.getCause()) {
            if (cause instanceof SQLException sql && QUERY_CANCELED.equals(sql.getSQLState())) {
                return true;
            }
        }
        return false;
    }

    /**
     * Ends the running task, rolled back, if a stop has begun; called by a task between its steps.
     *
     * @throws Stopped when a stop has begun
     */
    public void checkpoint() {
        if (stopping) {
            throw new Stopped(task + " stopped by the shutdown, rolled back", null);
        }
    }

    /**
     * Begins a stop without waiting for it: keeps new transactions from starting, and, on a thread of its own, cancels
     * the running one's statements until it has ended (rolled back). Called as the shutdown begins, so that the task
     * ends while the replica's fires and relay finish, before {@link #stop} waits for it; a second call does nothing.
     */
    public void beginStop() {
        synchronized (stopLock) {
            if (canceller != null) {
                return;
            }
            stopping = true;
            canceller = new Thread(this::cancelUntilEnded, "onebeat-stop-" + task.replace(' ', '-'));
            canceller.setDaemon(true);
            canceller.start();
        }
    }

    private void cancelUntilEnded() {
        try {
            while (!running.tryLock(CANCEL_EVERY_MS, TimeUnit.MILLISECONDS)) {
                if (gaveUp) {
                    return;
                }
                cancelRunningStatement();
            }
            running.unlock();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Keeps new transactions from starting, cancels the running one's statements until it ends (rolled back), and
     * waits for that up to {@code atMost} ({@link #beginStop}, if it has not begun, then the wait).
     *
     * @return whether no transaction runs any more
     */
    public boolean stop(Duration atMost) {
        beginStop();
        Thread cancelling;
        synchronized (stopLock) {
            cancelling = canceller;
        }
        try {
            // at least 1 ms: join(0) would wait for ever
            cancelling.join(Math.max(1, atMost.toMillis()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            gaveUp = true;
            log.warn("stop interrupted, not waited for, left to the pool's close task={}", task);
            return false;
        }
        if (cancelling.isAlive()) {
            gaveUp = true;
            log.warn("still running after the shutdown asked it to stop, left to the pool's close task={} waitedMs={}",
                    task, atMost.toMillis());
            return false;
        }
        return true;
    }

    private void cancelRunningStatement() {
        synchronized (sessionLock) {
            if (session == null) {
                return;
            }
            try {
                // a session between statements ignores it: the next cancel, or the next statement's, finds it busy
                cancelled = true;
                session.cancelQuery();
            } catch (SQLException e) {
                log.warn("cancel not sent task={} error={}", task, e.toString());
            }
        }
    }

    /**
     * A transaction a stop kept from starting, or ended at a {@link #checkpoint}, or whose statement it cancelled (the
     * cause); the last two were rolled back.
     */
    public static final class Stopped extends RuntimeException {

        Stopped(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
