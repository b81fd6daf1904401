package dev.onebeat.scheduler.bench;

import com.zaxxer.hikari.HikariDataSource;
import java.time.Duration;

/**
 * A Hikari pool's connections, for {@link CommitCounter}: closing them makes their sessions exit and
 * report their statistics; the pool then opens new ones up to its minimum idle count.
 */
final class PooledSessions implements CommitCounter.Sessions {

    private static final Duration REFILL_TIMEOUT = Duration.ofSeconds(10);

    private final HikariDataSource pool;

    private PooledSessions(HikariDataSource pool) {
        this.pool = pool;
    }

    static CommitCounter.Sessions of(HikariDataSource pool) {
        return new PooledSessions(pool);
    }

    @Override
    public void close() {
        pool.getHikariPoolMXBean().softEvictConnections();
    }

    @Override
    public void awaitReopened() {
        long deadline = System.nanoTime() + REFILL_TIMEOUT.toNanos();
        while (pool.getHikariPoolMXBean().getIdleConnections() < pool.getMinimumIdle()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the pool did not reopen " + pool.getMinimumIdle()
                        + " connections within " + REFILL_TIMEOUT);
            }
            BenchDatabase.sleep(Duration.ofMillis(20));
        }
    }
}
