package dev.onebeat.scheduler.operate.monitor;

import dev.onebeat.scheduler.boot.database.StatementChunks;
import dev.onebeat.scheduler.boot.database.BatchDelete;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/** Every statement on {@code onebeat_job_event} and {@code onebeat_job_monitor}. */
@Component
public class MonitorTable {

    /** Progress rows or events per statement. */
    static final int ROWS_PER_STATEMENT = 10_000;

    // UNIQUE(job_name, scheduled_at, kind) keeps an event once, however often a check runs again
    private static final String INSERT_EVENTS = """
            INSERT INTO onebeat_job_event (job_name, scheduled_at, kind, reason, alerted, node, detected_at)
            SELECT * FROM unnest(?::varchar[], ?::timestamptz[], ?::varchar[], ?::varchar[], ?::boolean[], ?::varchar[],
                                 ?::timestamptz[])
            ON CONFLICT (job_name, scheduled_at, kind) DO NOTHING
            RETURNING job_name, scheduled_at, kind
            """;

    private static final String PROGRESS_COLUMNS = """
            SELECT job_name, checked_until, alerting, failures_in_row, successes_in_row, last_success_at, next_deadline
            FROM onebeat_job_monitor""";

    private static final String SAVE_PROGRESS = """
            INSERT INTO onebeat_job_monitor (job_name, checked_until, alerting, failures_in_row, successes_in_row,
                                             last_success_at, next_deadline, updated_at)
            SELECT u.*, ? FROM unnest(?::varchar[], ?::timestamptz[], ?::boolean[], ?::int[], ?::int[], ?::timestamptz[],
                                      ?::timestamptz[]) AS u
            ON CONFLICT (job_name) DO UPDATE SET checked_until = EXCLUDED.checked_until, alerting = EXCLUDED.alerting,
                failures_in_row = EXCLUDED.failures_in_row, successes_in_row = EXCLUDED.successes_in_row,
                last_success_at = EXCLUDED.last_success_at, next_deadline = EXCLUDED.next_deadline,
                updated_at = EXCLUDED.updated_at
            """;

    /**
     * A missed, failed or recovered instant of a job.
     *
     * @param kind {@code missed}, {@code failed} or {@code recovered}
     * @param alerted whether it went to the alert channels (the job's policy and thresholds say)
     * @param node the replica whose check found it
     */
    public record Event(String job, Instant instant, String kind, String reason, boolean alerted, String node,
                        Instant detectedAt) {
    }

    /**
     * How far the detector has judged a job, and the job's streak.
     *
     * @param checkedUntil every expected instant at or before it has been judged
     * @param alerting whether the job is alerted on (a miss, or failures up to its threshold) and not yet resolved
     * @param lastSuccessAt when the last committed fire it judged committed, or null
     * @param nextDeadline when the first instant not yet judged is missed unless a fire of it begins, or null (paused)
     */
    public record Progress(String job, Instant checkedUntil, boolean alerting, int failuresInRow, int successesInRow,
                           Instant lastSuccessAt, Instant nextDeadline) {
    }

    private final JdbcTemplate jdbcTemplate;
    private final JdbcClient jdbc;

    MonitorTable(JdbcTemplate jdbcTemplate, JdbcClient jdbc) {
        this.jdbcTemplate = jdbcTemplate;
        this.jdbc = jdbc;
    }

    /** @return every job's progress, by job */
    public Map<String, Progress> progress() {
        Map<String, Progress> progress = new HashMap<>();
        jdbc.sql(PROGRESS_COLUMNS)
                .query((ResultSet rs) -> {
                    progress.put(rs.getString(1), progressRow(rs));
                });
        return progress;
    }

    /** @return the progress of those jobs that have a row, by job */
    public Map<String, Progress> progress(Collection<String> jobs) {
        Map<String, Progress> progress = new HashMap<>();
        for (List<String> chunk : StatementChunks.of(new ArrayList<>(jobs), ROWS_PER_STATEMENT)) {
            jdbc.sql(PROGRESS_COLUMNS + " WHERE job_name = ANY(?::varchar[])")
                    .param(chunk.toArray(String[]::new))
                    .query((ResultSet rs) -> {
                        progress.put(rs.getString(1), progressRow(rs));
                    });
        }
        return progress;
    }

