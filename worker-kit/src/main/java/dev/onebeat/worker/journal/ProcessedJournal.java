package dev.onebeat.worker.journal;

import dev.onebeat.worker.metrics.WorkerMetrics;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The processed-key journal, used inside a transaction the caller owns.
 *
 * <p>{@link #processOnce} inserts the entry first and runs the work only if the insert took. Both
 * are on the caller's transaction, so they commit or roll back together: a crash or failure before
 * the commit leaves no entry and a redelivery applies the work, a commit makes every later delivery
 * a duplicate. Two deliveries racing on the same key are serialised by the primary key: the second
 * insert waits for the first transaction and then, if it committed, finds the conflict.
 *
 * <p>Use {@link IdempotentConsumer} when the kit should own the transaction.
 */
public final class ProcessedJournal {

    private static final Logger log = LoggerFactory.getLogger(ProcessedJournal.class);

    // PRIMARY KEY(consumer, idempotency_key) is the processed-once guard
    private static final String INSERT = "INSERT INTO onebeat_processed (consumer, idempotency_key) VALUES (?, ?) "
            + "ON CONFLICT DO NOTHING";

    private final WorkerMetrics metrics;

    public ProcessedJournal(WorkerMetrics metrics) {
        this.metrics = Objects.requireNonNull(metrics, "metrics must not be null");
    }

    /** Same as {@link #processOnce(Connection, String, String, String, Work)} without a task name. */
    public boolean processOnce(Connection transaction, String consumer, String key, Work work) {
        return processOnce(transaction, consumer, null, key, work);
    }

    /**
     * Records {@code key} as processed by {@code consumer} and, unless it already was, runs the work,
     * all on {@code transaction}. The caller commits; nothing counts as processed before it does.
     *
     * @param transaction a connection with auto-commit off
     * @param consumer who processes, 1 to 200 characters (Unicode code points); each consumer has its own set of keys
     * @param task the task or message type, a metrics tag only; may be null
     * @param key the message's idempotency key (from the task row or a header), 1 to 320 characters (Unicode code points)
     * @param work the handler's database work
     * @return true if the work ran, false if the key was a duplicate and the work was skipped
     * @throws JournalException if the insert or the work failed; roll the transaction back
     */
    public boolean processOnce(Connection transaction, String consumer, String task, String key, Work work) {
        Objects.requireNonNull(transaction, "transaction must not be null");
        JournalKeys.consumer(consumer);
        JournalKeys.key(key);
        Objects.requireNonNull(work, "work must not be null");
        if (!record(transaction, consumer, key)) {
            metrics.duplicate(consumer, task);
            log.debug("Skipped duplicate consumer={} task={} key={}", consumer, task, key);
            return false;
        }
        try {
            work.run(transaction);
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new JournalException("work failed for consumer=" + consumer + " key=" + key, e);
        }
        return true;
    }

    private static boolean record(Connection transaction, String consumer, String key) {
        try (PreparedStatement insert = transaction.prepareStatement(INSERT)) {
            insert.setString(1, consumer);
            insert.setString(2, key);
            return insert.executeUpdate() == 1;
        } catch (SQLException e) {
            throw new JournalException("could not record consumer=" + consumer + " key=" + key, e);
        }
    }
}
