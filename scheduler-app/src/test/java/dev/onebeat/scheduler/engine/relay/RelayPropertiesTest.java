package dev.onebeat.scheduler.engine.relay;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RelayPropertiesTest {

    @Test
    void defaultsAreTheOnesBootBindsWithNothingConfiguredAsTheReadmeStatesThem() {
        RelayProperties defaults = RelayProperties.defaults();

        assertThat(defaults.enabled()).isTrue();
        assertThat(defaults.batchSize()).isEqualTo(500);
        assertThat(defaults.concurrency()).isEqualTo(2);
        assertThat(defaults.pollInterval()).isEqualTo(Duration.ofSeconds(1));
        assertThat(defaults.claimLease()).isEqualTo(Duration.ofSeconds(60));
        assertThat(defaults.retryInitial()).isEqualTo(Duration.ofMillis(500));
        assertThat(defaults.retryMax()).isEqualTo(Duration.ofSeconds(15));
        assertThat(defaults.drainTimeout()).isEqualTo(Duration.ofSeconds(10));
        assertThat(defaults.unrouted()).isEqualTo("database");
        assertThat(defaults.brokers()).isEmpty();
        assertThat(defaults.queues()).isEmpty();
    }

    @Test
    void witheringChangesOnlyWhatItNames() {
        RelayProperties changed = RelayProperties.defaults().withBatching(4, 1).withUnrouted("reject")
                .withRoutes(Map.of("b", new RelayProperties.Broker("redis", "redis://h/0", Map.of())),
                        Map.of("q", new RelayProperties.Route("rq", "b", Map.of())));

        assertThat(changed.batchSize()).isEqualTo(4);
        assertThat(changed.concurrency()).isEqualTo(1);
        assertThat(changed.unrouted()).isEqualTo("reject");
        assertThat(changed.queues()).containsKey("q");
        assertThat(changed.claimLease()).isEqualTo(RelayProperties.defaults().claimLease());
    }
}
