package dev.onebeat.transport;

import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;

/** The transport providers registered with {@link ServiceLoader} on a class path. */
public final class TransportProviders {

    private TransportProviders() {
    }

    /**
     * @return one instance of every provider registered in
     *     {@code META-INF/services/dev.onebeat.transport.TransportProvider} visible from this module's
     *     class loader, in class-path order
     * @throws java.util.ServiceConfigurationError if a registered provider cannot be made
     */
    public static List<TransportProvider> load() {
        List<TransportProvider> providers = new ArrayList<>();
        ServiceLoader.load(TransportProvider.class, TransportProviders.class.getClassLoader()).forEach(providers::add);
        return List.copyOf(providers);
    }
}
