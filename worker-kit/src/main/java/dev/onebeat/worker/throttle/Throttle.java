package dev.onebeat.worker.throttle;

import dev.onebeat.worker.ColumnText;
import dev.onebeat.worker.metrics.WorkerMetrics;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * "At most one notification of kind T per subject per window" as one conditional upsert on
 * {@code onebeat_throttle}: the row is created, or its window moved forward only if the previous
 * one has ended. Concurrent callers queue on the row lock and re-check the condition against the
 * winner's new window, so exactly one of them acquires; there is no SELECT-then-INSERT gap.
 *
 * <p>Windows are measured with the database's {@code now()}, the start time of the transaction:
 * call it in a short transaction (or with auto-commit) so the window starts when the caller acts.
 * An acquisition made in a transaction that rolls back is released with it.
 */
public final class Throttle {

    private static final Logger log = LoggerFactory.getLogger(Throttle.class);

    // PRIMARY KEY(kind, subject) and the WHERE on the current window make one acquisition per window
    private static final String ACQUIRE = "INSERT INTO onebeat_throttle (kind, subject, until) "
            + "VALUES (?, ?, now() + ? * interval '1 millisecond') "
            + "ON CONFLICT (kind, subject) DO UPDATE SET until = EXCLUDED.until "
            + "WHERE onebeat_throttle.until <= now() RETURNING 1";

    private final WorkerMetrics metrics;

    public Throttle(WorkerMetrics metrics) {
        this.metrics = Objects.requireNonNull(metrics, "metrics must not be null");
    }

    /**
     * @param connection where {@code onebeat_throttle} lives; auto-commit or the caller's transaction
     * @param kind the notification kind, 1 to 100 characters (Unicode code points, as the column counts)
     * @param subject who it is about (a user id), 1 to 200 characters (Unicode code points)
     * @param window how long after an acquisition the next is refused; at least one millisecond
     * @return true if the caller may send now; false if the current window is held, counted as throttled
     * @throws ThrottleException if the statement failed
     */
    public boolean tryAcquire(Connection connection, String kind, String subject, Duration window) {
        Objects.requireNonNull(connection, "connection must not be null");
        ColumnText.require("kind", kind, 100);
        ColumnText.require("subject", subject, 200);
        Objects.requireNonNull(window, "window must not be null");
        if (window.toMillis() < 1) {
            throw new IllegalArgumentException("window must be at least one millisecond, was " + window);
        }
        boolean acquired = acquire(connection, kind, subject, window.toMillis());
        if (!acquired) {
            metrics.throttled(kind);
            log.debug("Throttled kind={} subject={} window={}", kind, subject, window);
        }
        return acquired;
    }

    private static boolean acquire(Connection connection, String kind, String subject, long windowMillis) {
        try (PreparedStatement statement = connection.prepareStatement(ACQUIRE)) {
            statement.setString(1, kind);
            statement.setString(2, subject);
            statement.setLong(3, windowMillis);
            try (ResultSet rows = statement.executeQuery()) {
                return rows.next();
            }
        } catch (SQLException e) {
            throw new ThrottleException("could not acquire throttle kind=" + kind + " subject=" + subject, e);
        }
    }
}
