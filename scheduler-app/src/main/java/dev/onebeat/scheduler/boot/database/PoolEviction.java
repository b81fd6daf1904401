package dev.onebeat.scheduler.boot.database;

import com.zaxxer.hikari.SQLExceptionOverride;
import java.sql.SQLException;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hikari's verdict on a failed statement: SQLState {@value #READ_ONLY} ({@code read_only_sql_transaction}) evicts the
 * connection and, softly, every other connection of the pool.
 *
 * <p>A writer that a failover demoted (Aurora, Patroni) or a server with {@code default_transaction_read_only} turned
 * on still accepts connections and answers queries; only writes fail. Hikari evicts only on a broken connection
 * (SQLState class 08, a few server shutdown states), so without this every connection opened to the old writer would
 * be handed out again and fail again, for as long as it lives ({@code maxLifetime}, 30 min by default). The other connections of the pool were
 * opened to the same server, so they go too: idle ones at once, busy ones when given back; new ones go where the
 * URL now leads. Other errors keep Hikari's own verdict.
 *
 * <p>A run of such errors logs once at WARN (again only after {@link #RUN_GAP_NANOS} without one); each connection
 * evicted for answering read-only counts in {@code onebeat_database_connections_evicted_total{reason="read-only"}}.
 */
final class ReadOnlyEviction implements SQLExceptionOverride {

    static final String READ_ONLY = "25006";
    static final String METRIC = "onebeat.database.connections.evicted";
    static final long RUN_GAP_NANOS = 60_000_000_000L;

    private static final Logger log = LoggerFactory.getLogger(ReadOnlyEviction.class);

    private final Supplier<String> pool;
    private final Runnable evictAll;
    private final Runnable counted;
    private final LongSupplier nanoTime;
    private final AtomicLong lastSeen = new AtomicLong();
    private volatile boolean seenAny;

    /**
     * @param pool the pool's name (Hikari names a pool when it starts), for the log
     * @param evictAll evicts every connection of the pool softly (Hikari's {@code softEvictConnections})
     * @param counted counts one connection evicted for answering read-only
     * @param nanoTime the clock that separates runs of errors
     */
    ReadOnlyEviction(Supplier<String> pool, Runnable evictAll, Runnable counted, LongSupplier nanoTime) {
        this.pool = Objects.requireNonNull(pool, "pool must not be null");
        this.evictAll = Objects.requireNonNull(evictAll, "evictAll must not be null");
        this.counted = Objects.requireNonNull(counted, "counted must not be null");
        this.nanoTime = Objects.requireNonNull(nanoTime, "nanoTime must not be null");
    }

    @java.lang.Override
    public Override adjudicate(SQLException e) {
        if (!READ_ONLY.equals(e.getSQLState())) {
            return Override.CONTINUE_EVICT;
        }
        long now = nanoTime.getAsLong();
        long previous = lastSeen.getAndSet(now);
        if (!seenAny || now - previous > RUN_GAP_NANOS) {
            seenAny = true;
            log.warn("database answered read-only, evicting the pool's connections so that new ones reach the primary "
                    + "reason=read-only sqlState={} pool={} error=\"{}\"", READ_ONLY, pool.get(), e.getMessage());
        }
        counted.run();
        evictAll.run();
        return Override.MUST_EVICT;
    }
}
