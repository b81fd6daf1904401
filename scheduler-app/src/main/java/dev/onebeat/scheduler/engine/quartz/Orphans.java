package dev.onebeat.scheduler.engine.quartz;

import dev.onebeat.scheduler.engine.cluster.LiveNodes;
import dev.onebeat.scheduler.engine.registry.JobCatalog;
import dev.onebeat.scheduler.engine.registry.JobCatalog.OrphanChange;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.event.EventListener;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Keeps the catalog's orphaned flags in line with the live cluster: a job is orphaned when no replica alive now
 * registers it ({@link LiveNodes}: alive while its Quartz scheduler checks in, by database time), never because one
 * replica does not. Judged at start-up, once this replica has recorded what it registers (it counts itself then: it
 * is starting), and again every two Quartz check-in intervals on every replica whose Quartz runs (one at a time; a
 * replica finding another at it skips its turn) when what the judgement depends on changed since this replica last
 * judged — the live replicas, a replica's registrations, the runtime jobs ({@link JobCatalog#orphanInputs}) — and at
 * least every {@link #FULL_JUDGEMENT_EVERY}: a judgement reads the whole catalog. So a job comes back as soon as a live replica registers it and is
 * orphaned once the last replica registering it stops checking in, or never started Quartz (a replica run with
 * {@code spring.quartz.auto-startup=false} does not count, and does not judge). An orphaned job does not fire; the
 * missed-fire detector reports its instants missed.
 */
@Component
class Orphans implements DisposableBean {

    private static final Logger log = LoggerFactory.getLogger(Orphans.class);

    private final JobCatalog catalog;
    private final LiveNodes nodes;
    private final TransactionTemplate transactions;
    private final JdbcClient jdbc;
    /** A judgement runs at least this often, even when nothing it depends on seems to have changed. */
    static final Duration FULL_JUDGEMENT_EVERY = Duration.ofMinutes(1);

    private String lastInputs;
    private long lastJudgedNanos;
    private final ScheduledExecutorService thread = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread daemon = new Thread(runnable, "onebeat-orphans");
        daemon.setDaemon(true);
        return daemon;
    });

    Orphans(JobCatalog catalog, LiveNodes nodes, TransactionTemplate transactions, JdbcClient jdbc) {
        this.catalog = catalog;
        this.nodes = nodes;
        this.transactions = transactions;
        this.jdbc = jdbc;
    }

    @EventListener(ApplicationReadyEvent.class)
    void start() {
        long every = nodes.checkinInterval().multipliedBy(2).toMillis();
        thread.scheduleWithFixedDelay(this::turn, every, every, TimeUnit.MILLISECONDS);
    }

    private void turn() {
        if (!nodes.checksIn()) {
            // not part of the live cluster: counting itself would keep alive the jobs only it registers
            return;
        }
        try {
            // a judgement reads every job of the catalog; what it depends on is a few rows, read first
            String inputs = catalog.orphanInputs();
            if (inputs.equals(lastInputs) && System.nanoTime() - lastJudgedNanos < FULL_JUDGEMENT_EVERY.toNanos()) {
                return;
            }
            if (judged(false)) {
                // each read judges liveness at its own moment: a replica whose check-in was on the edge may count in
                // one and not the other, and then the next turn must judge again rather than skip
                lastInputs = inputs.equals(catalog.orphanInputs()) ? inputs : null;
                lastJudgedNanos = System.nanoTime();
            }
        } catch (RuntimeException e) {
            log.warn("orphaned jobs not judged, trying again in {} error={}", nodes.checkinInterval().multipliedBy(2),
                    e.toString());
        }
    }

    /**
     * Records, in one transaction, the jobs this replica registers. A judgement cannot overlap it: one that began
     * before it would otherwise orphan again, from what it read, a job this replica has just registered.
     */
    void register(List<String> names) {
        transactions.execute(status -> {
            lock(true);
            nodes.registers(names);
            return null;
        });
    }

    /**
     * Judges every job of the catalog.
     *
     * @param wait whether to wait for a judgement or registration of another replica to end (at start-up), or to
     *     leave the turn to it
     * @return how many jobs it newly found orphaned
     */
    int judge(boolean wait) {
        if (wait) {
            // at start-up, once this replica's jobs are stored: others that judged since it registered them, before
            // their rows existed, see its registrations change again and judge again
            nodes.registrationsStored();
        }
        return judgeAndCount(wait)[1];
    }

    /** @return whether this replica judged (it did not find another at it) */
    private boolean judged(boolean wait) {
        return judgeAndCount(wait)[0] == 1;
    }

    /** @return [1 if judged here, else 0; jobs newly orphaned] */
    private int[] judgeAndCount(boolean wait) {
        boolean[] locked = new boolean[1];
        List<OrphanChange> changes = transactions.execute(status -> {
            locked[0] = lock(wait);
            return locked[0] ? catalog.judgeOrphans(nodes.self()) : List.<OrphanChange>of();
        });
        int orphaned = 0;
        for (OrphanChange change : changes) {
            if (change.orphaned()) {
                orphaned++;
                log.warn("job no longer registered by any live replica, not fired until one registers it again (not "
                        + "deleted; its instants are reported missed) job={}: remove it from the store by hand if it "
                        + "is gone for good", change.name());
            } else {
                log.info("job registered again by a live replica, fires again job={}", change.name());
            }
        }
        return new int[] {locked[0] ? 1 : 0, orphaned};
    }

    private boolean lock(boolean wait) {
        // one replica at a time: another judging at once would find nothing more to change
        return jdbc.sql(wait ? "SELECT pg_advisory_xact_lock(hashtextextended('onebeat.orphans', 0)) IS NOT NULL"
                        : "SELECT pg_try_advisory_xact_lock(hashtextextended('onebeat.orphans', 0))")
                .query(Boolean.class).single();
    }

    @Override
    public void destroy() {
        thread.shutdownNow();
    }
}
