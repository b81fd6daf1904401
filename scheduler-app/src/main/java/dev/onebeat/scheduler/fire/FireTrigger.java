package dev.onebeat.scheduler.fire;

/** Why a fire happened; recorded in the ledger's {@code trigger_kind}. */
public enum FireTrigger {
    /** On time, or late within the misfire threshold. */
    SCHEDULED,
    /** Late past the misfire threshold, fired as the job's misfire policy says. */
    MISFIRE,
    /** Re-run by a surviving replica of a fire whose replica died mid-fire. */
    RECOVERY,
    /** Started by an operator or a test, outside the schedule. */
    MANUAL,
    /** A later attempt of an instant whose fire failed. */
    RETRY,
    /** An instant of the schedule fired again by an operator (a re-run), with its own keys. */
    BACKFILL;

    /** @return whether a fire of this kind is the schedule's own fire of its instant (on time or after a misfire) */
    boolean scheduled() {
        return this == SCHEDULED || this == MISFIRE;
    }

    String column() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
