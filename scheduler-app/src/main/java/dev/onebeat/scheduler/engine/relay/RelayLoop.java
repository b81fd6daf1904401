package dev.onebeat.scheduler.engine.relay;

import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Relays the queues of one broker on a thread of its own until stopped: claims due rows
 * ({@link RelayRepository}), publishes them ({@link RelayPublisher}), marks each published only after
 * its transport reported the broker's confirm, then waits ({@link RelayWaiter}) for the poll interval
 * or a committed fire, or, after a round that failed as a whole, for its backoff. Once stopped it runs
 * its last rounds, up to {@code drain-timeout}, so that what the last fires wrote goes out. Every
 * replica runs {@code concurrency} loops per broker and the claims keep them apart.
 */
final class RelayLoop implements Runnable {

    private static final Logger log = LoggerFactory.getLogger(RelayLoop.class);

    private final String broker;
    private final List<String> queues;
    private final String node;
    private final RelayRepository outbox;
    private final RelayPublisher publisher;
    private final RelayRoundReport report;
    private final RelaySettings settings;
    private final RelayBackoff backoff;
    private final RelayHook hook;
    private final Clock clock;
    private final RelayWaiter waiter = new RelayWaiter();
    private final RelayLoopHealth health;

    RelayLoop(String broker, List<String> queues, String node, RelayRepository outbox, RelayPublisher publisher,
              RelayRoundReport report, RelaySettings settings, RelayHook hook, Clock clock) {
        this.broker = broker;
        this.queues = List.copyOf(queues);
        this.node = node;
        this.outbox = outbox;
        this.publisher = publisher;
        this.report = report;
        this.settings = settings;
        this.backoff = RelayBackoff.of(settings);
        this.hook = hook;
        this.clock = clock;
        this.health = new RelayLoopHealth(broker, queues, clock);
    }

    @Override
    public void run() {
        log.info("relay started broker={} queues={} node={}", broker, queues, node);
        try {
            runUntilStopped();
            drain();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Error e) {
            // a JVM error (out of memory, a client library's stack overflow) ends this thread: say so, and let
            // health show the loop failing instead of idle
            health.failed("relay thread died: " + e);
            log.error("relay thread died broker={} node={}; this loop publishes nothing until the replica restarts",
                    broker, node, e);
            return;
        }
        log.info("relay stopped broker={} node={}", broker, node);
    }

    private void runUntilStopped() throws InterruptedException {
        while (!waiter.stopped()) {
            try {
                Round round = relayOnce();
                if (round.failedWhole()) {
                    health.failed(round.error());
                    waiter.await(backoff.ceiling(health.consecutiveFailures()), false);
                } else {
                    if (round.published() > 0) {
                        health.published();
                    }
                    if (round.claimed() < settings.batchSize()) {
                        waiter.await(settings.pollInterval(), true);
                    }
                }
            } catch (RuntimeException | SQLException e) {
                // the database is unreachable or a statement failed: a claim made is freed with its transaction
                health.failed(e.toString());
                log.warn("relay round failed broker={} (retrying): {}", broker, e.toString());
                waiter.await(backoff.ceiling(health.consecutiveFailures()), false);
            }
        }
    }

    /** Rounds until nothing due is left, a round fails as a whole, or the drain timeout is reached. */
    private void drain() throws InterruptedException {
        Instant deadline = clock.instant().plus(settings.drainTimeout());
        int published = 0;
        try {
            Round round;
            do {
                round = relayOnce();
                published += round.published();
            } while (!round.failedWhole() && round.claimed() == settings.batchSize() && clock.instant().isBefore(deadline));
        } catch (RuntimeException | SQLException e) {
            log.warn("relay's last round failed broker={} (its claim was rolled back): {}", broker,
                    e.toString());
        }
        if (published > 0) {
            log.info("relay published {} task(s) due at shutdown broker={} node={}", published, broker, node);
        }
    }

    /**
     * One round: rows claimed and published, whether a passing failure stopped all of them, and the first error.
     */
    record Round(int claimed, int published, boolean failedWhole, String error) {

        static final Round NONE = new Round(0, 0, false, null);

        static Round of(List<TaskOutcome> outcomes) {
            int published = 0;
            int refused = 0;
            String firstRetryError = null;
            for (TaskOutcome outcome : outcomes) {
                switch (outcome.delivery().status()) {
                    case PUBLISHED -> published++;
                    case REFUSED -> refused++;
                    case RETRY -> firstRetryError = firstRetryError == null ? outcome.delivery().error() : firstRetryError;
                }
            }
            return new Round(outcomes.size(), published, published == 0 && refused == 0 && firstRetryError != null,
                    firstRetryError);
        }
    }

    /**
     * Claims up to a batch, publishes it and marks it. Package-private for tests and benchmarks.
     *
     * @return what the round did
     */
    Round relayOnce() throws SQLException, InterruptedException {
        try (RelayClaim claim = outbox.claim(queues, settings.batchSize())) {
            if (claim.rows().isEmpty()) {
                return Round.NONE;
            }
            List<TaskOutcome> outcomes = publisher.publish(claim, health);
            Round round = Round.of(outcomes);
            hook.afterPublish(round.published());
            try {
                claim.mark(outcomes, backoff::retryDelay);
            } catch (SQLException e) {
                // the claim was lost (the relay stalled past its lease, or the database went away): no row changed,
                // and every row goes out again, those published here under the same key. The round failed: back off
                report.lost(outcomes, round.published(), e);
                throw e;
            }
            report.report(outcomes, round.published());
            return round;
        }
    }

    /** @return this loop's state now, for health */
    RelayLoopHealth.State state() {
        return health.state();
    }

    /** @return the publish under way past its deadline (or, without one, its claim lease), or {@code null} */
    RelayLoopHealth.Overdue overdue() {
        return health.overdue();
    }

    /** Wakes the loop if it waits for work; called after a fire commits. */
    void wake() {
        waiter.wake();
    }

    /** Makes {@link #run} end its current round and wait, run its last rounds and return. */
    void stop() {
        waiter.stop();
    }

    /** @return the broker this loop serves */
    String broker() {
        return broker;
    }
}
