package dev.onebeat.testsupport;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Ports for servers the tests start themselves (private PostgreSQL nodes, RabbitMQ and Redis, the packaged
 * application), chosen before the server binds them. A port is chosen below the system's range of ephemeral ports:
 * one from that range can, between the choice and the bind, become the local port of any outgoing connection, even
 * of a client's connection to that very port, which connects to itself while nothing listens there; then the server
 * cannot bind it ("Address already in use"), or a client meant to find the port closed finds it open. Below the
 * range, only a listener can take it. A port is never handed out twice in one JVM.
 */
public final class FreePorts {

    /** IANA's first dynamic port, where the system's range cannot be read. */
    private static final int IANA_EPHEMERAL_START = 49_152;
    private static final Set<Integer> GIVEN = ConcurrentHashMap.newKeySet();

    private FreePorts() {
    }

    /** @return a port nothing is bound to now, below the ephemeral range, not handed out before by this JVM */
    public static int take() {
        int below = ephemeralRangeStart();
        for (int attempt = 0; attempt < 100; attempt++) {
            int port = ThreadLocalRandom.current().nextInt(Math.min(20_000, below / 2), below);
            if (GIVEN.add(port) && bindable(port)) {
                return port;
            }
        }
        throw new IllegalStateException("no free port below the ephemeral range, which starts at " + below);
    }

    /** @return the first port of Linux's ephemeral range, or of IANA's where that cannot be read */
    static int ephemeralRangeStart() {
        try {
            // read by lines: Files.readString trusts the size /proc reports, and reads a byte of it (JDK 17)
            String range = Files.readAllLines(Path.of("/proc/sys/net/ipv4/ip_local_port_range")).get(0).trim();
            int start = Integer.parseInt(range.split("\\s+")[0]);
            return start > 2_048 ? start : IANA_EPHEMERAL_START;
        } catch (IOException | RuntimeException e) {
            return IANA_EPHEMERAL_START;
        }
    }

    private static boolean bindable(int port) {
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(false);
            socket.bind(new InetSocketAddress("127.0.0.1", port));
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
