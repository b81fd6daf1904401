package dev.onebeat.scheduler.operate.monitor;

import java.util.Locale;

/** What became of one instant a job's schedule expected, as the API and the console show it. */
public enum InstantOutcome {
    /** Committed within {@code onebeat.monitor.late-after} of the instant. */
    ON_TIME,
    /** Committed, later than {@code onebeat.monitor.late-after} after the instant; the lag says by how much. */
    LATE,
    /**
     * Committed, its attempt begun before the instant by the database's clock (a replica's clock ahead of it, on a
     * version that did not wait for the database's time); the lag is negative and says by how much.
     */
    EARLY,
    /** Every attempt failed, or the next would have started outside the catch-up window. */
    FAILED,
    /** An attempt failed and the next one is armed. */
    RETRYING,
    /** Not fired, for a recorded reason (paused, outage, overlap, daylight-saving gap under {@code gap=skip}). */
    SKIPPED,
    /**
     * No fire began by the instant plus its grace, and no attempt recorded that says why; the reason names the
     * periods in which replicas' fires could not reach the database, if any met the instant's window.
     */
    MISSED,
    /** Not due yet, or due and still inside its grace. */
    PENDING,
    /** A fire of the instant holds the job's lock now. */
    RUNNING;

    /** @return as the API writes it: {@code on-time} */
    public String text() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** @return whether nothing more will change it but an operator (a re-run, a backfill) */
    public boolean settled() {
        return this != PENDING && this != RUNNING && this != RETRYING;
    }
}
