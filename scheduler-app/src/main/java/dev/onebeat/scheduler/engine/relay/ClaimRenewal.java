package dev.onebeat.scheduler.engine.relay;

import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps a round's claims while its publish lasts: every third of {@code claim-lease} from the claim
 * on, the rows still held get a fresh lease, so a publish slower than the lease is not taken over and
 * published again by another relay. A relay that dies stops renewing, and its claims expire as before.
 * Renewal ends when the publish returns: a relay stalled between publish and marks loses its claims
 * after one lease. It also ends at the publish's deadline, when its transport has one
 * ({@link dev.onebeat.transport.Transport#deadline}): a publish hung past it gives its claims up after
 * one more lease, and another relay retries them. One timer thread serves the loops of a node; a
 * renewal is one short update.
 */
final class ClaimRenewal implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ClaimRenewal.class);

    private final RelayRepository outbox;
    private final String node;
    private final Duration claimLease;
    private final Clock clock;
    private final long periodMillis;
    private final ScheduledThreadPoolExecutor timer;

    ClaimRenewal(RelayRepository outbox, String node, Duration claimLease, Clock clock) {
        this.outbox = outbox;
        this.node = node;
        this.claimLease = claimLease;
        this.clock = clock;
        this.periodMillis = Math.max(1, claimLease.toMillis() / 3);
        this.timer = new ScheduledThreadPoolExecutor(1, runnable -> {
            Thread thread = new Thread(runnable, "onebeat-relay-leases");
            thread.setDaemon(true);
            return thread;
        });
        // most publishes end long before their first renewal: drop the cancelled ones at once
        timer.setRemoveOnCancelPolicy(true);
    }

    /**
     * @param claimed the rows just claimed, leased from now
     * @return the renewal, running until closed
     */
    Held hold(List<ClaimedTask> claimed) {
        return new Held(claimed);
    }

    /** Stops renewing anything. */
    @Override
    public void close() {
        timer.shutdownNow();
    }

    /** The renewal of one round's claims. */
    final class Held implements AutoCloseable {

        private final List<ClaimedTask> claimed;
        private final ScheduledFuture<?> renewing;
        private volatile boolean intact = true;
        /** When the publish under way must have ended, or {@code null} when its transport sets no bound. */
        private volatile Instant deadline;
        /** When the publish under way began. */
        private volatile Instant started;
        private volatile String publishing = "";
        private boolean closed;
        private boolean givenUp;

        private Held(List<ClaimedTask> claimed) {
            this.claimed = claimed;
            this.started = clock.instant();
            this.renewing = timer.scheduleAtFixedRate(this::renew, periodMillis, periodMillis, TimeUnit.MILLISECONDS);
        }

        /**
         * Starts the publish of one queue's part of the round.
         *
         * @param what the route, for the log
         * @param bound how long that publish may take, or empty when unbounded
         */
        synchronized void publishing(String what, Optional<Duration> bound) {
            Instant now = clock.instant();
            started = now;
            publishing = what;
            deadline = bound.map(now::plus).orElse(null);
            // the publish that outlived its deadline has returned: the round's other claims are renewed again while
            // the next queue publishes (those still held are renewed; the ones that expired stay lost)
            givenUp = false;
        }

        /**
         * @return since when the publish under way is overdue (past its deadline, or, without one, past one
         *     claim lease), or {@code null} while it is not
         */
        Instant overdueSince() {
            Instant since = deadline != null ? deadline : started.plus(claimLease);
            return clock.instant().isAfter(since) ? since : null;
        }

        /** @return the claims of the round */
        int size() {
            return claimed.size();
        }

        private synchronized void renew() {
            if (closed || givenUp) {
                return;
            }
            Instant until = deadline;
            if (until != null && clock.instant().isAfter(until)) {
                givenUp = true;
                intact = false;
                log.warn("relay publish to {} outlived its deadline of {} with {} claim(s) node={}: no longer renewing "
                        + "them; they expire after the claim lease ({} ms) and are retried", publishing, until,
                        claimed.size(), node, claimLease.toMillis());
                return;
            }
            try {
                int renewed = outbox.renew(claimed);
                if (renewed < claimed.size() && intact) {
                    intact = false;
                    log.warn("relay lost {} of {} claims while publishing node={}: their lease ran out before a "
                            + "renewal; another relay may publish them again under the same key",
                            claimed.size() - renewed, claimed.size(), node);
                }
            } catch (SQLException | RuntimeException e) {
                intact = false;
                log.warn("relay could not renew {} claim(s) node={} (they expire after their lease): {}",
                        claimed.size(), node, e.toString());
            }
        }

        /** @return whether every renewal so far kept every claim */
        boolean intact() {
            return intact;
        }

        /**
         * Stops renewing, after the renewal under way if one is: the marks that follow must not meet it on
         * the same rows, where the two updates could deadlock.
         */
        @Override
        public void close() {
            renewing.cancel(false);
            synchronized (this) {
                closed = true;
            }
        }
    }
}
