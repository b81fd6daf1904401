package dev.onebeat.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class AlertPolicyTest {

    @Test
    void defaultGraceIsHalfThePeriodBetweenThirtySecondsAndFiveMinutes() {
        AlertPolicy policy = AlertPolicy.DEFAULT;

        assertThat(policy.graceFor(Duration.ofSeconds(1))).isEqualTo(Duration.ofSeconds(30));
        assertThat(policy.graceFor(Duration.ofMinutes(2))).isEqualTo(Duration.ofMinutes(1));
        assertThat(policy.graceFor(Duration.ofMinutes(10))).isEqualTo(Duration.ofMinutes(5));
        assertThat(policy.graceFor(Duration.ofDays(1))).isEqualTo(Duration.ofMinutes(5));
        assertThat(policy.graceFor(null)).as("no next instant").isEqualTo(Duration.ofMinutes(5));
    }

    @Test
    void aGraceSetOnTheJobIsTakenAsItIs() {
        AlertPolicy policy = AlertPolicy.DEFAULT.withGrace(Duration.ofSeconds(2));

        assertThat(policy.graceFor(Duration.ofDays(1))).isEqualTo(Duration.ofSeconds(2));
    }

    @Test
    void withersKeepTheOtherSettings() {
        AlertPolicy policy = AlertPolicy.DEFAULT.withThresholds(3, 2).withHealthchecks("https://hc-ping.com/abc")
                .withSentryMonitor("nightly-report").disabled();

        assertThat(policy).isEqualTo(new AlertPolicy(false, null, 3, 2, "https://hc-ping.com/abc", "nightly-report"));
    }

    @Test
    void badValuesAreRefusedNamingTheField() {
        assertThatIllegalArgumentException().isThrownBy(() -> AlertPolicy.DEFAULT.withGrace(Duration.ZERO))
                .withMessage("grace must be positive, was PT0S");
        assertThatIllegalArgumentException().isThrownBy(() -> AlertPolicy.DEFAULT.withThresholds(0, 1))
                .withMessage("afterFailures must be 1 to 1000, was 0");
        assertThatIllegalArgumentException().isThrownBy(() -> AlertPolicy.DEFAULT.withThresholds(1, 1001))
                .withMessage("resolveAfter must be 1 to 1000, was 1001");
        assertThatIllegalArgumentException().isThrownBy(() -> AlertPolicy.DEFAULT.withHealthchecks("hc-ping.com/abc"))
                .withMessage("healthchecksUrl must be an http:// or https:// URL, was 'hc-ping.com/abc'");
        assertThatIllegalArgumentException().isThrownBy(() -> AlertPolicy.DEFAULT.withSentryMonitor("Nightly Report"))
                .withMessageStartingWith("sentryMonitor must be a monitor slug");
    }
}
