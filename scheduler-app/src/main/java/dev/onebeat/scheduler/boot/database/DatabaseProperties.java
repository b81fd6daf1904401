package dev.onebeat.scheduler.boot.database;

import java.util.EnumSet;
import java.util.Set;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * What onebeat adds to Hikari's handling of a pooled connection that failed ({@code onebeat.database.*}); see
 * {@link PoolEviction}.
 *
 * @param evictReadOnly evict a pooled connection that answers read-only (SQLState 25006: a writer demoted by a
 *     failover, {@code default_transaction_read_only} turned on), and every other connection of the pool with it, so
 *     that new ones reach the new primary
 * @param evictOnLostSession when the server ends or loses one pooled session (SQLState class 08, 57P01 to 57P03: a
 *     failover, a restart, a terminated backend, a network cut, a statement past the driver's socketTimeout), evict
 *     every other connection of the pool too, so that none of them is handed out dead and fails once more
 */
@ConfigurationProperties("onebeat.database")
public record DatabaseProperties(
        @DefaultValue("true") boolean evictReadOnly,
        @DefaultValue("true") boolean evictOnLostSession) {

    /** @return the reasons for which a failed connection evicts the whole pool */
    Set<PoolEviction.Reason> evictionReasons() {
        Set<PoolEviction.Reason> reasons = EnumSet.noneOf(PoolEviction.Reason.class);
        if (evictReadOnly) {
            reasons.add(PoolEviction.Reason.READ_ONLY);
        }
        if (evictOnLostSession) {
            reasons.add(PoolEviction.Reason.SESSION_LOST);
        }
        return reasons;
    }
}
