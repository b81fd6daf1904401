package dev.onebeat.scheduler.operate.alert;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import dev.onebeat.job.IdempotencyKey;
import dev.onebeat.scheduler.boot.outbound.OutboundProperties;
import dev.onebeat.scheduler.boot.outbound.OutboundUrls;
import dev.onebeat.transport.OutboundTask;
import dev.onebeat.transport.TaskPayload;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The request of each alert delivery, and the check of an address an API user set, made again before sending. */
class AlertTransportProviderTest {

    private static final Instant AT = Instant.parse("2027-07-01T00:00:00Z");

    private static AlertTransportProvider provider(OutboundProperties outbound) {
        return new AlertTransportProvider(new AlertProperties(true, null, Duration.ofSeconds(3),
                new AlertProperties.Webhook(null, Map.of()), new AlertProperties.Sentry(null, null)),
                new OutboundUrls(outbound));
    }

    private static OutboundTask ping(String url, boolean trusted) {
        String payload = "{\"args\": [], \"kwargs\": {\"channel\": \"healthchecks\", \"method\": \"POST\", \"url\": \""
                + url + "\", \"body\": \"pinged\", \"trusted\": " + trusted + "}}";
        return new OutboundTask(IdempotencyKey.of("pinged", AT, "onebeat.alert.healthchecks", null), "pinged", AT,
                "onebeat.alert.healthchecks", "onebeat.alerts", null, null, TaskPayload.fromJson(payload), null);
    }

    @Test
    void pingToALoopbackAddressAnApiUserSetIsNotSentUnlessAllowed() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> provider(OutboundProperties.none()).request(ping("http://127.0.0.1:9/hc/1", false)))
                .withMessage("the address http://127.0.0.1:9/hc/1 is refused: 127.0.0.1 is a loopback address; only "
                        + "public addresses may be reached, or those of onebeat.security.outbound.allowed-hosts and "
                        + "allowed-networks");
        assertThat(provider(new OutboundProperties(List.of(), List.of("127.0.0.0/8")))
                .request(ping("http://127.0.0.1:9/hc/1", false)).uri()).isEqualTo(URI.create("http://127.0.0.1:9/hc/1"));
    }

    @Test
    void pingToAnAddressFromConfigurationIsSentAsItIs() {
        assertThat(provider(OutboundProperties.none()).request(ping("http://127.0.0.1:9/hc/1", true)).uri())
                .isEqualTo(URI.create("http://127.0.0.1:9/hc/1"));
    }

    @Test
    void requestTimeoutIsTheAlertsTimeoutWhichBoundsTheWholeExchange() {
        assertThat(provider(OutboundProperties.none()).request(ping("http://127.0.0.1:9/hc/1", true)).timeout())
                .contains(Duration.ofSeconds(3));
    }
}
