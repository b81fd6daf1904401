package dev.onebeat.scheduler.engine.relay;

import dev.onebeat.scheduler.engine.trace.Traces;
import java.time.Clock;
import java.util.List;
import javax.sql.DataSource;

/**
 * What the relay loops of one replica share: its name, the outbox statements,
 * the transports with their broker connections, the timer that keeps claims alive while they publish, the
 * counters and the clock. Closing it closes the broker connections and ends the keep-alives.
 */
final class RelayNode implements AutoCloseable {

    private final String node;
    private final RelaySettings settings;
    private final RelayMetrics metrics;
    private final RelayHook hook;
    private final Clock clock;
    private final RelayRepository outbox;
    private final RelayTransports transports;
    private final ClaimRenewal renewal;
    private final RelayPublisher publisher;

    /**
     * @param node this replica's name in the relay's logs and broker connections, unique per process
     * @param hook called between each round's publish and marks
     */
    RelayNode(QueueRoutes routes, DataSource dataSource, String node, RelaySettings settings, RelayMetrics metrics,
              RelayHook hook, Clock clock) {
        this(routes, dataSource, node, settings, metrics, hook, clock, Traces.OFF);
    }

    /** @param traces each publish's span, continuing its task's fire */
    RelayNode(QueueRoutes routes, DataSource dataSource, String node, RelaySettings settings, RelayMetrics metrics,
              RelayHook hook, Clock clock, Traces traces) {
        this.node = node;
        this.settings = settings;
        this.metrics = metrics;
        this.hook = hook;
        this.clock = clock;
        this.outbox = new RelayRepository(dataSource, settings.claimLease(), settings.deletePublished());
        this.transports = new RelayTransports(routes, node, metrics);
        this.renewal = new ClaimRenewal(node, settings.claimLease(), clock);
        this.publisher = new RelayPublisher(transports, renewal, settings.claimLease(), clock, traces);
    }

    /** @return a new loop relaying {@code queues}, all routed to {@code broker}; not started */
    RelayLoop loop(String broker, List<String> queues) {
        return new RelayLoop(broker, queues, node, outbox, publisher,
                new RelayRoundReport(broker, node, transports, metrics), settings, hook, clock);
    }

    @Override
    public void close() {
        renewal.close();
        transports.close();
    }
}
