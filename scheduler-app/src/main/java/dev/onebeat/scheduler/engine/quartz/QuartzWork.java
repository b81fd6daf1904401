package dev.onebeat.scheduler.engine.quartz;

import dev.onebeat.scheduler.boot.database.StoppableTransactions;
import org.quartz.SchedulerException;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Runs Quartz writes in a Spring transaction: Spring's job store holds Quartz's {@code QRTZ_LOCKS} row
 * lock only inside one, and an admin change's audit row must commit with the change.
 */
public final class QuartzWork {

    /** A unit of work that may throw Quartz's checked exception. */
    public interface Body<T> {
        T run() throws SchedulerException;
    }

    private QuartzWork() {
    }

    public static <T> T inTransaction(TransactionTemplate transactions, Body<T> body) {
        return transactions.execute(status -> unchecked(body));
    }

    /** {@link #inTransaction(TransactionTemplate, Body)} in a transaction a shutdown stops. */
    public static <T> T inTransaction(StoppableTransactions transactions, Body<T> body) {
        return transactions.execute(() -> unchecked(body));
    }

    private static <T> T unchecked(Body<T> body) {
        try {
            return body.run();
        } catch (SchedulerException e) {
            throw new IllegalStateException("Quartz store write failed: " + e.getMessage(), e);
        }
    }
}
