package dev.onebeat.scheduler.engine.fire;

import dev.onebeat.scheduler.boot.startup.DatabaseUnavailable;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.quartz.JobPersistenceException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.TransactionException;

/**
 * The periods in which this replica's fires could not reach the database, kept in memory while it cannot and written
 * to {@code onebeat_fire_fault} once it can: the record of instants that no fire began because nothing could be read
 * or written. A fire that never began leaves no attempt of its own (Quartz could not acquire its trigger, say), so
 * the instants API and the missed-fire detector give the periods as the reason an instant of theirs was missed.
 *
 * <p>A period of a stage begins at a failure and lasts until {@link #LINGER} after the last failure of the stage: a
 * failure within that time extends it, as does any failure while the period is not written yet. Each failure counts
 * in {@code onebeat_fire_failed_total{reason="database", stage}}; a period's beginning is logged at ERROR, its end at
 * WARN once written. Nothing here runs on a healthy fire: only failures call in, and the writer does nothing while no
 * period is waiting.
 */
@Component
public class FireFaults implements DisposableBean {

    /**
     * How long after a stage's last failure its period lasts: a failure within it extends the period. A fault's effect
     * outlasts its last failure: threads wait up to the connection pool's timeout (HikariCP's 30 s) for a connection
     * instead of failing, and Quartz waits {@code dbRetryInterval} before it tries again.
     */
    public static final Duration LINGER = Duration.ofSeconds(30);
    private static final Duration WRITE_EVERY = Duration.ofSeconds(1);
    /** Periods ended longer ago than this are deleted when a new period is written. */
    private static final Duration KEEP = Duration.ofDays(90);
    private static final int MAX_ERROR = 300;
    /** How deep {@link #what} reads a failure's causes. */
    private static final int MAX_CAUSES = 32;
    private static final Logger log = LoggerFactory.getLogger(FireFaults.class);

    /** What could not reach the database. */
    public enum Stage {
        /** Quartz acquiring its triggers, marking them fired or completing them: which instants is not known. */
        QUARTZ,
        /** Reading the jobs of a schedule's instant. */
        MEMBERS,
        /** A fire's lock, its transaction, or the record of its failure or skip. */
        FIRE;

        /** @return as stored and tagged: {@code quartz} */
        public String text() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** A period of one stage; guarded by the enclosing instance. */
    private static final class Period {
        final String node;
        final Instant since;
        Instant last;
        int failures;
        String error;
        /** Bumped by each failure. */
        long version;
        /** The version the database holds, -1 before the first write commits. */
        long savedVersion = -1;

        /**
         * @return whether the database lacks a change: true from a failure until the write that holds it commits,
         *     so also while that write waits for a connection or runs
         */
        boolean dirty() {
            return savedVersion != version;
        }

        Period(String node, Instant since) {
            this.node = node;
            this.since = since;
        }
    }

