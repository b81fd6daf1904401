package dev.onebeat.scheduler.engine.relay;

import dev.onebeat.scheduler.engine.fire.FireListener;
import dev.onebeat.scheduler.engine.fire.FireOutcome;
import dev.onebeat.scheduler.engine.fire.FireResult;
import dev.onebeat.scheduler.engine.outbox.OutboxTask;
import dev.onebeat.scheduler.engine.trace.Traces;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * The relay of one replica: {@code concurrency} {@link RelayLoop} threads per broker, sharing its
 * connection, started with the application and
 * stopped before the data source closes. A committed fire with tasks wakes every loop but that of onebeat's own
 * alert queue, so tasks go out right after the commit; the poll interval is the fallback for delayed tasks, other
 * replicas' fires and the alert deliveries.
 *
 * <p>At shutdown it stops after the fires: Quartz stops taking fires in the default phase, the fires
 * still running are waited for in the phase after ({@code quartz.RunningFiresAtShutdown}), and then the
 * relay, in {@link #PHASE}, runs its loops' last rounds, publishing what is due (the last fires'
 * tasks among it) for up to {@code onebeat.relay.drain-timeout}, and stops.
 */
public final class Relay implements SmartLifecycle, FireListener {

    /** Its lifecycle phase: started before Quartz fires, stopped after the fires it was running have ended. */
    static final int PHASE = DEFAULT_PHASE - 1024;

    private static final Logger log = LoggerFactory.getLogger(Relay.class);

    private final QueueRoutes routes;
    private final DataSource dataSource;
    private final String node;
    private final RelaySettings settings;
    private final RelayMetrics metrics;
    private final RelayHook hook;
    private final boolean enabled;
    private final int concurrency;
    private final OutboxGauges gauges;
    private final Clock clock;
    private final Traces traces;

    // read without the lock (a fire committing, health) while start and stop change them under it
    private final List<RelayLoop> loops = new CopyOnWriteArrayList<>();
    /** The loops a committed fire wakes: not those of onebeat's own alert queue, which no fire writes to. */
    private final List<RelayLoop> fireLoops = new CopyOnWriteArrayList<>();
    private final List<Thread> threads = new ArrayList<>();
    private volatile RelayNode relayNode;
    private volatile boolean running;

    /**
     * @param routes the validated routing
     * @param dataSource the outbox's database
     * @param node this replica's name in the relay's logs and broker connections, unique per process
     * @param properties timing
     * @param metrics where counts go
     * @param gauges the pending-task gauges, registered at start
     * @param hook called between publish and marks (tests); {@link RelayHook#NONE} otherwise
     * @param clock for health's instants, publish durations and the drain's deadline
     * @param traces each publish's span, continuing its task's fire
     */
    Relay(QueueRoutes routes, DataSource dataSource, String node, RelayProperties properties, RelayMetrics metrics,
          OutboxGauges gauges, RelayHook hook, Clock clock, Traces traces) {
        this.traces = traces;
        this.routes = routes;
        this.dataSource = dataSource;
        this.node = node;
        this.settings = RelaySettings.of(properties);
        this.metrics = metrics;
        this.hook = hook;
        this.enabled = properties.enabled();
        this.concurrency = properties.concurrency();
        this.gauges = gauges;
        this.clock = clock;
    }

    @Override
    public synchronized void start() {
        if (running) {
            return;
        }
        try {
            gauges.refresh();
        } catch (RuntimeException e) {
            log.warn("outbox gauges not registered yet: {}", e.toString());
        }
        relayNode = new RelayNode(routes, dataSource, node, settings, metrics, hook, clock, traces);
        running = true;
        if (!enabled) {
            log.info("relay disabled on this replica (onebeat.relay.enabled=false)");
            return;
        }
        Map<String, List<String>> queuesByBroker = new LinkedHashMap<>();
        routes.relayed().values().forEach(route ->
                queuesByBroker.computeIfAbsent(route.broker().name(), b -> new ArrayList<>()).add(route.queue()));
        if (queuesByBroker.isEmpty()) {
            log.info("relay: no queue is routed to a broker; tasks stay in the in-database queue");
        }
        queuesByBroker.forEach((broker, queues) -> {
            // the alert deliveries are a few rows a check: one loop, found by its poll
            boolean alertsOnly = queues.equals(List.of(OutboxTask.RESERVED_QUEUE));
            for (int i = 1; i <= (alertsOnly ? 1 : concurrency); i++) {
                RelayLoop loop = relayNode.loop(broker, queues);
                Thread thread = new Thread(loop, "onebeat-relay-" + broker + "-" + i);
                thread.setDaemon(true);
                loops.add(loop);
                if (!alertsOnly) {
                    fireLoops.add(loop);
                }
                threads.add(thread);
                thread.start();
            }
        });
    }

    /**
     * Stops every loop after its last rounds, waiting for them up to {@code drain-timeout} in all; a
     * loop still publishing then loses its broker connection, and its claim is rolled back, or ended by the
     * server after one lease at most.
     */
    @Override
    public synchronized void stop() {
        if (!running) {
            return;
        }
        loops.forEach(RelayLoop::stop);
        Instant deadline = clock.instant().plus(settings.drainTimeout());
        for (Thread thread : threads) {
            try {
                long left = Duration.between(clock.instant(), deadline).toMillis();
                if (left > 0) {
                    thread.join(left);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
            if (thread.isAlive()) {
                log.warn("relay thread {} still busy after onebeat.relay.drain-timeout ({} ms); stopping it, its claim "
                        + "is freed within one claim lease", thread.getName(), settings.drainTimeout().toMillis());
            }
        }
        relayNode.close();
        loops.clear();
        fireLoops.clear();
        threads.clear();
        running = false;
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    /** Stops after the Quartz scheduler and the fires it was running, so that their tasks go out. */
    @Override
    public int getPhase() {
        return PHASE;
    }

    @Override
    public void committed(FireResult result) {
        if (result.outcome() == FireOutcome.COMMITTED && result.dispatched() > 0) {
            for (RelayLoop loop : fireLoops) {
                loop.wake();
            }
        }
    }

    /** Wakes every loop to look for due rows now. */
    public void wake() {
        for (RelayLoop loop : loops) {
            loop.wake();
        }
    }

    /** @return each running loop's state, for health */
    List<RelayLoopHealth.State> states() {
        return loops.stream().map(RelayLoop::state).toList();
    }

    /** @return the publishes under way on this replica past their deadline (or claim lease) */
    List<RelayLoopHealth.Overdue> overdue() {
        return loops.stream().map(RelayLoop::overdue).filter(Objects::nonNull).toList();
    }

    /** @return claims past their lease in the whole outbox, by queue, as the gauges last read them */
    Map<String, Long> claimedOverdue() {
        return gauges.claimedOverdue();
    }

    /** @return this relay's node name, unique per process */
    public String node() {
        return node;
    }
}
