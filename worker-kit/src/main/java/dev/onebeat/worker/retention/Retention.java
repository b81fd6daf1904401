package dev.onebeat.worker.retention;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Deletes journal entries, finished tasks and finished effects older than a horizon, a bounded
 * batch per statement so that no delete holds many row locks or bloats one transaction.
 *
 * <p>Keep the journal longer than the longest time a redelivery can arrive (broker retention, retry
 * schedule, manual replays): a key forgotten too early makes its next delivery look new.
 */
public final class Retention {

    private static final Logger log = LoggerFactory.getLogger(Retention.class);

    private Retention() {
    }

    /**
     * Purges everything older than {@code olderThan} before the database's current time. Each batch
     * is its own short transaction, so a purge interrupted halfway keeps what it deleted and the
     * next run continues.
     *
     * @param dataSource where the onebeat tables live
     * @param olderThan the age past which rows go; positive
     * @param batchSize rows per delete statement, 1 to 100,000
     * @return the rows deleted per table
     * @throws RetentionException if a statement failed; earlier batches stay deleted
     */
    public static Purged purge(DataSource dataSource, Duration olderThan, int batchSize) {
        Objects.requireNonNull(dataSource, "dataSource must not be null");
        checkAge(olderThan);
        checkBatchSize(batchSize);
        try (Connection connection = dataSource.getConnection()) {
            connection.setAutoCommit(true);
            return purge(connection, databaseNow(connection).minus(olderThan), batchSize, Long.MAX_VALUE);
        } catch (SQLException e) {
            throw new RetentionException("retention purge failed olderThan=" + olderThan, e);
        }
    }

    /**
     * Purges rows older than {@code horizon} on the caller's connection, stopping after
     * {@code maxRows} rows in all. In auto-commit mode each batch commits on its own; inside a
     * transaction everything commits with it, which is why the total is bounded.
     *
     * @param connection where the onebeat tables live
     * @param horizon rows created (journal: processed) before this instant go
     * @param batchSize rows per delete statement, 1 to 100,000
     * @param maxRows the most rows deleted by this call; positive
     * @return the rows deleted per table; the journal is purged first, then tasks, then effects
     * @throws RetentionException if a statement failed
     */
    public static Purged purge(Connection connection, Instant horizon, int batchSize, long maxRows) {
        Objects.requireNonNull(connection, "connection must not be null");
        Objects.requireNonNull(horizon, "horizon must not be null");
        checkBatchSize(batchSize);
        if (maxRows < 1) {
            throw new IllegalArgumentException("maxRows must be positive, was " + maxRows);
        }
        OffsetDateTime at = horizon.atOffset(ZoneOffset.UTC);
        Map<Purge, Long> deleted = new EnumMap<>(Purge.class);
        long remaining = maxRows;
        try {
            for (Purge table : Purge.values()) {
                long count = 0;
                int batch;
                do {
                    int limit = (int) Math.min(batchSize, remaining);
                    batch = limit == 0 ? 0 : table.batch(connection, at, limit);
                    count += batch;
                    remaining -= batch;
                } while (batch == batchSize && remaining > 0);
                deleted.put(table, count);
            }
        } catch (SQLException e) {
            throw new RetentionException("retention purge failed horizon=" + horizon, e);
        }
        Purged purged = new Purged(deleted.get(Purge.JOURNAL), deleted.get(Purge.TASKS), deleted.get(Purge.EFFECTS));
        log.info("Retention purged horizon={} journal={} tasks={} effects={} limitReached={}",
                horizon, purged.journal(), purged.tasks(), purged.effects(), remaining == 0);
        return purged;
    }

    private static Instant databaseNow(Connection connection) throws SQLException {
        // the database's clock, the one that wrote processed_at and created_at
        try (PreparedStatement now = connection.prepareStatement("SELECT now()");
             ResultSet row = now.executeQuery()) {
            row.next();
            return row.getObject(1, OffsetDateTime.class).toInstant();
        }
    }

    static void checkAge(Duration olderThan) {
        Objects.requireNonNull(olderThan, "olderThan must not be null");
        if (olderThan.isNegative() || olderThan.isZero()) {
            throw new IllegalArgumentException("olderThan must be positive, was " + olderThan);
        }
    }

    static void checkBatchSize(int batchSize) {
        if (batchSize < 1 || batchSize > 100_000) {
            throw new IllegalArgumentException("batchSize must be 1 to 100000, was " + batchSize);
        }
    }
}
