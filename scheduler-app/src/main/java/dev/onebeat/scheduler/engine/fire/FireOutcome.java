package dev.onebeat.scheduler.engine.fire;

/** How one attempt to fire (job, scheduled instant) ended; the {@code outcome} tag of the fire metrics. */
public enum FireOutcome {
    /** The ledger row, the job's work and its tasks committed. */
    COMMITTED,
    /** The ledger already had this (job, instant): nothing ran, nothing was dispatched. */
    DUPLICATE,
    /** The job failed or the lock could not be had: everything rolled back, the instant may fire again. */
    FAILED,
    /** Not fired: the job's overlap policy skipped the instant, which found an earlier fire still running. */
    SKIPPED;

    String tag() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
