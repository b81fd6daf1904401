package dev.onebeat.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DeliveryOptionsTest {

    @Test
    void badPartsAreRefusedNamingThePartAndTheValue() {
        assertThatIllegalArgumentException().isThrownBy(() -> new DeliveryOptions(Duration.ZERO, null, null, null, null))
                .withMessage("expires: must be positive, was PT0S");
        assertThatIllegalArgumentException().isThrownBy(() -> new DeliveryOptions(null, 256, null, null, null))
                .withMessage("priority: must be 0 to 255, was 256");
        assertThatIllegalArgumentException().isThrownBy(() -> new DeliveryOptions(null, -1, null, null, null))
                .withMessage("priority: must be 0 to 255, was -1");
        assertThatIllegalArgumentException().isThrownBy(() -> new DeliveryOptions(null, null, " ", null, null))
                .withMessageStartingWith("exchange: must not be blank");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> new DeliveryOptions(null, null, null, null, Map.of("ETA", "now")))
                .withMessage("headers.ETA: the transport sets this header itself");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> new DeliveryOptions(null, null, null, null, Map.of("idempotency_key", "x")))
                .withMessage("headers.idempotency_key: the transport sets this header itself");
    }

    @Test
    void theTasksOwnPartsWinOverTheRoutesAndHeadersMerge() {
        DeliveryOptions route = new DeliveryOptions(Duration.ofHours(1), 3, "billing", null,
                Map.of("tenant", "route", "region", "eu"));
        DeliveryOptions job = new DeliveryOptions(null, 9, null, "billing.urgent", Map.of("tenant", "acme"));

        DeliveryOptions effective = job.over(route);

        assertThat(effective).isEqualTo(new DeliveryOptions(Duration.ofHours(1), 9, "billing", "billing.urgent",
                Map.of("tenant", "acme", "region", "eu")));
        assertThat(DeliveryOptions.NONE.over(route)).isEqualTo(route);
        assertThat(DeliveryOptions.NONE.isEmpty()).isTrue();
        assertThat(effective.isEmpty()).isFalse();
    }

    @Test
    void aTaskRequestCarriesItsDeliveryOptionsAndDefaultsToNone() {
        TaskRequest plain = TaskRequest.of("reports.daily", "reports");
        TaskRequest urgent = TaskRequest.builder("reports.daily").expires(Duration.ofMinutes(30)).priority(5).build();

        assertThat(plain.delivery()).isSameAs(DeliveryOptions.NONE);
        assertThat(urgent.delivery().expires()).isEqualTo(Duration.ofMinutes(30));
        assertThat(urgent.delivery().priority()).isEqualTo(5);
        assertThat(new TaskRequest("t", "q", null, null, null, null, null).delivery()).isSameAs(DeliveryOptions.NONE);
    }
}
