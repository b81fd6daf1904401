package dev.onebeat.scheduler.bench;

import dev.onebeat.scheduler.engine.schedule.FireMoments;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/**
 * Where the fires of a spread burst began: a histogram of the moments the ledger recorded ({@code fired_at}, the
 * database's time of each claim) per second past the instant, and how far each began from the moment
 * {@link FireMoments} planned for it (never before, by the design; by how much after, measured).
 */
final class SpreadHistogram {

    private static final int BAR = 60;

    private SpreadHistogram() {
    }

    /**
     * @param spread the jobs' spread
     * @return the report: one line per second of the spread, then the lateness from the planned moments
     */
    static String of(BenchDatabase database, Instant instant, Duration spread) throws SQLException {
        int seconds = (int) spread.toSeconds();
        int[] perSecond = new int[seconds + 1];
        List<Long> fromPlanned = new ArrayList<>();
        int early = 0;
        try (Connection connection = database.connect();
             PreparedStatement statement = connection.prepareStatement(
                     "SELECT job_name, fired_at FROM onebeat_fire WHERE scheduled_at = ? AND run_id = ''")) {
            statement.setTimestamp(1, Timestamp.from(instant));
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    Instant fired = rows.getTimestamp(2).toInstant();
                    Instant planned = instant.plus(FireMoments.offset(rows.getString(1), Duration.ZERO, spread, instant));
                    perSecond[(int) Math.min(seconds, Math.max(0, Duration.between(instant, fired).toSeconds()))]++;
                    long late = Duration.between(planned, fired).toMillis();
                    early += late < 0 ? 1 : 0;
                    fromPlanned.add(late);
                }
            }
        }
        int most = 1;
        for (int count : perSecond) {
            most = Math.max(most, count);
        }
        StringBuilder text = new StringBuilder(String.format(Locale.ROOT,
                "  fires per second past the instant (spread %d s, %,d fires):%n", seconds, fromPlanned.size()));
        for (int second = 0; second <= seconds; second++) {
            if (second == seconds && perSecond[second] == 0) {
                break;
            }
            text.append(String.format(Locale.ROOT, "  %s%3d s %5d %s%n", second == seconds ? ">=" : "+", second,
                    perSecond[second], "#".repeat(perSecond[second] * BAR / most)));
        }
        Collections.sort(fromPlanned);
        if (!fromPlanned.isEmpty()) {
            text.append(String.format(Locale.ROOT, "  began after the planned moment: p50 %d ms, p99 %d ms, max %d ms;"
                            + " before it: %d%n", percentile(fromPlanned, 50), percentile(fromPlanned, 99),
                    fromPlanned.get(fromPlanned.size() - 1), early));
        }
        return text.toString();
    }

    private static long percentile(List<Long> sorted, int percent) {
        return sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(sorted.size() * percent / 100.0) - 1));
    }
}
