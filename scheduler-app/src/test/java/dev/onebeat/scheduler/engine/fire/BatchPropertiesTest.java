package dev.onebeat.scheduler.engine.fire;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** How many fires share a transaction: the configured batch, grown for an instant too large for four rounds of it. */
class BatchPropertiesTest {

    @Test
    void anInstantUpToFourBatchesPerThreadKeepsTheConfiguredBatch() {
        FireProperties.Batch batch = FireProperties.DEFAULTS.batch();
        assertThat(batch).isEqualTo(new FireProperties.Batch(200, 4, 1000));
        assertThat(batch.sizeFor(1)).isEqualTo(200);
        assertThat(batch.sizeFor(1_000)).isEqualTo(200);
        assertThat(batch.sizeFor(3_200)).as("4 threads, 4 batches of 200 each").isEqualTo(200);
    }

    @Test
    void aLargerInstantIsDividedIntoAboutFourBatchesPerThreadUpToMaxJobs() {
        FireProperties.Batch batch = FireProperties.DEFAULTS.batch();
        assertThat(batch.sizeFor(3_201)).isEqualTo(201);
        assertThat(batch.sizeFor(10_000)).isEqualTo(625);
        assertThat(batch.sizeFor(16_000)).isEqualTo(1_000);
        assertThat(batch.sizeFor(100_000)).isEqualTo(1_000);
        assertThat(batch.sizeFor(Integer.MAX_VALUE)).isEqualTo(1_000);
    }

    @Test
    void aMaxBelowTheBatchNeverShrinksIt() {
        assertThat(new FireProperties.Batch(100, 2, 50).sizeFor(100_000)).isEqualTo(100);
        assertThat(new FireProperties.Batch(100, 2, 100).sizeFor(100_000)).isEqualTo(100);
    }
}
