package dev.onebeat.scheduler.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

class ClusterPropertiesTest {

    @Test
    void defaultsAreTheOnesBootBindsWithNothingConfigured() {
        ClusterProperties bound = new Binder(new MapConfigurationPropertySource(Map.of("onebeat.other", "x")))
                .bindOrCreate("onebeat.cluster", ClusterProperties.class);

        assertThat(bound).isEqualTo(ClusterProperties.DEFAULTS);
        assertThat(bound.heartbeatInterval()).isEqualTo(Duration.ofSeconds(10));
        assertThat(bound.livenessTimeout()).isEqualTo(Duration.ofSeconds(60));
    }

    @Test
    void aLivenessTimeoutShorterThanTwoHeartbeatsIsRefusedNamingBoth() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> new ClusterProperties(Duration.ofSeconds(10), Duration.ofSeconds(15)))
                .withMessage("onebeat.cluster.liveness-timeout: must be at least twice "
                        + "onebeat.cluster.heartbeat-interval (PT10S), was PT15S");
    }

    @Test
    void aHeartbeatThatIsNotPositiveIsRefused() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> new ClusterProperties(Duration.ZERO, Duration.ofSeconds(60)))
                .withMessage("onebeat.cluster.heartbeat-interval: must be positive, was PT0S");
    }
}
