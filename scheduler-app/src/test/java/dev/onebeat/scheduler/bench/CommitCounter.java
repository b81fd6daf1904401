package dev.onebeat.scheduler.bench;

import java.time.Duration;
import java.util.Set;

/**
 * Reads {@code pg_stat_database.xact_commit} of the benchmark database once every session that
 * could still hold unreported commits has ended.
 *
 * <p>Since PostgreSQL 15 a session reports its counters to shared memory at most once a second
 * and, once idle, not necessarily before its next transaction or its exit (seen on 15.20: an idle
 * session still held 50 commits after 13 s). {@code pg_stat_force_next_flush()} acts only on the
 * session that calls it, and no sleep is long enough for sure, so the counter is read after the
 * sessions have exited: a session reports everything as it ends.
 *
 * <p>Reconnecting costs a commit or two per connection ({@code SET application_name} of the
 * driver, the pool's validation), so a window's growth includes those of the connections opened
 * at its start; {@link PhaseResult#idleCommits()} measures that share.
 */
final class CommitCounter {

    /** The connections a measured subject holds. */
    interface Sessions {
        /** Closes every connection held now; the holder may open replacements. */
        void close();

        /** Returns once the replacements the holder opens by itself are open and idle. */
        void awaitReopened();
    }

    // a closed pool's session ends when its statement does: at a million jobs a replica's start-up work (the orphan
    // judgement, the detector's first check) holds one for longer than 10 s, which failed bench/jobs.sh there
    private static final Duration EXIT_TIMEOUT = Duration.ofSeconds(90);

    private final BenchDatabase database;

    CommitCounter(BenchDatabase database) {
        this.database = database;
    }

    /** @return the commit counter, read once the sessions open before this call have exited */
    long settled(Sessions sessions) {
        Set<Integer> open = database.sessions();
        sessions.close();
        database.awaitGone(open, EXIT_TIMEOUT);
        sessions.awaitReopened();
        return database.committedTransactions();
    }
}
