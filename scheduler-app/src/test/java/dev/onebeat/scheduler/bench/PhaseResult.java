package dev.onebeat.scheduler.bench;

/**
 * The figures of one measured phase.
 *
 * @param label what ran
 * @param rates the measured rounds' rates
 * @param rows rows (tasks) written in the window the commits were counted over
 * @param commits growth of {@code pg_stat_database.xact_commit} over that window
 * @param idleCommits the same growth over an equal window in which nothing ran: what the counting
 *     itself adds (pool connections reopened), already included in {@code commits}
 */
record PhaseResult(String label, Rates rates, long rows, long commits, long idleCommits) {

    double commitsPerRow() {
        return (double) commits / rows;
    }

    /** @return commits per row without those of the counter's own reconnections */
    double netCommitsPerRow() {
        return (double) (commits - idleCommits) / rows;
    }
}
