package dev.onebeat.scheduler.operate.admin;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.List;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/** Reads ShedLock's table: which job locks are held, until when, by which replica. */
@Component
public class LockTable {

    private final JdbcClient jdbc;

    LockTable(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /**
     * A row of {@code shedlock}; a lock is held while {@code lockUntil} is in the future (database time).
     *
     * @param name {@code onebeat:<job>}
     * @param lockUntil when it expires, or when it was released
     * @param lockedAt when it was last taken
     * @param lockedBy the replica that took it
     */
    public record Lock(String name, Instant lockUntil, Instant lockedAt, String lockedBy) {
    }

    /**
     * There is a row per job that ever fired, so 10,000 jobs make 10,000 rows: a caller asks for a few.
     *
     * @param heldOnly only the locks held now (until a time still ahead, database time)
     * @param limit at most this many
     * @return the most recently taken locks first
     */
    public List<Lock> latest(boolean heldOnly, int limit) {
        // ShedLock's usingDbTime() writes UTC wall-clock values into columns without a zone
        return jdbc.sql("SELECT name, lock_until, locked_at, locked_by FROM shedlock"
                        + (heldOnly ? " WHERE lock_until > timezone('utc', now())" : "")
                        + " ORDER BY locked_at DESC, name LIMIT ?")
                .param(limit)
                .query((rs, row) -> new Lock(rs.getString(1), utc(rs.getObject(2, LocalDateTime.class)),
                        utc(rs.getObject(3, LocalDateTime.class)), rs.getString(4)))
                .list();
    }

    private static Instant utc(LocalDateTime time) {
        return time.toInstant(ZoneOffset.UTC);
    }
}
