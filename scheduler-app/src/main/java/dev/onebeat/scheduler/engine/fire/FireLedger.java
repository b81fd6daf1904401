package dev.onebeat.scheduler.engine.fire;

import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * The fire ledger, {@code onebeat_fire}: one row per committed (job, scheduled instant); the attempts that
 * did not commit are beside it, in {@code onebeat_fire_attempt} ({@link FireAttempts}).
 */
@Component
public class FireLedger {

    private final JdbcClient jdbc;

    FireLedger(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /**
     * Claims (job, scheduledAt, run) inside the caller's transaction, for attempt {@code attempt} of the instant. A concurrent claim of the same pair
     * waits for this transaction to end, then finds the row (if committed) and gets {@code false}. An instant at or
     * before the job's retention horizon ({@link FireHorizon}) is taken as fired before: its row may have been purged.
     *
     * <p>{@code fired_at} is the database's time of the claim, not the replica's: the cluster's one clock, so a
     * fire's lag means the same whichever replica fired it, and a fire that began before its instant shows it.
     *
     * <p>An instant recorded skipped (by the overlap policy, a pause, …) is settled for the schedule's own fires
     * ({@link FireRequest#settledBySkip}): one of them that comes after the skip, say a recovery of the fire that
     * skipped it or a second fire of it on another replica, is a duplicate, so the instant keeps one outcome. The
     * skip, for its part, is not recorded over a committed fire ({@link FireAttempts#skipped}).
     *
     * @return true if this transaction now owns the fire; false if it was fired before, or may have been, or was
     *     recorded skipped
     */
    boolean claim(String job, FireRequest request) {
        Instant scheduledAt = request.scheduledAt();
        Timestamp at = Timestamp.from(scheduledAt);
        // UNIQUE(job_name, scheduled_at, run_id) is the exactly-once guard while the row is kept
        Long id = jdbc.sql("""
                        INSERT INTO onebeat_fire (job_name, scheduled_at, run_id, fired_at, node, trigger_kind, outcome,
                                                  attempt)
                        SELECT ?, ?, ?, clock_timestamp(), ?, ?, 'committed', ?
                        WHERE NOT (? AND EXISTS (SELECT 1 FROM onebeat_fire_attempt
                                                 WHERE job_name = ? AND scheduled_at = ? AND run_id = ''
                                                   AND outcome = 'skipped'))
                        ON CONFLICT (job_name, scheduled_at, run_id) DO NOTHING
                        RETURNING id
                        """)
                .params(job, at, FireRun.column(request.run()), request.node(), request.trigger().column(),
                        request.attempt(), request.settledBySkip(), job, at)
                .query(Long.class).optional().orElse(null);
        if (id == null) {
            return false;
        }
        if (!beyondHorizon(List.of(job), scheduledAt).isEmpty()) {
            jdbc.sql("DELETE FROM onebeat_fire WHERE id = ?").param(id).update();
            return false;
        }
        return true;
    }

    /**
     * The jobs of {@code jobs} whose horizon is at or after {@code scheduledAt}, read after their claims' inserts (or,
     * for a batch, after its read of their rows: {@link #unfired}).
     *
     * <p>A retention pass commits a job's new horizon before it deletes the rows below it. This statement runs after
     * the insert, so it reads what was committed by then: if the insert found the row gone (or waited for its delete),
     * the horizon that covers it was already committed and is seen here. Read before the insert, in one statement with
     * it, an old horizon and a freshly deleted row could both be seen. A batch's read sees a row whose delete has not
     * committed as there (fired), and one whose delete has, with its horizon.
     */
    private List<String> beyondHorizon(List<String> jobs, Instant scheduledAt) {
        // the retention horizon is the exactly-once guard of instants whose ledger row may have been purged
        return jdbc.sql("""
                        SELECT job_name FROM onebeat_fire_horizon
                        WHERE job_name = ANY(?::varchar[]) AND purged_through >= ?""")
                .params(jobs.toArray(String[]::new), Timestamp.from(scheduledAt)).query(String.class).list();
    }

    /**
     * What a batch of the schedule's fires of one instant reads before its jobs run, inside its transaction and
     * under their locks ({@link JobLockTable#lockAll}).
     *
     * @param unfired the jobs whose instant has no ledger row, is not settled by a skip ({@link #unfired}) and is
     *     newer than their retention horizon: this transaction fires them, and writes their rows with
     *     {@link #recordAll} once they have run
     * @param readAt the database's time of the read, each row's {@code fired_at} (as {@link #claim}'s)
     */
    record Unfired(List<String> unfired, Timestamp readAt) {
    }

    /**
     * Reads which of the jobs have fired {@code scheduledAt} before (then their retention horizons), for a batch
     * holding their locks: no other fire of these jobs can begin until the batch ends, so the batch writes its rows
     * once, complete, after its jobs ran ({@link #recordAll}), instead of claiming them first and filling them in
     * after: at 100,000 jobs on one instant that second write was a new version of every ledger row. The ledger's
     * unique key stays the guard: a fire that began before and outlived its lock ({@code lockAtMostFor}) can still
     * commit a row meanwhile, and then fails the batch's insert, and with it the whole batch, whose jobs are then
     * fired alone.
     *
     * <p>A job whose instant is recorded skipped counts as fired, for the schedule's own fires
     * ({@link FireRequest#settledBySkip}), as in {@link #claim}.
     *
     * @param jobs locked jobs, in name order
     */
    Unfired unfired(List<String> jobs, FireRequest request) {
        if (jobs.isEmpty()) {
            return new Unfired(List.of(), null);
        }
        Instant scheduledAt = request.scheduledAt();
        Set<String> fired = new HashSet<>();
        Timestamp[] readAt = new Timestamp[1];
        String[] names = jobs.toArray(String[]::new);
        Timestamp at = Timestamp.from(scheduledAt);
        // one probe of the skips' partial unique index (010-skipped-once) per name: an index lookup, like the ledger's
        jdbc.sql("""
                        SELECT clock_timestamp(), ARRAY(SELECT job_name FROM onebeat_fire
                                                        WHERE job_name = ANY(?::varchar[]) AND scheduled_at = ?
                                                          AND run_id = ''
                                                        UNION
                                                        SELECT job_name FROM onebeat_fire_attempt
                                                        WHERE ? AND job_name = ANY(?::varchar[]) AND scheduled_at = ?
                                                          AND run_id = '' AND outcome = 'skipped')""")
                .params(names, at, request.settledBySkip(), names, at)
                .query(rs -> {
                    readAt[0] = rs.getTimestamp(1);
                    fired.addAll(Arrays.asList((String[]) rs.getArray(2).getArray()));
                });
        List<String> unfired = new ArrayList<>(jobs.size() - fired.size());
        for (String job : jobs) {
            if (!fired.contains(job)) {
                unfired.add(job);
            }
        }
        if (!unfired.isEmpty()) {
            // read after the ledger, as claim()'s is after its insert: a row retention deleted before that read had
            // its horizon committed first. The schedule's own instants are newer than any horizon but after a long
            // outage, so this finds nothing almost always
            unfired.removeAll(new HashSet<>(beyondHorizon(unfired, scheduledAt)));
        }
        return new Unfired(unfired, readAt[0]);
    }

    /**
     * Writes the ledger rows of many fires of the schedule's instant, complete, in the transaction that read them
     * unfired ({@link #unfired}) and wrote their tasks. A row that exists already fails the statement.
     *
     * @param jobs the fires that succeeded; {@code tasks} and {@code duplicates} in the same order
     * @param firedAt {@link Unfired#readAt}
     */
    void recordAll(List<String> jobs, FireRequest request, Timestamp firedAt, int[] tasks, int[] duplicates,
                   long durationMillis) {
        if (jobs.isEmpty()) {
            return;
        }
        // UNIQUE(job_name, scheduled_at, run_id) is the exactly-once guard; these are the schedule's fires (no run)
        jdbc.sql("""
                        INSERT INTO onebeat_fire (job_name, scheduled_at, fired_at, node, trigger_kind, outcome,
                                                  task_count, duplicate_task_count, duration_ms)
                        SELECT u.job, ?, ?, ?, ?, 'committed', u.tasks, u.duplicates, ?
                        FROM unnest(?::varchar[], ?::int[], ?::int[]) AS u(job, tasks, duplicates)
                        """)
                .params(Timestamp.from(request.scheduledAt()), firedAt, request.node(), request.trigger().column(),
                        durationMillis, jobs.toArray(String[]::new), boxed(tasks), boxed(duplicates))
                .update();
    }

    private static Integer[] boxed(int[] values) {
        Integer[] boxed = new Integer[values.length];
        for (int i = 0; i < values.length; i++) {
            boxed[i] = values[i];
        }
        return boxed;
    }

    /** Records what the fire did, in the same transaction as {@link #claim}. */
    void complete(String job, Instant scheduledAt, String run, int tasks, int duplicateTasks, long durationMillis) {
        jdbc.sql("""
                        UPDATE onebeat_fire SET task_count = ?, duplicate_task_count = ?, duration_ms = ?
                        WHERE job_name = ? AND scheduled_at = ? AND run_id = ?
                        """)
                .params(tasks, duplicateTasks, durationMillis, job, Timestamp.from(scheduledAt), FireRun.column(run))
                .update();
    }

    /**
     * @param job the job name
     * @param limit at most this many, newest scheduled instant first
     * @return the job's committed fires
     */
    public List<FireRecord> history(String job, int limit) {
        return history(FireFilter.latest(job, limit));
    }

    /**
     * @return the attempts {@code filter} selects, committed or not, newest scheduled instant first and the
     *         latest attempt of an instant first
     */
    public List<FireRecord> history(FireFilter filter) {
        return jdbc.sql("SELECT * FROM (" + FireRecord.COLUMNS + """
                        ) AS h
                        WHERE job_name = :job
                          AND (CAST(:outcome AS text) IS NULL OR outcome = :outcome)
                          AND (CAST(:trigger AS text) IS NULL OR trigger_kind = :trigger)
                          AND (CAST(:from AS timestamptz) IS NULL OR scheduled_at >= :from)
                          AND (CAST(:to AS timestamptz) IS NULL OR scheduled_at < :to)
                        ORDER BY scheduled_at DESC, attempt DESC, outcome = 'committed' DESC LIMIT :limit
                        """)
                .param("job", filter.job())
                .param("outcome", filter.outcome())
                .param("trigger", filter.trigger())
                .param("from", timestamp(filter.from()))
                .param("to", timestamp(filter.to()))
                .param("limit", filter.limit())
                .query(FireRecord::read)
                .list();
    }

    /** @return the latest {@code limit} fires of any job, by the time they began */
    public List<FireRecord> latest(int limit) {
        return jdbc.sql("SELECT * FROM (" + FireRecord.COLUMNS + ") AS h ORDER BY fired_at DESC LIMIT ?")
                .param(limit).query(FireRecord::read).list();
    }

    /**
     * Committed fires whose start lies in the last hour, by the database's clock.
     *
     * @param fires how many
     * @param tasks tasks they dispatched
     * @param lagAverage their average start lag (fired minus scheduled)
     * @param lagMax the largest
     */
    public record LastHour(long fires, long tasks, Duration lagAverage, Duration lagMax) {
    }

    /** @return what the fires of the last hour did */
    public LastHour lastHour() {
        Map<String, Object> hour = jdbc.sql("""
                        SELECT count(*) AS fires, coalesce(sum(task_count), 0) AS tasks,
                               coalesce(avg(extract(epoch FROM fired_at - scheduled_at)) * 1000, 0) AS lag_avg,
                               coalesce(max(extract(epoch FROM fired_at - scheduled_at)) * 1000, 0) AS lag_max
                        FROM onebeat_fire WHERE fired_at > now() - interval '1 hour'
                        """).query().singleRow();
        return new LastHour(number(hour.get("fires")), number(hour.get("tasks")),
                Duration.ofMillis(number(hour.get("lag_avg"))), Duration.ofMillis(number(hour.get("lag_max"))));
    }

    private static long number(Object value) {
        return value == null ? 0 : Math.round(((Number) value).doubleValue());
    }

    private static Timestamp timestamp(Instant instant) {
        return instant == null ? null : Timestamp.from(instant);
    }
}
