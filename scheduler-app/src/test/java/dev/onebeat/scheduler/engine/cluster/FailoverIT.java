package dev.onebeat.scheduler.engine.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.onebeat.scheduler.FaultInjection;
import dev.onebeat.scheduler.SecurityTestUsers;
import dev.onebeat.testsupport.PrivatePostgres;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * PostgreSQL failovers under three running scheduler JVMs, none of which is restarted ({@link FailoverCluster}): the
 * primary's postmaster killed, the old primary back as a read-only standby, the primary frozen with its sockets open;
 * each with asynchronous and with synchronous replication. The failovers are chained on one fixture (each promotes
 * the last one's survivor's standby), so the replicas start once. After each: fires resume within
 * {@link #RESUME_BOUND} of the promotion, nothing is committed twice on the survivor, every task of the instants up to
 * the resumption is published once the relay has had a calm; at the end, every instant of the run has an outcome.
 */
@FaultInjection
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class FailoverIT {

    /** The promise: a new commit within this after the standby accepts writes (or the old primary answers again). */
    static final Duration RESUME_BOUND = Duration.ofSeconds(15);
    /**
     * A frozen primary is noticed only through timeouts: a socket timeout (5 s) for the connections that hang on it,
     * then a new connection's attempt on the silent host (another 5 s) before the driver moves on; measured 5-12 s
     * after the promotion, the slower with other test classes running beside this one.
     */
    static final Duration FROZEN_RESUME_BOUND = Duration.ofSeconds(20);
    /** How long the cluster has no primary: an operator's or Patroni's reaction time. */
    private static final Duration PROMOTION_DELAY = Duration.ofMillis(1500);
    private static final Duration CALM = Duration.ofSeconds(30);

    private FailoverCluster cluster;
    private PrivatePostgres deposed;
    private final List<String> figures = new ArrayList<>();

    @BeforeAll
    void startCluster() throws Exception {
        cluster = FailoverCluster.start();
    }

    @AfterAll
    void stopCluster() throws Exception {
        figures.forEach(System.out::println);
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    @Order(1)
    void firesResumeWhenTheKilledPrimarysAsynchronousStandbyIsPromoted() {
        killPrimaryAndPromote("asynchronous");
    }

    @Test
    @Order(2)
    void firesGoOnWhenTheKilledPrimaryComesBackReadOnlyAfterAnAsynchronousFailover() {
        restartDeposedReadOnly("asynchronous");
    }

    @Test
    @Order(3)
    void firesResumeWhenTheKilledPrimarysSynchronousStandbyIsPromoted() {
        cluster.newStandby(true);
        killPrimaryAndPromote("synchronous");
    }

    @Test
    @Order(4)
    void firesGoOnWhenTheKilledPrimaryComesBackReadOnlyAfterASynchronousFailover() {
        restartDeposedReadOnly("synchronous");
    }

    @Test
    @Order(5)
    void firesResumeWhenTheFrozenPrimarysAsynchronousStandbyIsPromoted() {
        cluster.newStandby(false);
        freezePrimaryAndPromote("asynchronous");
    }

    @Test
    @Order(6)
    void firesResumeWhenTheFrozenPrimarysSynchronousStandbyIsPromoted() {
        cluster.newStandby(true);
        freezePrimaryAndPromote("synchronous");
    }

    /** Once every instant of the run is past its grace: each has an outcome in the instants API, with its reason. */
    @Test
    @Order(7)
    void everyInstantOfTheRunHasAnOutcome() {
        Instant from = cluster.runStart();
        Instant to = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        String api = cluster.replicas().baseUrl("replica-1");
        String viewer = SecurityTestUsers.token("viewer");
        Map<String, Integer> counts = new TreeMap<>();
        try {
            // the job written in code has the default grace, 30 s; the group's is 5 s
            await().atMost(Duration.ofSeconds(75)).pollInterval(Duration.ofSeconds(2)).untilAsserted(() -> {
                counts.clear();
                for (String job : FailoverCluster.jobs()) {
                    List<DatabaseFaults.Judged> instants = DatabaseFaults.instants(api, viewer, job, from, to);
                    DatabaseFaults.counts(instants, Instant.now()).forEach((label, n) -> counts.merge(label, n,
                            Integer::sum));
                    assertThat(instants).as(job + ": every instant from " + from + " to " + to)
                            .hasSize((int) Duration.between(from, to).toSeconds());
                    assertThat(instants).as(job + ": each past its grace, with its outcome and reason")
                            .allSatisfy(instant -> assertThat(!instant.graceEnds().isAfter(Instant.now())
                                    && instant.accounted()).as(instant.toString()).isTrue());
                }
            });
        } finally {
            BrokerKeys.Seen broker = cluster.broker().seen();
            figures.add(String.format(Locale.ROOT, "failover run %s to %s, %d jobs: instants %s; broker: %d keys, "
                            + "%d deliveries, %d keys twice; survivor: %d fires, %d tasks", from, to,
                    FailoverCluster.jobs().size(), counts, broker.keys(), broker.deliveries(), broker.duplicateKeys(),
                    cluster.fires(), cluster.tasks()));
        }
    }

    private void killPrimaryAndPromote(String replication) {
        long duplicatesBefore = cluster.broker().seen().duplicateKeys();
        PrivatePostgres old = cluster.primary();
        Instant fault = Instant.now();
        old.killPostmaster();
        deposed = old;
        FailoverCluster.pause(PROMOTION_DELAY);
        promoteAndAssertResumed("killed primary, " + replication, fault, duplicatesBefore);
    }

    private void freezePrimaryAndPromote(String replication) {
        long duplicatesBefore = cluster.broker().seen().duplicateKeys();
        PrivatePostgres old = cluster.primary();
        Instant fault = Instant.now();
        List<Long> frozen = old.freeze();
        try {
            FailoverCluster.pause(PROMOTION_DELAY);
            promoteAndAssertResumed("frozen primary, " + replication, fault, duplicatesBefore);
        } finally {
            // never SIGCONT: it would come back as a second writable primary
            old.killFrozen(frozen);
            boolean calm = calm(Instant.now());
            figures.add(String.format(Locale.ROOT, "failover frozen primary, %s, once the frozen server was killed: "
                            + "broker keys published twice since the fault %d, every task published %s", replication,
                    cluster.broker().seen().duplicateKeys() - duplicatesBefore, calm));
        }
    }

    private void promoteAndAssertResumed(String scenario, Instant fault, long duplicatesBefore) {
        long baseline = cluster.promoteStandby();
        Instant promoted = Instant.now();
        Optional<Instant> resumed = cluster.awaitNewCommit(baseline, RESUME_BOUND.multipliedBy(2));
        assertSettled(scenario, fault, promoted, resumed, duplicatesBefore);
    }

    /** The old primary, killed in the failover before, restarted on its port as a standby that accepts no write. */
    private void restartDeposedReadOnly(String replication) {
        assertThat(deposed).as("a primary killed by the scenario before").isNotNull();
        long duplicatesBefore = cluster.broker().seen().duplicateKeys();
        long readOnlyErrorsBefore = cluster.replicas().countLogLines("read-only transaction");
        Instant fault = Instant.now();
        deposed.restartAsReadOnlyStandby();
        Instant back = Instant.now();
        assertThat(deposed.inRecovery()).as("the old primary answers, read-only").isTrue();
        Optional<Instant> resumed = cluster.awaitNewCommit(cluster.fires(), RESUME_BOUND.multipliedBy(2));
        try {
            await().atMost(RESUME_BOUND).pollInterval(Duration.ofMillis(200))
                    .until(() -> cluster.committedAfter(ReplicaMain.JOB, back) >= 5);
        } finally {
            figures.add(String.format(Locale.ROOT, "failover old primary back read-only, %s: %d replica log lines "
                            + "of read-only transactions since", replication,
                    cluster.replicas().countLogLines("read-only transaction") - readOnlyErrorsBefore));
        }
        assertSettled("old primary back read-only, " + replication, fault, back, resumed, duplicatesBefore);
    }

    /**
     * @param since the promotion, or the moment the old primary answered again read-only
     * @param resumed when the first new commit was seen, if one was
     */
    private void assertSettled(String scenario, Instant fault, Instant since, Optional<Instant> resumed,
                               long duplicatesBefore) {
        boolean calm = resumed.isPresent() && calm(resumed.get());
        BrokerKeys.Seen broker = cluster.broker().seen();
        figures.add(String.format(Locale.ROOT, "failover %s: first new commit %s s after %s, %s s after the fault; "
                        + "broker keys published twice %d; survivor %s: %d fires, %d tasks, %d unpublished up to the "
                        + "resumption; broker %d keys, %d deliveries; replicas alive %d", scenario,
                seconds(since, resumed), scenario.startsWith("old primary") ? "it answered" : "promotion",
                seconds(fault, resumed), broker.duplicateKeys() - duplicatesBefore, cluster.primary(), cluster.fires(),
                cluster.tasks(), cluster.unpublished(resumed.orElse(since)), broker.keys(), broker.deliveries(),
                cluster.replicas().aliveCount()));
        assertThat(resumed).as(scenario + ": a new commit within " + RESUME_BOUND.multipliedBy(2)).isPresent();
        assertThat(Duration.between(since, resumed.get())).as(scenario + ": fires resumed").isLessThanOrEqualTo(
                scenario.startsWith("frozen") ? FROZEN_RESUME_BOUND : RESUME_BOUND);
        assertThat(cluster.replicas().aliveCount()).as(scenario + ": no replica restarted or died").isEqualTo(3);
        assertThat(cluster.duplicateCommits()).as(scenario + ": (job, instant) committed twice").isZero();
        assertThat(calm).as(scenario + ": every task up to the resumption published within " + CALM).isTrue();
    }

    /**
     * @return whether, within {@link #CALM}, every task of the instants up to {@code upTo} was published and the
     *     broker's consumer has seen every published key
     */
    private boolean calm(Instant upTo) {
        try {
            await().atMost(CALM).pollInterval(Duration.ofMillis(500)).until(() -> cluster.unpublished(upTo) == 0
                    && cluster.broker().seen().keys() >= cluster.published());
            return true;
        } catch (ConditionTimeoutException e) {
            return false;
        }
    }

    private static String seconds(Instant from, Optional<Instant> to) {
        return to.map(at -> String.format(Locale.ROOT, "%.1f", Duration.between(from, at).toMillis() / 1000.0))
                .orElse("none within " + RESUME_BOUND.multipliedBy(2).toSeconds());
    }
}
