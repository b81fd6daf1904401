package dev.onebeat.worker.journal;

import dev.onebeat.worker.metrics.WorkerMetrics;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Objects;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Process-once for one consumer, owning the transaction: each {@link #process} call begins a
 * transaction, inserts the journal entry, runs the work and commits. On any failure it rolls back
 * and rethrows, leaving no entry, so the redelivery applies the work. Acknowledge the message to
 * the broker only after {@code process} returned: a crash between the commit and the ack makes the
 * redelivery a duplicate, which is skipped.
 *
 * <p>The key comes from the message, whatever carried it: the task row's idempotency key, a Kafka or
 * AMQP header, a field of the body. It must be the same on every delivery of the message.
 *
 * <p>Thread-safe; share one instance per consumer.
 */
public final class IdempotentConsumer {

    private static final Logger log = LoggerFactory.getLogger(IdempotentConsumer.class);

    private final DataSource dataSource;
    private final String consumer;
    private final WorkerMetrics metrics;
    private final DuplicateFilter filter;
    private final ProcessedJournal journal;

    private IdempotentConsumer(DataSource dataSource, String consumer, WorkerMetrics metrics, DuplicateFilter filter) {
        this.dataSource = Objects.requireNonNull(dataSource, "dataSource must not be null");
        this.consumer = JournalKeys.consumer(consumer);
        this.metrics = Objects.requireNonNull(metrics, "metrics must not be null");
        this.filter = Objects.requireNonNull(filter, "filter must not be null");
        this.journal = new ProcessedJournal(metrics);
    }

    /**
     * @param dataSource where the journal and the handler's tables live
     * @param consumer who processes, 1 to 200 characters (Unicode code points), stable across deploys
     * @param metrics where processed and duplicate deliveries are counted
     * @return a consumer without a duplicate filter
     */
    public static IdempotentConsumer of(DataSource dataSource, String consumer, WorkerMetrics metrics) {
        return new IdempotentConsumer(dataSource, consumer, metrics, DuplicateFilter.NONE);
    }

    /**
     * @param filter consulted before the journal, and told of each key after its commit
     * @return a copy of this consumer that uses the filter
     */
    public IdempotentConsumer withFilter(DuplicateFilter filter) {
        return new IdempotentConsumer(dataSource, consumer, metrics, filter);
    }

    /** @return the consumer name the journal entries carry */
    public String consumer() {
        return consumer;
    }

    /** Same as {@link #process(String, String, Work)} without a task name. */
    public boolean process(String key, Work work) {
        return process(null, key, work);
    }

    /**
     * Applies the work once per key, in a transaction together with the journal entry.
     *
     * @param task the task or message type, a metrics tag only; may be null
     * @param key the message's idempotency key, 1 to 320 characters (Unicode code points)
     * @param work the handler's database work
     * @return true if the work was applied and committed, false if the key was a duplicate
     * @throws JournalException (or the work's own unchecked exception) after rolling back
     */
    public boolean process(String task, String key, Work work) {
        JournalKeys.key(key);
        Objects.requireNonNull(work, "work must not be null");
        if (filter.seen(consumer, key)) {
            metrics.duplicate(consumer, task);
            log.debug("Skipped duplicate seen by the filter consumer={} task={} key={}", consumer, task, key);
            return false;
        }
        boolean applied = inTransaction(connection -> journal.processOnce(connection, consumer, task, key, work), key);
        // a duplicate was committed by another delivery, so it may be marked as well
        filter.markProcessed(consumer, key);
        if (applied) {
            metrics.processed(consumer, task);
        }
        return applied;
    }

    private boolean inTransaction(Attempt attempt, String key) {
        try (Connection connection = dataSource.getConnection()) {
            boolean autoCommit = connection.getAutoCommit();
            connection.setAutoCommit(false);
            try {
                boolean applied = attempt.apply(connection);
                connection.commit();
                return applied;
            } catch (RuntimeException | SQLException e) {
                rollback(connection, e);
                throw e;
            } finally {
                connection.setAutoCommit(autoCommit);
            }
        } catch (SQLException e) {
            throw new JournalException("transaction failed for consumer=" + consumer + " key=" + key, e);
        }
    }

    private static void rollback(Connection connection, Exception cause) {
        try {
            connection.rollback();
        } catch (SQLException e) {
            cause.addSuppressed(e);
        }
    }

    @FunctionalInterface
    private interface Attempt {
        boolean apply(Connection connection) throws SQLException;
    }
}
