package dev.onebeat.testsupport.jvm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A JVM under libfaketime as the skew tests start one: its wall clock ahead, its waits at the real pace. */
class FaketimeIT {

    @Test
    void aSkewedJvmSeesItsClockAheadAndItsTimedWaitsStillWait(@TempDir Path folder) throws Exception {
        assumeTrue(Faketime.installed(), "libfaketime is not installed (Debian package faketime)");
        Path offset = folder.resolve("offset");
        Files.writeString(offset, "+30s\n");

        Probe probe = probe(folder, Faketime.offsetFrom(offset));

        assertThat(probe.wallAheadMillis()).as("the child's wall clock, ahead of the test's").isBetween(29_000L, 40_000L);
        // a spinning wait returns at once, so millions of parks fit in a second; ten is the real pace
        assertThat(probe.parks()).as("100 ms parks in one second").isBetween(5L, 11L);
    }

    @Test
    void theCommandWithAFixedOffsetKeepsTheWaitsRealToo(@TempDir Path folder) throws Exception {
        assumeTrue(Faketime.installed(), "libfaketime is not installed (Debian package faketime)");

        Probe probe = probe(folder, Map.of(), Faketime.COMMAND.toString(), "-f", "+30s");

        assertThat(probe.wallAheadMillis()).isBetween(29_000L, 40_000L);
        assertThat(probe.parks()).isBetween(5L, 11L);
    }

    private record Probe(long wallAheadMillis, long parks) {
    }

    private static Probe probe(Path folder, Map<String, String> environment, String... prefix) {
        long before = System.currentTimeMillis();
        JavaProcess process = JavaLauncher.mainClass("faketime-probe", FaketimeProbe.class)
                .prefix(java.util.List.of(prefix))
                .environment(environment)
                .environment(Faketime.WALL_CLOCK_ONLY)
                .log(folder.resolve("probe.log"))
                .start();
        try (process) {
            assertThat(process.awaitExit(Duration.ofSeconds(60))).as("the probe's exit status").isZero();
            return new Probe(Long.parseLong(value(process, "wall ")) - before, Long.parseLong(value(process, "parks ")));
        }
    }

    private static String value(JavaProcess process, String prefix) {
        return process.logLines(line -> line.startsWith(prefix)).get(0).substring(prefix.length()).trim();
    }
}
