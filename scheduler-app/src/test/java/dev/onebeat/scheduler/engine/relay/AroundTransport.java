package dev.onebeat.scheduler.engine.relay;

import dev.onebeat.transport.BrokerType;
import dev.onebeat.transport.Delivery;
import dev.onebeat.transport.OutboundTask;
import dev.onebeat.transport.QueueRoute;
import dev.onebeat.transport.Transport;
import dev.onebeat.transport.TransportContext;
import dev.onebeat.transport.TransportProvider;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * A real transport under the same name, each publish passed through a step of the test's own first: held back as a
 * slow broker would, stuck, or a fault injected before it goes on to the broker.
 */
final class AroundTransport implements TransportProvider {

    /** What happens to a publish: {@code transport.publish(tasks)} sends it on, or the step answers in its place. */
    @FunctionalInterface
    interface Step {
        List<Delivery> publish(Transport transport, List<OutboundTask> tasks) throws Exception;
    }

    private final TransportProvider real;
    private final Step step;

    private AroundTransport(TransportProvider real, Step step) {
        this.real = real;
        this.step = step;
    }

    /** @return {@code real} under its own name, each publish through {@code step} */
    static TransportProvider of(TransportProvider real, Step step) {
        return new AroundTransport(real, step);
    }

    @Override
    public String name() {
        return real.name();
    }

    @Override
    public Set<BrokerType> brokerTypes() {
        return real.brokerTypes();
    }

    @Override
    public Transport create(QueueRoute route, TransportContext context) throws Exception {
        Transport transport = real.create(route, context);
        return new Transport() {
            @Override
            public List<Delivery> publish(List<OutboundTask> tasks) throws Exception {
                return step.publish(transport, tasks);
            }

            @Override
            public Optional<Duration> deadline(int tasks) {
                return transport.deadline(tasks);
            }

            @Override
            public void close() throws Exception {
                transport.close();
            }
        };
    }
}
