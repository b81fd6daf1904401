package dev.onebeat.scheduler.engine.relay;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Waits on real threads: a wait that should end early is given a minute, one that should not is a short one. */
class RelayWaiterTest {

    private static final Duration LONG = Duration.ofMinutes(1);

    private final RelayWaiter waiter = new RelayWaiter();

    @Test
    void wakeEndsAWakeablePollWait() throws Exception {
        CompletableFuture<Long> waited = waitOnAnotherThread(LONG, true);
        Thread.sleep(100);
        waiter.wake();

        assertThat(waited.get(10, TimeUnit.SECONDS)).isLessThan(LONG.toMillis());
    }

    @Test
    void wakeDuringARoundEndsTheNextPollWaitAtOnce() throws Exception {
        waiter.wake();

        assertThat(millis(() -> waiter.await(LONG, true))).isLessThan(1_000);
    }

    @Test
    void wakeIsUsedUpByTheWaitItEnds() throws Exception {
        waiter.wake();
        waiter.await(LONG, true);

        assertThat(millis(() -> waiter.await(Duration.ofMillis(200), true))).isGreaterThanOrEqualTo(190);
    }

    @Test
    void backoffWaitIgnoresWakesBeforeAndDuringIt() throws Exception {
        waiter.wake();
        CompletableFuture<Long> waited = waitOnAnotherThread(Duration.ofMillis(500), false);
        Thread.sleep(100);
        waiter.wake();

        assertThat(waited.get(10, TimeUnit.SECONDS)).isGreaterThanOrEqualTo(490);
    }

    @Test
    void stopEndsABackoffWait() throws Exception {
        CompletableFuture<Long> waited = waitOnAnotherThread(LONG, false);
        Thread.sleep(100);
        waiter.stop();

        assertThat(waited.get(10, TimeUnit.SECONDS)).isLessThan(LONG.toMillis());
        assertThat(waiter.stopped()).isTrue();
    }

    @Test
    void waitAfterStopReturnsAtOnce() throws Exception {
        waiter.stop();

        assertThat(millis(() -> waiter.await(LONG, false))).isLessThan(1_000);
    }

    private CompletableFuture<Long> waitOnAnotherThread(Duration timeout, boolean wakeable) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return millis(() -> waiter.await(timeout, wakeable));
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
    }

    @FunctionalInterface
    private interface Wait {
        void run() throws InterruptedException;
    }

    private static long millis(Wait wait) throws InterruptedException {
        long start = System.nanoTime();
        wait.run();
        return (System.nanoTime() - start) / 1_000_000;
    }
}
