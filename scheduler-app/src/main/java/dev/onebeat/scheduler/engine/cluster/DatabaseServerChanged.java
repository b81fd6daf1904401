package dev.onebeat.scheduler.engine.cluster;

import java.time.Instant;
import java.util.Objects;

/**
 * Published once when a replica finds its pool connected to another incarnation of the database server than
 * before: another server (a standby promoted, a DNS name moved) or the same one restarted. Either may have lost
 * commits the replica made before it (asynchronous replication), and may hold fire records of this replica for
 * fires it already completed.
 *
 * @param before the incarnation seen last before the change
 * @param after the incarnation seen now
 * @param lastSeenBefore when {@code before} was last read: the change happened after it
 */
public record DatabaseServerChanged(DatabaseIncarnation before, DatabaseIncarnation after, Instant lastSeenBefore) {

    public DatabaseServerChanged {
        Objects.requireNonNull(before, "before must not be null");
        Objects.requireNonNull(after, "after must not be null");
        Objects.requireNonNull(lastSeenBefore, "lastSeenBefore must not be null");
    }
}
