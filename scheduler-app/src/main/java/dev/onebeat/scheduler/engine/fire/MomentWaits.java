package dev.onebeat.scheduler.engine.fire;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import org.springframework.stereotype.Component;

/**
 * The waits of fires for their planned moments (a jitter, a spread): the schedule's waves ({@link ScheduleFire}) and a
 * fire of its own ({@link FirePath}, a hand-back or a lone recovery). Once the replica stops taking fires
 * ({@link #fireWaitingNow}), every wait ends at once and none begins, so a stop neither loses a waiting fire nor
 * waits out a spread; until the replica takes fires again ({@link #waitAgain}), as when a stopped context is started.
 */
@Component
class MomentWaits {

    /** The longest single wait: the fire clock is read again after it. */
    private static final Duration MAX_WAIT = Duration.ofSeconds(1);

    private final Clock clock;
    private final Object moments = new Object();
    private volatile boolean hurry;

    MomentWaits(Clock clock) {
        this.clock = clock;
    }

    /** Waits until {@code moment} on the fire clock, or until the replica stops; an interrupt stops the waits too. */
    void await(Instant moment) {
        synchronized (moments) {
            for (long left = Duration.between(clock.instant(), moment).toMillis(); left > 0 && !hurry;
                 left = Duration.between(clock.instant(), moment).toMillis()) {
                try {
                    moments.wait(Math.min(left, MAX_WAIT.toMillis()));
                } catch (InterruptedException e) {
                    // a fire that has begun finishes, as Quartz expects of a job at shutdown: it fires now
                    Thread.currentThread().interrupt();
                    hurry = true;
                }
            }
        }
    }

    /** @return whether the replica stops: the fires still waiting fire now */
    boolean hurrying() {
        return hurry;
    }

    /** Ends every wait, now and until {@link #waitAgain}. */
    void fireWaitingNow() {
        synchronized (moments) {
            hurry = true;
            moments.notifyAll();
        }
    }

    /** Fires wait for their moments again: the replica takes fires again after a stop. */
    void waitAgain() {
        hurry = false;
    }
}
