package dev.onebeat.scheduler.bench;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Locale;

/**
 * Two counts of transactions at one moment, read through the admin URL's database so that reading
 * them moves neither:
 * <ul>
 *   <li>{@code xids}: the next transaction id of the server. Every transaction that writes (or locks
 *       a row) takes one, committed or not, in any database; read-only ones take none. Exact at
 *       every moment, so it is the one the commits per fire are computed from: those are the
 *       transactions that flush the WAL on commit.</li>
 *   <li>{@code commits}: {@code pg_stat_database.xact_commit} of the benchmark database, every
 *       commit, read-only ones included, but only as far as sessions have reported them (since
 *       PostgreSQL 15 at most once a second, and an idle session may hold its counts longer, see
 *       {@link CommitCounter}); an approximation shown beside the first.</li>
 * </ul>
 */
record TransactionMarks(long xids, long commits) {

    static TransactionMarks read(String adminUrl, BenchDatabase database) {
        try (Connection admin = DriverManager.getConnection(adminUrl); Statement statement = admin.createStatement();
             ResultSet row = statement.executeQuery("SELECT pg_snapshot_xmax(pg_current_snapshot())::text::bigint,"
                     + " (SELECT xact_commit FROM pg_stat_database WHERE datname = '" + database.name() + "')")) {
            row.next();
            return new TransactionMarks(row.getLong(1), row.getLong(2));
        } catch (SQLException e) {
            throw new IllegalStateException("could not read the transaction counters", e);
        }
    }

    TransactionMarks minus(TransactionMarks earlier) {
        return new TransactionMarks(xids - earlier.xids, commits - earlier.commits);
    }

    /**
     * The transactions a burst took: those of its window less what an idle window before it took,
     * scaled to the burst window's length.
     */
    static String perFire(TransactionMarks burst, Duration burstWindow, TransactionMarks idle, Duration idleWindow,
                          long fires) {
        double scale = burstWindow.toMillis() / (double) idleWindow.toMillis();
        double writes = burst.xids - idle.xids * scale;
        double commits = burst.commits - idle.commits * scale;
        return String.format(Locale.ROOT, "write transactions %,d in %.1f s (idle: %,d in %.1f s) → %.4f per fire;"
                        + " commits as reported %,d (idle %,d) → %.4f per fire", burst.xids, burstWindow.toMillis() / 1e3,
                idle.xids, idleWindow.toMillis() / 1e3, fires == 0 ? Double.NaN : writes / fires, burst.commits,
                idle.commits, fires == 0 ? Double.NaN : commits / fires);
    }
}
