package dev.onebeat.scheduler.engine.relay;

import java.time.Clock;
import java.time.Instant;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether one relay loop publishes or keeps failing, and since when by the injected clock: what
 * {@link RelayHealth} shows and what sets the loop's backoff. Written by the loop's thread, read by
 * health requests.
 */
final class RelayLoopHealth {

    // the relay's lines keep the logger they have always had, which operators filter on
    private static final Logger log = LoggerFactory.getLogger(RelayLoop.class);

    private final String broker;
    private final List<String> queues;
    private final Clock clock;
    private int consecutiveFailures;
    private volatile Instant failingSince;
    private volatile Instant lastPublished;
    private volatile String lastError;
    private volatile ClaimRenewal.Held publishing;

    RelayLoopHealth(String broker, List<String> queues, Clock clock) {
        this.broker = broker;
        this.queues = List.copyOf(queues);
        this.clock = clock;
    }

    /**
     * What a loop last did, for health.
     *
     * @param broker the broker it serves
     * @param queues its queues
     * @param lastPublished when a round last published something, or {@code null}
     * @param failingSince since when every round has failed, or {@code null} when the last did not
     * @param lastError the last failure, kept after recovery
     */
    record State(String broker, List<String> queues, Instant lastPublished, Instant failingSince, String lastError) {
    }

    /**
     * A publish under way that has outlived its deadline, or, for a transport without one, the claim lease.
     *
     * @param broker the broker it publishes to
     * @param tasks the claims it holds
     * @param since when it became overdue
     */
    record Overdue(String broker, int tasks, Instant since) {
    }

    /** @param held the claims of the publish now under way, or {@code null} once it has returned */
    void publishing(ClaimRenewal.Held held) {
        publishing = held;
    }

    /** @return the publish under way if it is overdue, else {@code null} */
    Overdue overdue() {
        ClaimRenewal.Held held = publishing;
        Instant since = held == null ? null : held.overdueSince();
        return since == null ? null : new Overdue(broker, held.size(), since);
    }

    /** A round failed as a whole: nothing published, nothing refused, or the database failed. */
    void failed(String error) {
        consecutiveFailures++;
        if (failingSince == null) {
            failingSince = clock.instant();
        }
        lastError = error;
    }

    /** A round published something. */
    void published() {
        if (consecutiveFailures > 0) {
            log.info("relay publishing again broker={} after {} failed round(s) since {}", broker, consecutiveFailures,
                    failingSince);
        }
        consecutiveFailures = 0;
        failingSince = null;
        lastPublished = clock.instant();
    }

    /** @return whether the last round failed as a whole */
    boolean failing() {
        return consecutiveFailures > 0;
    }

    /** @return rounds failed in a row, which set the backoff */
    int consecutiveFailures() {
        return consecutiveFailures;
    }

    State state() {
        return new State(broker, queues, lastPublished, failingSince, lastError);
    }
}
