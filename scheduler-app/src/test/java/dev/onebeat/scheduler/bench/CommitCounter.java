package dev.onebeat.scheduler.bench;

import java.time.Duration;
import java.util.Set;

/**
 * Reads {@code pg_stat_database.xact_commit} of the benchmark database once every session that
 * could still hold unreported commits has ended.
 *
 * <p>Since PostgreSQL 15 a session reports its counters to shared memory at most once a second
 * and, when it then goes idle, not necessarily until its next transaction or its exit (observed
 * on 15.20: an idle session still held 50 commits after 13 s). {@code pg_stat_force_next_flush()}
 * only acts on the session that calls it, and sleeping is no cure, so the counter is read after the
 * sessions have exited: a session reports everything when it ends.
 */
final class CommitCounter {

    private static final Duration EXIT_TIMEOUT = Duration.ofSeconds(10);

    private final BenchDatabase database;

    CommitCounter(BenchDatabase database) {
        this.database = database;
    }

    /**
     * @param endSessions closes the connections the measured code holds; new ones it opens after
     *     are not waited for
     * @return the commit counter once the sessions open before {@code endSessions} have exited
     */
    long settled(Runnable endSessions) {
        Set<Integer> open = database.sessions();
        endSessions.run();
        database.awaitGone(open, EXIT_TIMEOUT);
        return database.committedTransactions();
    }
}
