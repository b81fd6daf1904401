package dev.onebeat.scheduler.engine.fire;

import java.time.Duration;

/** The waits of the fire path: a pause that an interrupt cuts short, and the doubling between two tries. */
final class Pauses {

    private Pauses() {
    }

    /** @return false if interrupted, the thread's interrupt flag set again */
    static boolean sleep(Duration pause) {
        try {
            Thread.sleep(pause.toMillis());
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** @return twice {@code pause}, at most {@code max} */
    static Duration doubled(Duration pause, Duration max) {
        Duration twice = pause.multipliedBy(2);
        return twice.compareTo(max) > 0 ? max : twice;
    }
}
