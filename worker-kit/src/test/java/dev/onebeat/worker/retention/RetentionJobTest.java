package dev.onebeat.worker.retention;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class RetentionJobTest {

    @Test
    void dailyJobHasTheRetentionNameAndBoundedFires() {
        RetentionJob job = RetentionJob.daily(Duration.ofDays(30));

        assertThat(job.name()).isEqualTo("onebeat-retention");
        assertThat(job.schedule()).isEqualTo(RetentionJob.DAILY);
        assertThat(job.batchSize()).isEqualTo(1_000);
        assertThat(job.maxRowsPerFire()).isEqualTo(100_000);
    }

    @Test
    void zeroAgeIsRefusedByName() {
        assertThatThrownBy(() -> RetentionJob.daily(Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("olderThan must be positive, was PT0S");
    }

    @Test
    void batchSizeOutOfRangeIsRefusedWithItsValue() {
        assertThatThrownBy(() -> new RetentionJob(Duration.ofDays(1), 0, 10, RetentionJob.DAILY))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("batchSize must be 1 to 100000, was 0");
    }
}
