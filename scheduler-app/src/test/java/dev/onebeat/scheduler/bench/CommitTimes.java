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
 * When each fire committed, as the database saw it, at a cost of about one row per transaction rather than one per
 * fire: a deferred constraint trigger on {@code onebeat_fire} writes its transaction's id and {@code clock_timestamp()}
 * into {@code bench_xact_commit} once, as the transaction commits (its later rows find the transaction marked), and a
 * statement trigger counts each insert's fires per instant into {@code bench_xact_fires}. The view
 * {@code bench_fire_commit} gives every ledger row its transaction's commit time, by the row's {@code xmin} (the
 * fire path writes and updates ledger rows in its top-level transaction only). A fire rolled back leaves no trace in either table.
 *
 * <p>Until 6 December 2026 the trigger copied every ledger row into a table, and the benchmark counted that table
 * every 20 ms while it waited for the burst: at 100,000 fires an insert and an index entry more per fire, and a count
 * of up to 100,000 rows fifty times a second on the same server. The time between the trigger and the end of the
 * commit (the WAL flush) is not in the figures, as before.
 */
final class CommitTimes {

    private final BenchDatabase database;

    CommitTimes(BenchDatabase database) {
        this.database = database;
    }

    /** Installs the triggers; the ledger must exist (a replica has started once). */
    void install() throws SQLException {
        try (Connection connection = database.connect(); Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE bench_xact_commit (xact BIGINT PRIMARY KEY, committed_at TIMESTAMPTZ NOT NULL)");
            statement.execute("""
                    CREATE TABLE bench_xact_fires (
                        xact         BIGINT      NOT NULL,
                        scheduled_at TIMESTAMPTZ NOT NULL,
                        fires        INTEGER     NOT NULL)""");
            statement.execute("CREATE INDEX bench_xact_fires_scheduled_idx ON bench_xact_fires (scheduled_at)");
            // the 32-bit id a row's xmin holds. The view's join by xmin holds because the fire path writes ledger rows
            // in its top-level transaction only (never in a savepoint) and nothing updates them later; the fire counts
            // include rows deleted later in the same transaction (past a purge horizon, a failed job), which no run of
            // the benchmark has
            statement.execute("""
                    CREATE FUNCTION bench_xact() RETURNS BIGINT LANGUAGE sql AS $$
                        SELECT txid_current() % 4294967296
                    $$""");
            statement.execute("""
                    CREATE FUNCTION bench_fires_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
                    BEGIN
                        INSERT INTO bench_xact_fires SELECT bench_xact(), scheduled_at, count(*) FROM inserted
                        GROUP BY scheduled_at;
                        RETURN NULL;
                    END $$""");
            statement.execute("""
                    CREATE TRIGGER bench_fires_inserted AFTER INSERT ON onebeat_fire REFERENCING NEW TABLE AS inserted
                    FOR EACH STATEMENT EXECUTE FUNCTION bench_fires_inserted()""");
            statement.execute("""
                    CREATE FUNCTION bench_fire_committed() RETURNS trigger LANGUAGE plpgsql AS $$
                    BEGIN
                        IF current_setting('bench.commit_marked', true) IS DISTINCT FROM 'yes' THEN
                            PERFORM set_config('bench.commit_marked', 'yes', true);
                            INSERT INTO bench_xact_commit VALUES (bench_xact(), clock_timestamp());
                        END IF;
                        RETURN NULL;
                    END $$""");
            statement.execute("""
                    CREATE CONSTRAINT TRIGGER bench_fire_commit AFTER INSERT ON onebeat_fire
                    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bench_fire_committed()""");
            statement.execute("""
                    CREATE VIEW bench_fire_commit AS
                    SELECT f.job_name, f.scheduled_at, f.fired_at, f.node, f.trigger_kind, c.committed_at, c.xact
                    FROM onebeat_fire f JOIN bench_xact_commit c ON c.xact = f.xmin::text::bigint""");
        }
    }

    /** @return fires committed for {@code scheduledAt} so far */
    long committed(Instant scheduledAt) throws SQLException {
        return count("SELECT coalesce(sum(f.fires), 0) FROM bench_xact_fires f JOIN bench_xact_commit c USING (xact)"
                + " WHERE f.scheduled_at = ?", scheduledAt, scheduledAt);
    }

    /** @return fires committed for instants in [{@code from}, {@code to}) so far */
    long committed(Instant from, Instant to) throws SQLException {
        return count("SELECT coalesce(sum(f.fires), 0) FROM bench_xact_fires f JOIN bench_xact_commit c USING (xact)"
                + " WHERE f.scheduled_at >= ? AND f.scheduled_at < ?", from, to);
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

    /** The transactions that committed the fires of one instant, each from its first fire's {@code fired_at}. */
    List<Batch> batches(Instant scheduledAt) throws SQLException {
        try (Connection connection = database.connect();
             PreparedStatement query = connection.prepareStatement("""
                     SELECT min(node), min(fired_at) - scheduled_at, max(committed_at) - min(fired_at), count(*)
                     FROM bench_fire_commit WHERE scheduled_at = ?
                     GROUP BY xact, scheduled_at ORDER BY min(fired_at)""")) {
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
