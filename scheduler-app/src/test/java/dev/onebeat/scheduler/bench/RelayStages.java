package dev.onebeat.scheduler.bench;

import dev.onebeat.transport.BrokerType;
import dev.onebeat.transport.QueueRoute;
import dev.onebeat.scheduler.engine.relay.RelayDriver;
import dev.onebeat.scheduler.engine.relay.RelayHook;
import dev.onebeat.transport.Transport;
import dev.onebeat.transport.TransportContext;
import dev.onebeat.transport.TransportProvider;
import java.sql.SQLException;
import java.util.Set;
import java.util.concurrent.atomic.LongAdder;

/**
 * Where the relay's rounds spend their time, from the outside of the relay: a round starts with its
 * claim, the transport's {@code publish} (encoding and the broker's confirms) is timed by wrapping
 * the transport, and the marks follow the {@link RelayHook}, which runs right after the publish. So
 * each round splits into claim (both claim statements, and the rows read into tasks), publish, and
 * marks (the updates, their commit, the metrics). A round that claims nothing is all claim.
 * Rounds of several nodes on several threads add up.
 */
final class RelayStages {

    private final ThreadLocal<long[]> round = ThreadLocal.withInitial(() -> new long[3]);
    private final LongAdder claimNanos = new LongAdder();
    private final LongAdder publishNanos = new LongAdder();
    private final LongAdder markNanos = new LongAdder();
    private final LongAdder rounds = new LongAdder();

    /** @return {@code provider}, its transports' publish calls timed */
    TransportProvider timing(TransportProvider provider) {
        return new TransportProvider() {
            @Override
            public String name() {
                return provider.name();
            }

            @Override
            public Set<BrokerType> brokerTypes() {
                return provider.brokerTypes();
            }

            @Override
            public void validate(QueueRoute route) {
                provider.validate(route);
            }

            @Override
            public Transport create(QueueRoute route, TransportContext context) throws Exception {
                Transport transport = provider.create(route, context);
                return tasks -> {
                    long[] times = round.get();
                    times[1] = System.nanoTime();
                    try {
                        return transport.publish(tasks);
                    } finally {
                        publishNanos.add(System.nanoTime() - times[1]);
                    }
                };
            }
        };
    }

    /** @return the hook that notes when a round's publish ended and its marks begin */
    RelayHook hook() {
        return published -> round.get()[2] = System.nanoTime();
    }

    /** Runs one round of {@code driver}, timing its stages. */
    int relayOnce(RelayDriver driver) throws SQLException, InterruptedException {
        long[] times = round.get();
        long start = System.nanoTime();
        times[0] = start;
        times[1] = 0;
        times[2] = 0;
        int claimed = driver.relayOnce();
        long end = System.nanoTime();
        rounds.increment();
        if (claimed == 0 || times[1] == 0) {
            claimNanos.add(end - start);
        } else {
            claimNanos.add(times[1] - start);
            markNanos.add(end - times[2]);
        }
        return claimed;
    }

    void reset() {
        claimNanos.reset();
        publishNanos.reset();
        markNanos.reset();
        rounds.reset();
    }

    /** @return the stages' time per 1,000 messages: claim, publish, mark */
    double[] millisPerThousand(int messages) {
        double scale = 1000.0 / messages / 1e6;
        return new double[] {claimNanos.sum() * scale, publishNanos.sum() * scale, markNanos.sum() * scale};
    }
}
