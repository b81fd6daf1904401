package dev.onebeat.scheduler.engine.quartz;

import dev.onebeat.scheduler.boot.database.StoppableTransactions;
import dev.onebeat.scheduler.engine.cluster.LiveNodes;
import dev.onebeat.scheduler.engine.registry.JobCatalog;
import dev.onebeat.scheduler.engine.registry.JobCatalog.OrphanChange;
import dev.onebeat.scheduler.engine.registry.OrphanJudgements;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.context.ApplicationContext;
import org.springframework.context.ApplicationContextAware;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.event.ContextClosedEvent;
import org.springframework.context.event.EventListener;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Keeps the catalog's orphaned flags in line with the live cluster: a job is orphaned when no replica alive now
 * registers it ({@link LiveNodes}: alive while its Quartz scheduler checks in, by database time), never because one
 * replica does not. Judged at start-up, once this replica has recorded what it registers (it counts itself then: it
 * is starting), and again, every two Quartz check-in intervals, by one of the replicas whose Quartz runs (one at a
 * time; a replica finding another at it skips its turn) when what the judgement depends on — the live replicas, a
 * replica's registrations, the runtime jobs ({@link JobCatalog#orphanInputs}) — differs from what the cluster's last
 * judgement depended on ({@link OrphanJudgements}), and at least every {@link #FULL_JUDGEMENT_EVERY}. A judgement
 * reads the whole catalog, so the cluster makes one per change, not one per replica. So a job comes back as soon as a
 * live replica registers it and is orphaned once the last replica registering it stops checking in, or never started
 * Quartz (a replica run with {@code spring.quartz.auto-startup=false} does not count, and does not judge). An orphaned
 * job does not fire; the missed-fire detector reports its instants missed.
 */
@Component
class Orphans implements ApplicationContextAware, DisposableBean {

    private static final Logger log = LoggerFactory.getLogger(Orphans.class);

    private final JobCatalog catalog;
    private final OrphanJudgements judgements;
    private final LiveNodes nodes;
    private final TransactionTemplate transactions;
    /** The judgements' transactions, which a shutdown cancels: at a million jobs one reads the catalog for seconds. */
    private final StoppableTransactions judgementTransactions;
    private final JdbcClient jdbc;
    /**
     * The cluster judges at least this often, even when nothing it depends on seems to have changed: a safety net for
     * a change made around the inputs (by hand in the database), not the way changes are found. At 1,000,000 jobs a
     * judgement takes several seconds of the server's time.
     */
    static final Duration FULL_JUDGEMENT_EVERY = Duration.ofMinutes(10);
    /**
     * How long a judgement stands that counted its own replica alive while the inputs did not (a replica starting,
     * before its Quartz checks in; one whose check-in is late): its first check-in changes the inputs and is judged
     * at once; a replica that never checks in (its Quartz not started) has the jobs only it registers orphaned once
     * this has passed.
     */
    static final Duration COUNTED_ITSELF_STANDS_FOR = Duration.ofMinutes(1);
    /** How long a shutdown waits for a judgement it cancelled to roll back. */
    private static final Duration STOP_WAIT = Duration.ofSeconds(5);
    private final ScheduledExecutorService thread = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread daemon = new Thread(runnable, "onebeat-orphans");
        daemon.setDaemon(true);
        return daemon;
    });
    private ApplicationContext context;

    Orphans(JobCatalog catalog, OrphanJudgements judgements, LiveNodes nodes, TransactionTemplate transactions,
            JdbcClient jdbc, DataSource dataSource) {
        this.catalog = catalog;
        this.judgements = judgements;
        this.nodes = nodes;
        this.transactions = transactions;
        this.jdbc = jdbc;
        this.judgementTransactions = new StoppableTransactions(transactions, dataSource, "orphan judgement");
    }

    @Override
    public void setApplicationContext(ApplicationContext context) {
        this.context = context;
    }

    @EventListener(ApplicationReadyEvent.class)
    void startTurns() {
        long every = nodes.checkinInterval().multipliedBy(2).toMillis();
        thread.scheduleWithFixedDelay(this::turn, every, every, TimeUnit.MILLISECONDS);
    }

    private void turn() {
        if (!nodes.checksIn()) {
            // not part of the live cluster: counting itself would keep alive the jobs only it registers
            return;
        }
        try {
            judgeIfChanged();
        } catch (StoppableTransactions.Stopped e) {
            if (e.getCause() != null) {
                log.info("orphan judgement stopped by the shutdown and rolled back; another replica judges");
            }
        } catch (RuntimeException e) {
            log.warn("orphaned jobs not judged, trying again in {} error={}", nodes.checkinInterval().multipliedBy(2),
                    e.toString());
        }
    }

    /**
     * A replica's turn: judges every job unless the cluster's last judgement was made on the same inputs and still
     * stands ({@link #FULL_JUDGEMENT_EVERY}, or {@link #COUNTED_ITSELF_STANDS_FOR}), or another replica is judging
     * now.
     *
     * @return whether this replica judged
     */
    boolean judgeIfChanged() {
        boolean[] judged = new boolean[1];
        List<OrphanChange> changes = judgementTransactions.execute(() -> {
            if (!lock(false)) {
                return List.<OrphanChange>of();
            }
            // what a judgement depends on is a few rows, read under the lock, so that a replica that judged before
            // it was taken has recorded its judgement: most turns end here
            String inputs = catalog.orphanInputs();
            if (judgements.stands(inputs)) {
                return List.<OrphanChange>of();
            }
            List<OrphanChange> made = judgeAndRecord(inputs);
            judged[0] = true;
            return made;
        });
        report(changes);
        return judged[0];
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
        return report(judgementTransactions.execute(() -> {
            if (!lock(wait)) {
                return List.<OrphanChange>of();
            }
            return judgeAndRecord(catalog.orphanInputs());
        }));
    }

    /** Judges every job, under the lock, and records the judgement as made on {@code inputs}, read just before. */
    private List<OrphanChange> judgeAndRecord(String inputs) {
        List<OrphanChange> made = catalog.judgeOrphans(nodes.self());
        if (!inputs.equals(catalog.orphanInputs())) {
            // a check-in committed while it ran made a replica alive, or Quartz's recovery removed a dead one, after
            // the inputs were read: the next turn judges again
            judgements.record(null, Duration.ZERO);
        } else {
            // a replica starting, before its Quartz checks in, or one whose check-in is late counted itself alive,
            // which the inputs do not show
            judgements.record(inputs, catalog.checkedIn(nodes.self()) ? FULL_JUDGEMENT_EVERY
                    : COUNTED_ITSELF_STANDS_FOR);
        }
        return made;
    }

    /** Logs each job whose state a judgement changed. @return how many it newly found orphaned */
    private static int report(List<OrphanChange> changes) {
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
        return orphaned;
    }

    private boolean lock(boolean wait) {
        // one replica at a time: another judging at once would find nothing more to change
        return jdbc.sql(wait ? "SELECT pg_advisory_xact_lock(hashtextextended('onebeat.orphans', 0)) IS NOT NULL"
                        : "SELECT pg_try_advisory_xact_lock(hashtextextended('onebeat.orphans', 0))")
                .query(Boolean.class).single();
    }

    /**
     * Cancels a judgement under way as the shutdown begins, so that it rolls back while the replica's fires and relay
     * finish; {@link #destroy} waits for it.
     */
    @EventListener
    void shutdownBegins(ContextClosedEvent closed) {
        if (closed.getApplicationContext() == context) {
            judgementTransactions.beginStop();
        }
    }

    /** Cancels a judgement under way, which rolls back, and waits for it to end before the pool closes. */
    @Override
    public void destroy() {
        judgementTransactions.stop(STOP_WAIT);
        thread.shutdownNow();
    }
}
