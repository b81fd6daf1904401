package dev.onebeat.scheduler.engine.cluster;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Instant;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.event.EventListener;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * Reads, every {@link FailoverProperties#checkInterval()}, which incarnation of the database server the pool
 * reaches ({@link DatabaseIncarnation}) and publishes {@link DatabaseServerChanged} once when it differs from the
 * last one read: the pool itself moves to a new primary without telling anyone (a multi-host URL with
 * {@code targetServerType=primary}, a DNS name that moves), and what the old server took with it must be recovered
 * ({@code FailoverRecovery}). Logged at WARN, counted as {@code onebeat_database_server_changes_total}, shown as
 * health {@code databaseServer}. A reading that fails (the database away) changes nothing: the next one that
 * succeeds compares with the last server seen.
 */
@Component("databaseServerHealthIndicator")
class DatabaseServerWatch implements HealthIndicator, DisposableBean {

    /** The counter of changes of the database server, {@code onebeat_database_server_changes_total}. */
    static final String CHANGES_METRIC = "onebeat.database.server.changes";

    private static final Logger log = LoggerFactory.getLogger(DatabaseServerWatch.class);

    private record Seen(DatabaseIncarnation incarnation, Instant at) {
    }

    private final JdbcClient jdbc;
    private final ApplicationEventPublisher events;
    private final Clock clock;
    private final FailoverProperties properties;
    private final Counter changes;
    private final AtomicReference<Seen> last = new AtomicReference<>();
    private final AtomicReference<DatabaseServerChanged> lastChange = new AtomicReference<>();
    private final ScheduledExecutorService thread = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread daemon = new Thread(runnable, "onebeat-database-watch");
        daemon.setDaemon(true);
        return daemon;
    });

    DatabaseServerWatch(JdbcClient jdbc, ApplicationEventPublisher events, Clock clock, FailoverProperties properties,
                        MeterRegistry meters) {
        this.jdbc = jdbc;
        this.events = events;
        this.clock = clock;
        this.properties = properties;
        this.changes = Counter.builder(CHANGES_METRIC)
                .description("times this replica found its pool on another database server, or the same one restarted")
                .register(meters);
    }

    @EventListener(ApplicationReadyEvent.class)
    void start() {
        long every = properties.checkInterval().toMillis();
        thread.scheduleWithFixedDelay(this::check, 0, every, TimeUnit.MILLISECONDS);
    }

    /** Reads the server's incarnation once and publishes a change; never throws. */
    void check() {
        DatabaseIncarnation now;
        try {
            now = read();
        } catch (RuntimeException e) {
            log.debug("database server not read, trying again in {} error={}", properties.checkInterval(),
                    e.toString());
            return;
        }
        Seen before = last.getAndSet(new Seen(now, clock.instant()));
        if (before == null || !before.incarnation().differsFrom(now)) {
            return;
        }
        DatabaseServerChanged change = new DatabaseServerChanged(before.incarnation(), now, before.at());
        lastChange.set(change);
        changes.increment();
        log.warn("database server changed (failover or restart): commits not replicated to it are lost; recovering "
                        + "stranded triggers and lost fires old={} new={} lastSeenOld={}", before.incarnation(), now,
                before.at());
        try {
            events.publishEvent(change);
        } catch (RuntimeException e) {
            // the recovery's own sweep runs again later; the watch must go on
            log.warn("recovery after the database server change failed new={} error={}", now, e.toString(), e);
        }
    }

    private DatabaseIncarnation read() {
        // every function here is executable by any role (no superuser, no pg_monitor)
        return jdbc.sql("""
                        SELECT coalesce(host(inet_server_addr()), 'local') AS address,
                               coalesce(inet_server_port(), 0) AS port,
                               pg_postmaster_start_time() AS started_at, pg_is_in_recovery() AS in_recovery""")
                .query((rs, row) -> new DatabaseIncarnation(rs.getString("address"), rs.getInt("port"),
                        rs.getTimestamp("started_at").toInstant(), rs.getBoolean("in_recovery")))
                .single();
    }

    @Override
    public Health health() {
        Seen seen = last.get();
        if (seen == null) {
            return Health.unknown().withDetail("server", "not read yet").build();
        }
        Health.Builder health = Health.up()
                .withDetail("server", seen.incarnation().address() + ":" + seen.incarnation().port())
                .withDetail("startedAt", seen.incarnation().startedAt().toString())
                .withDetail("checkedAt", seen.at().toString())
                .withDetail("changes", (long) changes.count());
        DatabaseServerChanged change = lastChange.get();
        if (change != null) {
            health.withDetail("lastChange", change.before() + " -> " + change.after());
        }
        return health.build();
    }

    @Override
    public void destroy() {
        thread.shutdownNow();
    }
}
