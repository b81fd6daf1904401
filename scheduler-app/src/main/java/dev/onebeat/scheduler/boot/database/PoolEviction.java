package dev.onebeat.scheduler.boot.database;

import com.zaxxer.hikari.SQLExceptionOverride;
import java.sql.SQLException;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hikari's verdict on a failed statement, widened to the whole pool for the two kinds of error that say the pool's
 * other connections are no better than this one. Each evicts the connection and, softly, every other connection of
 * the pool: idle ones at once, busy ones when given back; new ones go where the URL now leads.
 * <ul>
 *   <li>{@link Reason#READ_ONLY}, SQLState {@value #READ_ONLY_SQL_STATE} ({@code read_only_sql_transaction}): a writer that a
 *   failover demoted (Aurora, Patroni) or a server with {@code default_transaction_read_only} turned on still accepts
 *   connections and answers queries; only writes fail. Hikari evicts only broken connections, so without this every
 *   connection opened to the old writer would be handed out again and fail again for as long as it lives
 *   ({@code maxLifetime}, 30 min by default).
 *   <li>{@link Reason#SESSION_LOST}, SQLState class {@code 08} (connection exception) or {@code 57P01}–{@code 57P03}
 *   (the server ended the session: terminated, crashed, shutting down or starting): Hikari evicts this connection
 *   only, and hands the others out unchecked while they were used in the last 500 ms (its
 *   {@code aliveBypassWindowMs}). What ends one session (a failover, a restart, a network cut) has ended them all,
 *   so each of them failed once more in turn, and Quartz waits {@code dbFailureRetryInterval} after each failure:
 *   the replica holding the next trigger, which failed to mark it fired on one dead connection and to give it back
 *   on the next, fired a second late or more ({@code StartupDuringFaultsIT}). A session ended alone (one
 *   {@code pg_terminate_backend}) costs only the pool's reconnection. The driver reports a statement that outlasts
 *   its {@code socketTimeout} as class 08 too, since it cannot tell a slow statement from a silent server: that
 *   evicts the pool as well, which a frozen primary wants (each idle connection would wait out its own timeout) and
 *   a job with longer SQL avoids by raising {@code socketTimeout} (docs/postgresql.md).
 * </ul>
 * Other errors keep Hikari's own verdict.
 *
 * <p>A run of errors of one reason logs once at WARN (again only after {@link #RUN_GAP_NANOS} without one); each
 * connection evicted counts in {@code onebeat_database_connections_evicted_total{reason}}.
 */
final class PoolEviction implements SQLExceptionOverride {

    static final String READ_ONLY_SQL_STATE = "25006";
    /** {@code idle_in_transaction_session_timeout}: the server ended one session for its own idleness. */
    static final String IDLE_TIMEOUT_SQL_STATE = "25P03";
    static final String METRIC = "onebeat.database.connections.evicted";
    static final long RUN_GAP_NANOS = 60_000_000_000L;

    /** The SQLStates besides class 08 by which PostgreSQL says it ended the session (class 57, operator intervention). */
    private static final Set<String> SERVER_ENDED = Set.of("57P01", "57P02", "57P03");
    private static final Logger log = LoggerFactory.getLogger(PoolEviction.class);

    /** Why the pool was evicted, the value of the metric's {@code reason} tag. */
    enum Reason {
        READ_ONLY("read-only", "database answered read-only, evicting the pool's connections so that new ones reach "
                + "the primary"),
        SESSION_LOST("session-lost", "database ended a session or stopped answering it, evicting the pool's "
                + "connections so that none is handed out dead");

        private final String tag;
        private final String message;

        Reason(String tag, String message) {
            this.tag = tag;
            this.message = message;
        }

        /** @return the value of the metric's {@code reason} tag */
        String tag() {
            return tag;
        }

        /** @return the reason of an error with this SQLState, or {@code null} for any other */
        static Reason of(String sqlState) {
            if (PoolEviction.READ_ONLY_SQL_STATE.equals(sqlState)) {
                return Reason.READ_ONLY;
            }
            if (sqlState != null && (sqlState.startsWith("08") || SERVER_ENDED.contains(sqlState))) {
                return SESSION_LOST;
            }
            return null;
        }
    }

    private final Supplier<String> pool;
    private final Set<Reason> reasons;
    private final Runnable evictAll;
    private final Consumer<Reason> counted;
    private final LongSupplier nanoTime;
    private final Map<Reason, AtomicLong> lastSeen = new EnumMap<>(Reason.class);

    /**
     * @param pool the pool's name (Hikari names a pool when it starts), for the log
     * @param reasons the reasons that evict the pool; the others keep Hikari's verdict
     * @param evictAll evicts every connection of the pool softly (Hikari's {@code softEvictConnections})
     * @param counted counts one connection evicted for a reason
     * @param nanoTime the clock that separates runs of errors
     */
    PoolEviction(Supplier<String> pool, Set<Reason> reasons, Runnable evictAll, Consumer<Reason> counted,
                 LongSupplier nanoTime) {
        this.pool = Objects.requireNonNull(pool, "pool must not be null");
        this.reasons = Set.copyOf(Objects.requireNonNull(reasons, "reasons must not be null"));
        this.evictAll = Objects.requireNonNull(evictAll, "evictAll must not be null");
        this.counted = Objects.requireNonNull(counted, "counted must not be null");
        this.nanoTime = Objects.requireNonNull(nanoTime, "nanoTime must not be null");
        for (Reason reason : Reason.values()) {
            // Long.MIN_VALUE: never seen, the first error of a reason always logs
            lastSeen.put(reason, new AtomicLong(Long.MIN_VALUE));
        }
    }

    @java.lang.Override
    public Override adjudicate(SQLException e) {
        if (IDLE_TIMEOUT_SQL_STATE.equals(e.getSQLState())) {
            // this session alone sat idle in a transaction past its timeout (a relay whose claim outlived its lease):
            // evict it, and read none of the errors chained behind (the driver's I/O error on the closed socket,
            // class 08), which would evict the pool as if the server had gone
            return Override.MUST_EVICT;
        }
        Reason reason = Reason.of(e.getSQLState());
        if (reason == null || !reasons.contains(reason)) {
            return Override.CONTINUE_EVICT;
        }
        long now = nanoTime.getAsLong();
        long previous = lastSeen.get(reason).getAndSet(now);
        if (previous == Long.MIN_VALUE || now - previous > RUN_GAP_NANOS) {
            log.warn("{} reason={} sqlState={} pool={} error=\"{}\"", reason.message, reason.tag(), e.getSQLState(),
                    pool.get(), e.getMessage());
        }
        counted.accept(reason);
        evictAll.run();
        return Override.MUST_EVICT;
    }
}