    private final JdbcClient jdbc;
    private final Clock clock;
    private final MeterRegistry meters;
    private final Map<Stage, Period> periods = new EnumMap<>(Stage.class);
    private final ScheduledExecutorService writer = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "onebeat-fire-faults");
        thread.setDaemon(true);
        return thread;
    });
    private volatile boolean pending;

    FireFaults(JdbcClient jdbc, Clock clock, MeterRegistry meters) {
        this.jdbc = jdbc;
        this.clock = clock;
        this.meters = meters;
        long every = WRITE_EVERY.toMillis();
        writer.scheduleWithFixedDelay(this::writeQuietly, every, every, TimeUnit.MILLISECONDS);
    }

    /**
     * @return whether {@code error} says the database could not be reached or could not complete a statement (a
     *     connection, a transaction, a statement failed), rather than a job's own exception
     */
    public static boolean fromDatabase(Throwable error) {
        for (Throwable cause = error; cause != null; cause = cause.getCause() == cause ? null : cause.getCause()) {
            if (cause instanceof SQLException || cause instanceof DataAccessException
                    || cause instanceof TransactionException || cause instanceof JobPersistenceException) {
                return true;
            }
        }
        return false;
    }

    /**
     * Notes a failure to reach the database: counts it, and begins or extends the stage's period.
     *
     * @param node this replica
     */
    public void failed(Stage stage, String node, Throwable error) {
        Counter.builder("onebeat.fire.failed").description("Failures of the fire path, by reason and stage")
                .tag("reason", "database").tag("stage", stage.text()).register(meters).increment();
        Instant now = clock.instant();
        String text = error == null ? "unknown" : error.toString();
        boolean began;
        synchronized (this) {
            Period period = periods.get(stage);
            // a period not written yet is extended, not replaced: the database that could not take it is likely the
            // same fault, and a replaced period would be lost with the reason of the misses in it
            began = period == null || !period.dirty() && now.isAfter(period.last.plus(LINGER));
            if (began) {
                period = new Period(node, now);
                periods.put(stage, period);
            }
            period.last = now;
            period.failures++;
            period.error = text.length() > MAX_ERROR ? text.substring(0, MAX_ERROR) : text;
            period.version++;
            pending = true;
        }
        if (began) {
            log.error("fires {}, instants due meanwhile may not fire node={} stage={} since={} error={}", what(error),
                    node, stage.text(), now, text);
        }
    }

    /**
     * What a database failure says happened, by the first SQLSTATE among its causes (read 32 deep). Out of reach: no
     * SQLSTATE at all, or one of a database away ({@link DatabaseUnavailable#unavailable}: a connection's, class 08,
     * a session the server ended, too many connections). Two cases look alike and are not: every connection of the
     * pool busy past its timeout (Hikari's timeout with no SQLSTATE: the database answers, the pool's connections
     * wait, on locks say), and a read-only server (25006, a standby not promoted yet). Otherwise the database answered
     * and refused: a wait for a lock past {@code lock_timeout} (55P03: another session held it, a frozen replica say),
     * a statement cancelled or past {@code statement_timeout} (57014), a conflict with another transaction (40001,
     * 40P01), or another error (a Hikari timeout whose last failure was such an answer, a missing database say, is
     * named by it). A period lumps them together, as they stop fires alike; its first line says which.
     *
     * @return the words after "fires" in the line that begins a period
     */
    static String what(Throwable error) {
        String state = null;
        Throwable cause = error;
        for (int depth = 0; cause != null && depth < MAX_CAUSES && state == null; depth++, cause = cause.getCause()) {
            if (cause instanceof SQLTransientConnectionException pool && pool.getSQLState() == null
                    && pool.getCause() == null) {
                return "wait past the connection pool's timeout for a connection, all of them busy";
            }
            if (cause instanceof SQLException sql) {
                state = sql.getSQLState();
            }
        }
        if ("25006".equals(state)) {
            // one of the states start-up tries again on, as a database on its way back
            return "cannot write: the server is read-only, a standby not promoted yet (SQLSTATE 25006)";
        }
        if (state == null || DatabaseUnavailable.unavailable(state)) {
            return "cannot reach the database";
        }
        return switch (state) {
            case "55P03" -> "wait past lock_timeout for a lock another session holds (SQLSTATE 55P03)";
            case "57014" -> "have statements cancelled or cut off by statement_timeout (SQLSTATE 57014)";
            case "40001", "40P01" -> "conflict with other transactions (SQLSTATE " + state + ")";
            default -> "fail in the database (SQLSTATE " + state + ")";
        };
    }

    /**
     * @return whether this replica knows of a failure to reach the database that the database does not hold yet,
     *     including one whose write is waiting for a connection or running: a miss judged now might lack its reason
     */
    public synchronized boolean unwritten() {
        return periods.values().stream().anyMatch(Period::dirty);
    }

    /**
     * @return whether a period of this replica is not over yet: a failure within {@link #LINGER}, or one not
     *     written. The database fails every replica alike, so other replicas may be holding periods they could not
     *     write yet either
     */
    public synchronized boolean faulting() {
        return !periods.isEmpty();
    }

    /**
     * Writes the periods waiting to be written; those the database does not take wait for the next turn. A period
     * that has ended and is written is logged and forgotten.
     */
    void write() {
        if (!pending) {
            return;
        }
        Instant now = clock.instant();
        boolean left = false;
        for (Stage stage : Stage.values()) {
            Period original;
            Period copy;
            synchronized (this) {
                Period period = periods.get(stage);
                original = period;
                if (period == null) {
                    continue;
                }
                if (!period.dirty()) {
                    if (now.isAfter(period.last.plus(LINGER))) {
                        periods.remove(stage);
                        log.warn("fires reached the database again node={} stage={} since={} until={} failures={} "
                                + "lastError={}", period.node, stage.text(), period.since, period.last.plus(LINGER),
                                period.failures, period.error);
                    } else {
                        left = true;
                    }
                    continue;
                }
                copy = new Period(period.node, period.since);
                copy.last = period.last;
                copy.failures = period.failures;
                copy.error = period.error;
                copy.version = period.version;
                copy.savedVersion = period.savedVersion;
            }
            left = true;
            // the period stays dirty until the write commits: a failure meanwhile bumps its version, and is written
            // at the next turn
            try {
                upsert(stage, copy);
            } catch (RuntimeException e) {
                continue;
            }
            synchronized (this) {
                // the same period, not a later one of the stage (its versions count from its own beginning)
                if (periods.get(stage) == original) {
                    original.savedVersion = copy.version;
                }
            }
        }
        synchronized (this) {
            pending = left || periods.values().stream().anyMatch(Period::dirty);
        }
    }

    private void upsert(Stage stage, Period period) {
        // written again as the period grows: one row per (node, stage, since)
        jdbc.sql("""
                        INSERT INTO onebeat_fire_fault (node, stage, since, until, failures, error)
                        VALUES (?, ?, ?, ?, ?, ?)
                        ON CONFLICT (node, stage, since) DO UPDATE SET until = EXCLUDED.until,
                            failures = EXCLUDED.failures, error = EXCLUDED.error
                        """)
                .params(period.node, stage.text(), Timestamp.from(period.since), Timestamp.from(period.last.plus(LINGER)),
                        period.failures, period.error)
                .update();
        if (period.savedVersion < 0) {
            jdbc.sql("DELETE FROM onebeat_fire_fault WHERE until < ?")
                    .param(Timestamp.from(clock.instant().minus(KEEP))).update();
        }
    }

    /** @return the periods in which a replica's fires could not reach the database overlapping {@code [from, to]} */
    List<InstantRecords.Fault> recorded(Instant from, Instant to) {
        // onebeat_fire_fault_until_idx: the table is empty but for the days after a database fault
        return jdbc.sql("""
                        SELECT node, stage, since, until, failures, error FROM onebeat_fire_fault
                        WHERE until >= ? AND since <= ? ORDER BY since, node, stage""")
                .params(Timestamp.from(from), Timestamp.from(to))
                .query((rs, row) -> new InstantRecords.Fault(rs.getString(1), rs.getString(2), rs.getTimestamp(3).toInstant(),
                        rs.getTimestamp(4).toInstant(), rs.getInt(5), rs.getString(6)))
                .list();
    }

    private void writeQuietly() {
        try {
            write();
        } catch (RuntimeException e) {
            log.warn("fire faults not written, trying again error={}", e.toString());
        }
    }

    @Override
    public void destroy() {
        writer.shutdownNow();
    }
}
