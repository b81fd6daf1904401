package dev.onebeat.scheduler.engine.relay;

import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps a round's claim while its publish lasts: every third of {@code claim-lease} from the claim on, a short
 * statement on the claim's transaction ({@link RelayClaim#keepAlive}) starts its idle time again, so the server does
 * not end it and free the rows for another relay while a publish slower than the lease is under way. A relay that
 * dies or stalls sends no keep-alive, and its claim ends after one lease (at once when its connection closes).
 * Keep-alives end when the publish returns: a relay stalled between publish and marks loses its claim after one
 * lease. They also end at the publish's deadline, when its transport has one
 * ({@link dev.onebeat.transport.Transport#deadline}): a publish hung past it gives its claim up after one more lease,
 * and another relay retries the rows. One timer thread serves the loops of a node.
 */
final class ClaimRenewal implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ClaimRenewal.class);

    private final String node;
    private final Duration claimLease;
    private final Clock clock;
    private final long periodMillis;
    private final ScheduledThreadPoolExecutor timer;

    /**
     * How many claim leases a publish whose transport sets no deadline is kept for. The claim's transaction holds back
     * the database's cleanup (VACUUM) while it is open, so no publish keeps it for ever.
     */
    static final int UNBOUNDED_LEASES = 5;

    ClaimRenewal(String node, Duration claimLease, Clock clock) {
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
     * @param claim the claim just made, leased from now
     * @return the renewal, running until closed
     */
    Held hold(RelayClaim claim) {
        return new Held(claim);
    }

    /** Stops renewing anything. */
    @Override
    public void close() {
        timer.shutdownNow();
    }

    /** The renewal of one round's claims. */
    final class Held implements AutoCloseable {

        private final RelayClaim claim;
        private final ScheduledFuture<?> renewing;
        private volatile boolean intact = true;
        /** When the publish under way must have ended, or {@code null} when its transport sets no bound. */
        private volatile Instant deadline;
        /** When the publish under way began. */
        private volatile Instant started;
        private volatile String publishing = "";
        private boolean closed;
        private boolean givenUp;

        private Held(RelayClaim claim) {
            this.claim = claim;
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
            // the publish that outlived its deadline has returned: if the claim is still alive (the server ends it one
            // lease after the last keep-alive), it is kept again while the next queue publishes
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
            return claim.rows().size();
        }

        private synchronized void renew() {
            if (closed || givenUp) {
                return;
            }
            Instant until = deadline != null ? deadline : started.plus(claimLease.multipliedBy(UNBOUNDED_LEASES));
            if (clock.instant().isAfter(until)) {
                givenUp = true;
                intact = false;
                log.warn("relay publish to {} outlived its {} of {} with {} claim(s) node={}: no longer keeping "
                        + "them; they are freed after the claim lease ({} ms) and retried", publishing,
                        deadline != null ? "deadline" : UNBOUNDED_LEASES + " claim leases", until,
                        claim.rows().size(), node, claimLease.toMillis());
                return;
            }
            try {
                claim.keepAlive();
            } catch (SQLException | RuntimeException e) {
                if (intact) {
                    log.warn("relay lost its claim of {} task(s) while publishing node={}: the database ended its "
                            + "transaction (another relay may publish them again under the same key): {}",
                            claim.rows().size(), node, e.toString());
                }
                intact = false;
            }
        }

        /** @return whether every keep-alive so far kept the claim and none was given up */
        boolean intact() {
            return intact;
        }

        /**
         * @return whether the claim may be gone: a statement on its transaction failed, or keep-alives were given up
         *     (a publish past its deadline), after which the server ends the transaction one lease on, unseen here
         */
        synchronized boolean lost() {
            return givenUp || claim.lost();
        }

        /**
         * Stops renewing, after the keep-alive under way if one is: the marks that follow use the same connection.
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
