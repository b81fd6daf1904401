package dev.onebeat.scheduler.engine.registry;

import java.time.Duration;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * The cluster's last judgement of orphaned jobs ({@code onebeat_orphan_judgement}, one row): what it depended on
 * ({@link JobCatalog#orphanInputs}) and when it was made, by database time. A judgement reads the whole catalog
 * ({@link JobCatalog#judgeOrphans}); with this record a replica's turn judges only what changed since the cluster's
 * last judgement, whichever replica made it, instead of each replica judging every change for itself. A judgement
 * that may have depended on more than its inputs (a replica starting, or one whose own check-in is late, counts
 * itself alive) records no inputs, and the next turn judges again.
 */
@Component
public class OrphanJudgements {

    private final JdbcClient jdbc;

    OrphanJudgements(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /**
     * @param inputs what a judgement made now would depend on
     * @param maxAge how old, by database time, the last judgement may be and still stand
     * @return whether the last judgement was made on these same inputs within {@code maxAge}, and recorded them as
     *     all it depended on: judging again would change nothing it did not
     */
    public boolean stands(String inputs, Duration maxAge) {
        return jdbc.sql("""
                        SELECT count(*) FROM onebeat_orphan_judgement
                        WHERE id = 1 AND inputs = ? AND judged_at > now() - ? * interval '1 millisecond'""")
                .params(inputs, maxAge.toMillis())
                .query(Long.class).single() > 0;
    }

    /**
     * Records a judgement just made, in its transaction.
     *
     * @param inputs what it depended on; null when they changed while it ran, so that the next turn judges again
     */
    public void record(String inputs) {
        jdbc.sql("""
                        INSERT INTO onebeat_orphan_judgement (id, inputs, judged_at) VALUES (1, ?, now())
                        ON CONFLICT (id) DO UPDATE SET inputs = excluded.inputs, judged_at = excluded.judged_at""")
                .param(inputs)
                .update();
    }
}
