package dev.onebeat.job;

/**
 * What a job does about scheduled instants that passed while it could not fire (every replica down,
 * or every worker thread busy for longer than the misfire threshold).
 */
public enum MisfirePolicy {

    /**
     * Fire once as soon as possible for the most recent missed instant, then continue on schedule.
     * The fire carries that missed instant as its scheduled time, so its keys match what an on-time
     * fire would have produced.
     */
    FIRE_ONCE_NOW,

    /** Fire every missed instant, oldest first, each with its own scheduled time. */
    FIRE_ALL_MISSED,

    /** Drop missed instants and wait for the next scheduled one. */
    SKIP_MISSED
}
