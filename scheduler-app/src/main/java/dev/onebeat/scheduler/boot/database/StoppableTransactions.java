package dev.onebeat.scheduler.boot.database;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The transactions of a background task that a shutdown stops, rolled back, instead of leaving them to the closing
 * pool. The pool aborts a connection still in use when it closes: a task that read the whole catalog at a million jobs
 * (seconds) then failed in the middle, its rollback failed too, and the shutdown logged an error for what was only a
 * task cut short. {@link #stop} keeps new transactions from starting, cancels the statement of the one running (and
 * each next one, so that a task between two statements ends at its next) and waits for it to end.
 *
 * <p>Written here because neither Spring nor the pool offers it: {@code Statement.cancel} needs the statement, which
 * {@code JdbcClient} does not hand out, and a timeout would bound the task in normal running too. The cancel is sent
 * only while the task's transaction runs its statements on the connection, never after: the connection may be another
 * thread's then.
 */
public final class StoppableTransactions {

    private static final Logger log = LoggerFactory.getLogger(StoppableTransactions.class);
    /** How often the stop cancels the task's running statement again while it waits for the task to end. */
    private static final long CANCEL_EVERY_MS = 100;

    private final TransactionTemplate transactions;
    private final JdbcClient jdbc;
    private final String task;
    /** Held by the task from before its transaction begins until after it ends (commit or rollback). */
    private final ReentrantLock running = new ReentrantLock();
    /** Guards {@link #session}: the stop cancels only while the task's statements run on that session. */
    private final Object sessionLock = new Object();
    private Integer session;
    private volatile boolean stopping;

    /**
     * @param transactions the task's transactions
     * @param jdbc the same database, for the task's session id and the stop's cancel
     * @param task what the task is, in the stop's log
     */
    public StoppableTransactions(TransactionTemplate transactions, JdbcClient jdbc, String task) {
        this.transactions = transactions;
        this.jdbc = jdbc;
        this.task = task;
    }

    /**
     * Runs {@code work} in a transaction, one at a time.
     *
     * @return what {@code work} returned
     * @throws Stopped when a stop began before it or cancelled it; its transaction was rolled back
     */
    public <T> T execute(Supplier<T> work) {
        running.lock();
        try {
            if (stopping) {
                throw new Stopped(task, null);
            }
            return transactions.execute(status -> {
                Integer pid = jdbc.sql("SELECT pg_backend_pid()").query(Integer.class).single();
                synchronized (sessionLock) {
                    session = pid;
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
            if (stopping) {
                throw new Stopped(task, e);
            }
            throw e;
        } finally {
            running.unlock();
        }
    }

    /** @return whether {@link #stop} has begun */
    public boolean stopping() {
        return stopping;
    }

    /**
     * Keeps new transactions from starting, cancels the running one's statements until it ends (rolled back), and
     * waits for that up to {@code atMost}.
     *
     * @return whether no transaction runs any more
     */
    public boolean stop(Duration atMost) {
        stopping = true;
        long deadline = System.nanoTime() + atMost.toNanos();
        try {
            while (!running.tryLock(CANCEL_EVERY_MS, TimeUnit.MILLISECONDS)) {
                cancelRunningStatement();
                if (System.nanoTime() - deadline > 0) {
                    log.warn("{} still running {} ms after the shutdown asked it to stop; left to the pool's close",
                            task, atMost.toMillis());
                    return false;
                }
            }
            running.unlock();
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private void cancelRunningStatement() {
        synchronized (sessionLock) {
            if (session == null) {
                return;
            }
            try {
                // a session between statements ignores it: the next cancel, or the next statement's, finds it busy
                jdbc.sql("SELECT pg_cancel_backend(?)").param(session).query(Boolean.class).single();
            } catch (RuntimeException e) {
                log.debug("cancel of {} not sent: {}", task, e.toString());
            }
        }
    }

    /** A transaction a stop kept from starting or cancelled; it was rolled back. */
    public static final class Stopped extends RuntimeException {

        Stopped(String task, Throwable cause) {
            super(task + " stopped by the shutdown, rolled back", cause);
        }
    }
}
