package dev.onebeat.scheduler.bench;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * When each fire committed, as the database saw it: a deferred constraint trigger on
 * {@code onebeat_fire} copies every ledger row, with {@code clock_timestamp()}, into
 * {@code bench_fire_commit} as its transaction commits. A fire rolled back to its savepoint leaves
 * no copy. The copy is one more row insert per fire in the fire's own transaction, so the figures
 * carry that small cost; the time between the trigger and the end of the commit (the WAL flush) is
 * not in them.
 */
final class CommitTimes {

    private final BenchDatabase database;

    CommitTimes(BenchDatabase database) {
        this.database = database;
    }

    /** Installs the trigger; the ledger must exist (a replica has started once). */
    void install() throws SQLException {
        try (Connection connection = database.connect(); Statement statement = connection.createStatement()) {
            statement.execute("""
                    CREATE TABLE bench_fire_commit (
                        job_name     VARCHAR(150) NOT NULL,
                        scheduled_at TIMESTAMPTZ  NOT NULL,
                        fired_at     TIMESTAMPTZ  NOT NULL,
                        node         VARCHAR(200) NOT NULL,
                        trigger_kind VARCHAR(16)  NOT NULL,
                        committed_at TIMESTAMPTZ  NOT NULL)""");
            statement.execute("CREATE INDEX bench_fire_commit_scheduled_idx ON bench_fire_commit (scheduled_at)");
            statement.execute("""
                    CREATE FUNCTION bench_fire_committed() RETURNS trigger LANGUAGE plpgsql AS $$
                    BEGIN
                        INSERT INTO bench_fire_commit
                        VALUES (NEW.job_name, NEW.scheduled_at, NEW.fired_at, NEW.node, NEW.trigger_kind, clock_timestamp());
                        RETURN NULL;
                    END $$""");
            statement.execute("""
                    CREATE CONSTRAINT TRIGGER bench_fire_commit AFTER INSERT ON onebeat_fire
                    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bench_fire_committed()""");
        }
    }

    /** @return fires committed for {@code scheduledAt} so far */
    long committed(Instant scheduledAt) throws SQLException {
        return count("SELECT count(*) FROM bench_fire_commit WHERE scheduled_at = ?", scheduledAt, scheduledAt);
    }

    /** @return fires committed for instants in [{@code from}, {@code to}) so far */
    long committed(Instant from, Instant to) throws SQLException {
        return count("SELECT count(*) FROM bench_fire_commit WHERE scheduled_at >= ? AND scheduled_at < ?", from, to);
    }

    /**
     * The fires of instants in [{@code from}, {@code to}): their commit lags, and how many of the
     * jobs of {@code expectedFires} ({@code job_name, scheduled_at} pairs, as SQL) have none.
     */
    Lags lags(Instant from, Instant to, String expectedFires) throws SQLException {
        try (Connection connection = database.connect()) {
            Lags lags;
            try (PreparedStatement query = connection.prepareStatement("""
                    SELECT count(*), count(DISTINCT (job_name, scheduled_at)),
                           percentile_disc(0.5) WITHIN GROUP (ORDER BY committed_at - scheduled_at),
                           percentile_disc(0.99) WITHIN GROUP (ORDER BY committed_at - scheduled_at),
                           max(committed_at - scheduled_at), min(committed_at - scheduled_at),
                           min(fired_at - scheduled_at), max(fired_at - scheduled_at)
                    FROM bench_fire_commit WHERE scheduled_at >= ? AND scheduled_at < ?""")) {
                query.setTimestamp(1, Timestamp.from(from));
                query.setTimestamp(2, Timestamp.from(to));
                try (ResultSet row = query.executeQuery()) {
                    row.next();
                    lags = new Lags(row.getLong(1), row.getLong(2), interval(row, 3), interval(row, 4), interval(row, 5),
                            interval(row, 6), interval(row, 7), interval(row, 8), 0, Map.of(), Map.of());
                }
            }
            long missing;
            try (PreparedStatement query = connection.prepareStatement("SELECT count(*) FROM (" + expectedFires
                    + ") AS e(job_name, scheduled_at) WHERE NOT EXISTS (SELECT 1 FROM onebeat_fire f"
                    + " WHERE f.job_name = e.job_name AND f.scheduled_at = e.scheduled_at)");
                 ResultSet row = query.executeQuery()) {
                row.next();
                missing = row.getLong(1);
            }
            return new Lags(lags.fires(), lags.distinct(), lags.p50(), lags.p99(), lags.max(), lags.min(),
                    lags.firstStart(), lags.lastStart(), missing,
                    groups(connection, "node", from, to), groups(connection, "trigger_kind", from, to));
        }
    }

