package dev.onebeat.scheduler.engine.registry;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onebeat.job.PeriodicJob;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

class ScheduleKeysTest {

    @Test
    void jobsDefinedByDataShareTheirSchedulesKeyWhichStaysTheDigestOfItsSignaturePastTheMemosLimit() throws Exception {
        PeriodicJob a = declared("a", "60s");
        String key = ScheduleKeys.key(a);

        // the key names a trigger stored in the database: it must not change from one version to the next
        assertThat(key).isEqualTo("s" + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                .digest(ScheduleKeys.signature(a).getBytes(StandardCharsets.UTF_8)), 0, 12));
        assertThat(ScheduleKeys.key(declared("b", "60s"))).isEqualTo(key);
        assertThat(ScheduleKeys.key(declared("c", "120s"))).isNotEqualTo(key).startsWith("s").hasSize(25);
        // the whole signature tells schedules apart, not the expression alone
        assertThat(ScheduleKeys.key(DeclarativeJobs.toJob("", JobsProperties.Definition.builder("skips").every("60s")
                .misfire("skip-missed").task("t").build()))).isNotEqualTo(key);
        assertThat(ScheduleKeys.key(DeclarativeJobs.toJob("", JobsProperties.Definition.builder("spread").every("60s")
                .spread("10s").task("t").build()))).isNotEqualTo(key);

        // more schedules than the memo keeps: it starts again, and every key is worked out anew
        for (int seconds = 1; seconds <= 5_000; seconds++) {
            ScheduleKeys.key(declared("other-" + seconds, seconds + "s"));
        }
        assertThat(ScheduleKeys.key(declared("d", "60s"))).isEqualTo(key);
        assertThat(ScheduleKeys.key(declared("e", "7s"))).isNotEqualTo(ScheduleKeys.key(declared("f", "8s")));
    }

    private static PeriodicJob declared(String name, String every) {
        return DeclarativeJobs.toJob("", JobsProperties.Definition.builder(name).every(every).task("t").build());
    }
}
