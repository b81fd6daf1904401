package dev.onebeat.scheduler.engine.registry;

import java.time.Duration;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * The cluster's last judgement of orphaned jobs ({@code onebeat_orphan_judgement}, one row): what it depended on
 * ({@link JobCatalog#orphanInputs}), when it was made and until when it stands, by database time. A judgement reads the whole catalog
 * ({@link JobCatalog#judgeOrphans}); with this record a replica's turn judges only what changed since the cluster's
 * last judgement, whichever replica made it, instead of each replica judging every change for itself. A judgement
 * that also depended on something its inputs do not show (a replica starting, or one whose own check-in is late,
 * counts itself alive) stands for a shorter time.
 */
@Component
public class OrphanJudgements {

    private final JdbcClient jdbc;

    OrphanJudgements(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /**
     * @param inputs what a judgement made now would depend on
     * @return whether the last judgement was made on these same inputs and still stands: judging again would change
     *     nothing it did not
     */
    public boolean stands(String inputs) {
        return jdbc.sql("""
                        SELECT count(*) FROM onebeat_orphan_judgement
                        WHERE id = 1 AND inputs = ? AND stands_until > now()""")
                .param(inputs)
                .query(Long.class).single() > 0;
    }

    /**
     * Records a judgement just made, in its transaction.
     *
     * @param inputs what it depended on; null when they changed while it ran, so that the next turn judges again
     * @param standsFor how long, by database time, turns that read the same inputs leave it as it is
     */
    public void record(String inputs, Duration standsFor) {
        jdbc.sql("""
                        INSERT INTO onebeat_orphan_judgement (id, inputs, judged_at, stands_until)
                        VALUES (1, ?, now(), now() + ? * interval '1 millisecond')
                        ON CONFLICT (id) DO UPDATE SET inputs = excluded.inputs, judged_at = excluded.judged_at,
                                                       stands_until = excluded.stands_until""")
                .params(inputs, standsFor.toMillis())
                .update();
    }
}
