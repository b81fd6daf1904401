package dev.onebeat.job;

/**
 * What a job does when one of its instants falls due while the fire of an earlier instant of the same
 * job is still running (a fire longer than the period, or a slow database).
 */
public enum OverlapPolicy {

    /**
     * The instant that finds the earlier fire running is not fired; it is recorded as skipped with the
     * reason {@code previous fire still running}.
     */
    SKIP,

    /**
     * The first instant that finds the earlier fire running waits for it and fires as soon as it ends,
     * with its own scheduled time and keys; any further instant due while that one waits is recorded as
     * skipped. At most one fire of the job runs and at most one waits, across the cluster.
     */
    BUFFER_ONE,

    /**
     * Instants of the job fire concurrently, each still at most once: the job's cluster lock is taken
     * per instant, not per job. Only for jobs whose fires may run side by side.
     */
    ALLOW
}
