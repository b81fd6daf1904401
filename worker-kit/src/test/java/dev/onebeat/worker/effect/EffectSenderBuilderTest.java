package dev.onebeat.worker.effect;

import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.postgresql.ds.PGSimpleDataSource;

class EffectSenderBuilderTest {

    private final EffectSender.Builder builder = EffectSender.builder(new PGSimpleDataSource());

    @Test
    void senderWithoutAnyDeliveryIsRejected() {
        assertThatIllegalArgumentException().isThrownBy(builder::build)
                .withMessage("deliveries must name at least one channel");
    }

    @Test
    void nonPositiveBatchSizeIsRejectedNamingTheField() {
        builder.delivery("email", effect -> { });

        assertThatIllegalArgumentException().isThrownBy(() -> builder.batchSize(0).build())
                .withMessage("batchSize must be within 1..10000, was 0");
    }

    @Test
    void zeroLeaseIsRejected() {
        builder.delivery("email", effect -> { });

        assertThatIllegalArgumentException().isThrownBy(() -> builder.lease(Duration.ZERO).build())
                .withMessage("lease must be positive, was PT0S");
    }
}
