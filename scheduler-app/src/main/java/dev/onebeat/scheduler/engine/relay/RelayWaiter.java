package dev.onebeat.scheduler.engine.relay;

import java.time.Duration;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Where a relay loop waits between rounds: for the poll interval, unless a committed fire wakes it
 * first, or for a backoff, which no wake cuts short. A wake that comes while the loop is busy is kept
 * for its next wait, so a fire committed during a round is not left to the poll. Stopping ends every
 * wait, now and later.
 */
final class RelayWaiter {

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition signal = lock.newCondition();
    private boolean woken;
    private volatile boolean stopped;

    /**
     * @param timeout the longest wait
     * @param wakeable whether a wake ends it; a backoff is not, and forgets the wakes before it
     */
    void await(Duration timeout, boolean wakeable) throws InterruptedException {
        long nanos = timeout.toNanos();
        lock.lock();
        try {
            if (!wakeable) {
                woken = false;
            }
            while (!stopped && !(wakeable && woken) && nanos > 0) {
                nanos = signal.awaitNanos(nanos);
            }
            woken = false;
        } finally {
            lock.unlock();
        }
    }

    /** Ends a wakeable wait, or the next one if none is under way. */
    void wake() {
        lock.lock();
        try {
            woken = true;
            signal.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** Ends every wait for good. */
    void stop() {
        stopped = true;
        wake();
    }

    boolean stopped() {
        return stopped;
    }
}
