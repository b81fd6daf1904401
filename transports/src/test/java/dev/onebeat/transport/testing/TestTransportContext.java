package dev.onebeat.transport.testing;

import dev.onebeat.transport.TransportContext;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * A {@link TransportContext} for provider-level tests: one shared client per type, closed with the
 * context, as the relay closes them when it stops.
 */
public final class TestTransportContext implements TransportContext, AutoCloseable {

    private final Map<Class<?>, AutoCloseable> shared = new LinkedHashMap<>();

    @Override
    public String node() {
        return "test-node";
    }

    @Override
    public synchronized <T extends AutoCloseable> T shared(Class<T> type, Supplier<T> opener) {
        return type.cast(shared.computeIfAbsent(type, t -> opener.get()));
    }

    @Override
    public synchronized void close() throws Exception {
        for (AutoCloseable client : shared.values()) {
            client.close();
        }
        shared.clear();
    }
}
