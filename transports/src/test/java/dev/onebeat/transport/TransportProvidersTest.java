package dev.onebeat.transport;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class TransportProvidersTest {

    @Test
    void serviceLoaderFindsEveryTransportOfTheModuleOnceWithItsBrokerTypes() {
        assertThat(TransportProviders.load())
                .extracting(TransportProvider::name)
                .containsExactlyInAnyOrder("amqp", "arq", "celery", "dramatiq", "http", "kafka", "rq");
        assertThat(TransportProviders.load())
                .allSatisfy(provider -> assertThat(provider.brokerTypes()).isNotEmpty());
    }
}
