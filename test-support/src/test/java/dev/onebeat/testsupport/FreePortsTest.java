package dev.onebeat.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class FreePortsTest {

    /** A port the kernel may hand to an outgoing connection can be taken before the server binds it: none of those. */
    @Test
    void portsAreBelowTheEphemeralRangeAndNeverGivenTwice() throws IOException {
        Path range = Path.of("/proc/sys/net/ipv4/ip_local_port_range");
        int ephemeralStart = Files.exists(range)
                ? Integer.parseInt(Files.readAllLines(range).get(0).trim().split("\\s+")[0]) : 49_152;
        Set<Integer> ports = new HashSet<>();

        for (int i = 0; i < 50; i++) {
            int port = FreePorts.take();
            assertThat(port).isBetween(1_024, ephemeralStart - 1);
            assertThat(ports.add(port)).as("port %d given twice", port).isTrue();
        }
    }
}
