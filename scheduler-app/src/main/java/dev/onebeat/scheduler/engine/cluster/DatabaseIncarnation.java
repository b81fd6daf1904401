package dev.onebeat.scheduler.engine.cluster;

import java.time.Instant;
import java.util.Objects;

/**
 * One life of a database server, as any role may read it: where it listens ({@code inet_server_addr()},
 * {@code inet_server_port()}) and when its postmaster started ({@code pg_postmaster_start_time()}). A promoted
 * standby listens elsewhere or started at another time than the primary it replaces; a restarted server started
 * later. A server reached over a Unix socket has no address.
 *
 * @param address the server's address, or {@code local} over a Unix socket
 * @param port the server's port, 0 over a Unix socket
 * @param startedAt when the server's postmaster started
 * @param inRecovery whether it is a standby ({@code pg_is_in_recovery()}): shown, not part of the identity, since a
 *     promotion changes it without changing the server
 */
public record DatabaseIncarnation(String address, int port, Instant startedAt, boolean inRecovery) {

    public DatabaseIncarnation {
        Objects.requireNonNull(address, "address must not be null");
        Objects.requireNonNull(startedAt, "startedAt must not be null");
    }

    /** @return whether {@code other} is another server, or this one restarted */
    boolean differsFrom(DatabaseIncarnation other) {
        return !address.equals(other.address) || port != other.port || !startedAt.equals(other.startedAt);
    }

    @Override
    public String toString() {
        return address + ":" + port + "/started=" + startedAt + (inRecovery ? "/standby" : "");
    }
}
