package dev.onebeat.scheduler.relay;

import dev.onebeat.scheduler.fire.FireListener;
import dev.onebeat.scheduler.fire.FireOutcome;
import dev.onebeat.scheduler.fire.FireResult;
import dev.onebeat.scheduler.outbox.OutboxTask;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
 */
public final class Relay implements SmartLifecycle, FireListener {

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

    private final List<RelayLoop> loops = new ArrayList<>();
    /** The loops a committed fire wakes: not those of onebeat's own alert queue, which no fire writes to. */
    private final List<RelayLoop> fireLoops = new ArrayList<>();
    private final List<Thread> threads = new ArrayList<>();
    private RelayTransports transports;
    private volatile boolean running;

    /**
     * @param routes the validated routing
     * @param dataSource the outbox's database
     * @param node this replica's name in {@code locked_by}, unique per process
     * @param properties timing
     * @param metrics where counts go
     * @param gauges the pending-task gauges, registered at start
     * @param hook called between publish and marks (tests); {@link RelayHook#NONE} otherwise
     */
    Relay(QueueRoutes routes, DataSource dataSource, String node, RelayProperties properties, RelayMetrics metrics,
          OutboxGauges gauges, RelayHook hook) {
        this.routes = routes;
        this.dataSource = dataSource;
        this.node = node;
        this.settings = RelaySettings.of(properties);
        this.metrics = metrics;
        this.hook = hook;
        this.enabled = properties.enabled();
        this.concurrency = properties.concurrency();
        this.gauges = gauges;
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
        transports = new RelayTransports(routes, node);
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
                RelayLoop loop = new RelayLoop(broker, queues, transports, dataSource, node, settings, metrics, hook);
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

    @Override
    public synchronized void stop() {
        if (!running) {
            return;
        }
        loops.forEach(RelayLoop::stop);
        for (Thread thread : threads) {
            try {
                thread.join(settings.claimLease().toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        transports.close();
        loops.clear();
        fireLoops.clear();
        threads.clear();
        running = false;
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    /** Stops after the Quartz scheduler (which stops in the default phase) so its last fires go out. */
    @Override
    public int getPhase() {
        return DEFAULT_PHASE - 1024;
    }

    @Override
    public void committed(FireResult result) {
        if (result.outcome() == FireOutcome.COMMITTED && result.dispatched() > 0) {
            for (RelayLoop loop : List.copyOf(fireLoops)) {
                loop.wake();
            }
        }
    }

    /** Wakes every loop to look for due rows now. */
    public void wake() {
        for (RelayLoop loop : List.copyOf(loops)) {
            loop.wake();
        }
    }

    /** @return each running loop's state, for health */
    List<RelayLoop.State> states() {
        return List.copyOf(loops).stream().map(RelayLoop::state).toList();
    }

    /** @return this relay's node name, as written to {@code locked_by} */
    public String node() {
        return node;
    }
}