    /** @return the progress rows written at or after {@code since}, by job */
    Map<String, Progress> progressWrittenSince(Instant since) {
        Map<String, Progress> progress = new HashMap<>();
        jdbc.sql(PROGRESS_COLUMNS + " WHERE updated_at >= ?")
                .param(Timestamp.from(since))
                .query((ResultSet rs) -> {
                    progress.put(rs.getString(1), progressRow(rs));
                });
        return progress;
    }

    /** @return the jobs whose next deadline has come by {@code now}: an instant of theirs may be missed */
    Set<String> due(Instant now) {
        return new HashSet<>(jdbc.sql("SELECT job_name FROM onebeat_job_monitor WHERE next_deadline <= ?")
                .param(Timestamp.from(now)).query(String.class).list());
    }

    /**
     * Saves the progress of the jobs a check judged, in the caller's transaction.
     *
     * @param beforeEachStatement run before each statement of {@value #ROWS_PER_STATEMENT} rows: a check that judged
     *     every job of a million writes for seconds, and a shutdown ends it there, rolled back
     */
    void save(List<Progress> progress, Instant now, Runnable beforeEachStatement) {
        for (List<Progress> chunk : StatementChunks.of(progress, ROWS_PER_STATEMENT)) {
            beforeEachStatement.run();
            jdbcTemplate.execute((Connection con) -> {
                try (PreparedStatement ps = con.prepareStatement(SAVE_PROGRESS)) {
                    ps.setTimestamp(1, Timestamp.from(now));
                    ps.setArray(2, con.createArrayOf("varchar", chunk.stream().map(Progress::job).toArray()));
                    ps.setArray(3, SqlArrays.timestamps(con, chunk.stream().map(Progress::checkedUntil).toList()));
                    ps.setArray(4, con.createArrayOf("boolean", chunk.stream().map(Progress::alerting).toArray()));
                    ps.setArray(5, con.createArrayOf("integer", chunk.stream().map(Progress::failuresInRow).toArray()));
                    ps.setArray(6, con.createArrayOf("integer", chunk.stream().map(Progress::successesInRow).toArray()));
                    ps.setArray(7, SqlArrays.timestamps(con, chunk.stream().map(Progress::lastSuccessAt).toList()));
                    ps.setArray(8, SqlArrays.timestamps(con, chunk.stream().map(Progress::nextDeadline).toList()));
                    ps.executeUpdate();
                }
                return null;
            });
        }
    }


    /**
     * Writes events in the caller's transaction.
     *
     * @return those that were new; an event already written (a check run again) is left out
     */
    List<Event> insert(List<Event> events) {
        if (events.isEmpty()) {
            return List.of();
        }
        Set<String> inserted = new HashSet<>();
        for (List<Event> chunk : StatementChunks.of(events, ROWS_PER_STATEMENT)) {
            jdbcTemplate.execute((Connection con) -> {
                try (PreparedStatement ps = con.prepareStatement(INSERT_EVENTS)) {
                    ps.setArray(1, con.createArrayOf("varchar", chunk.stream().map(Event::job).toArray()));
                    ps.setArray(2, SqlArrays.timestamps(con, chunk.stream().map(Event::instant).toList()));
                    ps.setArray(3, con.createArrayOf("varchar", chunk.stream().map(Event::kind).toArray()));
                    ps.setArray(4, con.createArrayOf("varchar", chunk.stream().map(Event::reason).toArray()));
                    ps.setArray(5, con.createArrayOf("boolean", chunk.stream().map(Event::alerted).toArray()));
                    ps.setArray(6, con.createArrayOf("varchar", chunk.stream().map(Event::node).toArray()));
                    ps.setArray(7, SqlArrays.timestamps(con, chunk.stream().map(Event::detectedAt).toList()));
                    try (ResultSet rs = ps.executeQuery()) {
                        while (rs.next()) {
                            inserted.add(key(rs.getString(1), rs.getTimestamp(2).toInstant(), rs.getString(3)));
                        }
                    }
                }
                return null;
            });
        }
        return events.stream().filter(event -> inserted.contains(key(event.job(), event.instant(), event.kind())))
                .toList();
    }