    /**
     * The transactions that committed the fires of one instant, told apart by replica and start time
     * ({@code fired_at} is taken once per batch).
     */
    List<Batch> batches(Instant scheduledAt) throws SQLException {
        try (Connection connection = database.connect();
             PreparedStatement query = connection.prepareStatement("""
                     SELECT node, fired_at - scheduled_at, max(committed_at) - fired_at, count(*)
                     FROM bench_fire_commit WHERE scheduled_at = ?
                     GROUP BY node, scheduled_at, fired_at ORDER BY fired_at""")) {
            query.setTimestamp(1, Timestamp.from(scheduledAt));
            List<Batch> batches = new ArrayList<>();
            try (ResultSet rows = query.executeQuery()) {
                while (rows.next()) {
                    batches.add(new Batch(rows.getString(1), interval(rows, 2), interval(rows, 3), rows.getInt(4)));
                }
            }
            return batches;
        }
    }

    /** One transaction of fires: its replica, when it began after the instant, how long it took, its fires. */
    record Batch(String node, Duration startLag, Duration duration, int fires) {
    }

    /**
     * @param fires committed fires seen by the trigger
     * @param distinct distinct (job, instant) pairs among them; fewer than {@code fires} is a double fire
     * @param missing expected (job, instant) pairs without a ledger row
     * @param firstStart earliest {@code fired_at} after the instant: when the first transaction began
     */
    record Lags(long fires, long distinct, Duration p50, Duration p99, Duration max, Duration min,
                Duration firstStart, Duration lastStart, long missing, Map<String, Long> byNode,
                Map<String, Long> byTrigger) {

        String summary() {
            return String.format(Locale.ROOT, "commit lag p50 %s, p99 %s, max %s (first %s); transactions began %s"
                            + " to %s after the instant", millis(p50), millis(p99), millis(max), millis(min),
                    millis(firstStart), millis(lastStart));
        }
    }

    static String millis(Duration duration) {
        return duration == null ? "-" : String.format(Locale.ROOT, "%,d ms", duration.toMillis());
    }

    private static Map<String, Long> groups(Connection connection, String column, Instant from, Instant to)
            throws SQLException {
        try (PreparedStatement query = connection.prepareStatement("SELECT " + column + ", count(*) FROM bench_fire_commit"
                + " WHERE scheduled_at >= ? AND scheduled_at < ? GROUP BY 1 ORDER BY 1")) {
            query.setTimestamp(1, Timestamp.from(from));
            query.setTimestamp(2, Timestamp.from(to));
            Map<String, Long> counts = new LinkedHashMap<>();
            try (ResultSet rows = query.executeQuery()) {
                while (rows.next()) {
                    counts.put(rows.getString(1), rows.getLong(2));
                }
            }
            return counts;
        }
    }

    private long count(String sql, Instant first, Instant second) throws SQLException {
        try (Connection connection = database.connect(); PreparedStatement query = connection.prepareStatement(sql)) {
            query.setTimestamp(1, Timestamp.from(first));
            if (sql.chars().filter(c -> c == '?').count() > 1) {
                query.setTimestamp(2, Timestamp.from(second));
            }
            try (ResultSet row = query.executeQuery()) {
                row.next();
                return row.getLong(1);
            }
        }
    }

    /** An interval column read as its length in microseconds (PostgreSQL's resolution). */
    private static Duration interval(ResultSet row, int column) throws SQLException {
        Object value = row.getObject(column);
        if (value == null) {
            return null;
        }
        org.postgresql.util.PGInterval interval = (org.postgresql.util.PGInterval) value;
        double seconds = interval.getDays() * 86_400.0 + interval.getHours() * 3600.0 + interval.getMinutes() * 60.0
                + interval.getSeconds();
        return Duration.ofNanos(Math.round(seconds * 1e9));
    }
}
