package dev.onebeat.scheduler.engine.fire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class SharePropertiesTest {

    private static FireProperties.Share share(int minJobs, int sliceJobs) {
        return new FireProperties.Share(minJobs, sliceJobs, Duration.ofMillis(200), Duration.ofMinutes(1));
    }

    @Test
    void anInstantIsSharedFromMinJobsAndOnlyWhenItFillsMoreThanOneSlice() {
        assertThat(share(5_000, 800).shares(4_999)).isFalse();
        assertThat(share(5_000, 800).shares(5_000)).isTrue();
        assertThat(share(10, 800).shares(800)).as("one slice: nothing to share").isFalse();
        assertThat(share(10, 800).shares(801)).isTrue();
        assertThat(share(0, 800).shares(1_000_000)).as("0 never shares").isFalse();
    }

    @Test
    void byDefaultNoInstantIsShared() {
        assertThat(FireProperties.DEFAULTS.share()).isEqualTo(share(0, 800));
        assertThat(FireProperties.DEFAULTS.share().shares(1_000_000)).isFalse();
    }

    @Test
    void aLeaseOutsideOneSecondToOneDayIsRefusedNamingTheProperty() {
        assertThatThrownBy(() -> new FireProperties.Share(5_000, 800, Duration.ofMillis(200), Duration.ofMillis(500)))
                .hasMessageContaining("onebeat.fire.share.lease").hasMessageContaining("PT0.5S");
        assertThatThrownBy(() -> new FireProperties.Share(5_000, 800, Duration.ofMillis(200), Duration.ofDays(2)))
                .hasMessageContaining("onebeat.fire.share.lease").hasMessageContaining("PT48H");
    }

    @Test
    void aPollIntervalThatIsNotPositiveIsRefusedNamingTheProperty() {
        assertThatThrownBy(() -> new FireProperties.Share(5_000, 800, Duration.ZERO, Duration.ofMinutes(1)))
                .hasMessageContaining("onebeat.fire.share.poll-interval").hasMessageContaining("PT0S");
    }
}