    /** @return the job's latest {@code limit} events of instants in {@code [from, to)}, oldest instant first */
    public List<Event> events(String job, Instant from, Instant to, int limit) {
        // newest first through UNIQUE(job_name, scheduled_at, kind), so a range from the year 1 reads limit rows
        List<Event> events = new ArrayList<>(jdbc.sql("""
                        SELECT job_name, scheduled_at, kind, reason, alerted, node, detected_at FROM onebeat_job_event
                        WHERE job_name = ? AND scheduled_at >= ? AND scheduled_at < ?
                        ORDER BY scheduled_at DESC, id DESC LIMIT ?""")
                .params(job, Timestamp.from(from), Timestamp.from(to), limit)
                .query(MonitorTable::event)
                .list());
        Collections.reverse(events);
        return events;
    }

    /** @return the latest events of any job, newest first */
    public List<Event> latest(int limit) {
        return jdbc.sql("""
                        SELECT job_name, scheduled_at, kind, reason, alerted, node, detected_at FROM onebeat_job_event
                        ORDER BY detected_at DESC, id DESC LIMIT ?""")
                .param(limit)
                .query(MonitorTable::event)
                .list();
    }

    /** @return per job with misses detected since {@code since}, how many, the most first */
    public Map<String, Integer> missesSince(Instant since) {
        Map<String, Integer> misses = new LinkedHashMap<>();
        jdbc.sql("""
                        SELECT job_name, count(*) FROM onebeat_job_event WHERE kind = 'missed' AND detected_at >= ?
                        GROUP BY job_name ORDER BY count(*) DESC, job_name""")
                .param(Timestamp.from(since))
                .query((ResultSet rs) -> {
                    misses.put(rs.getString(1), rs.getInt(2));
                });
        return misses;
    }

    private static Event event(ResultSet rs, int row) throws SQLException {
        return new Event(rs.getString(1), rs.getTimestamp(2).toInstant(), rs.getString(3), rs.getString(4),
                rs.getBoolean(5), rs.getString(6), rs.getTimestamp(7).toInstant());
    }

    private static String key(String job, Instant instant, String kind) {
        return job + '\n' + instant + '\n' + kind;
    }

    /** A progress row of {@link #PROGRESS_COLUMNS}. */
    private static Progress progressRow(ResultSet rs) throws SQLException {
        return new Progress(rs.getString(1), rs.getTimestamp(2).toInstant(), rs.getBoolean(3), rs.getInt(4),
                rs.getInt(5), instant(rs, 6), instant(rs, 7));
    }

    private static Instant instant(ResultSet rs, int column) throws SQLException {
        Timestamp at = rs.getTimestamp(column);
        return at == null ? null : at.toInstant();
    }

    /** Deletes up to {@code limit} events detected before {@code before}, on the caller's connection. */
    public static int purgeEvents(Connection connection, Timestamp before, int limit) throws SQLException {
        return BatchDelete.rows(connection, """
                DELETE FROM onebeat_job_event WHERE id IN (
                    SELECT id FROM onebeat_job_event WHERE detected_at < ? LIMIT ? FOR UPDATE SKIP LOCKED)""",
                before, limit);
    }

    /**
     * Deletes up to {@code limit} of the detector's progress rows of jobs no longer in the catalog, last changed
     * before {@code before}, on the caller's connection. A job created again under the name starts afresh.
     */
    public static int purgeDeletedJobs(Connection connection, Timestamp before, int limit) throws SQLException {
        return BatchDelete.rows(connection, """
                DELETE FROM onebeat_job_monitor WHERE job_name IN (
                    SELECT m.job_name FROM onebeat_job_monitor m WHERE m.updated_at < ?
                    AND NOT EXISTS (SELECT 1 FROM onebeat_job j WHERE j.name = m.job_name)
                    LIMIT ? FOR UPDATE OF m SKIP LOCKED)""", before, limit);
    }
}
