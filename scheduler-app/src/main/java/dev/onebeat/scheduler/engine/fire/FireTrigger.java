package dev.onebeat.scheduler.engine.fire;

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

    // taken once: a batch of 1,000 fires asked for it 1,000 times
    private final String column = name().toLowerCase(java.util.Locale.ROOT);

    /** @return whether a fire of this kind is the schedule's own fire of its instant (on time or after a misfire) */
    boolean scheduled() {
        return this == SCHEDULED || this == MISFIRE;
    }

    /**
     * Whether a fire of this kind is the schedule's own, in whatever form it comes (on time, late, recovered after a
     * crash, or a later attempt of one), which an instant recorded skipped settles: the instant was decided not to
     * fire, so such a fire of it is a duplicate ({@link FireLedger#claim}, {@link FireLedger#unfired}). A fire an
     * operator asked for (a run, a re-run or a backfill of an instant) is not: firing a skipped instant is what it is
     * for.
     */
    boolean settledBySkip() {
        return this == SCHEDULED || this == MISFIRE || this == RECOVERY || this == RETRY;
    }

    /**
     * Whether the expiry of the fire's tasks ({@code expires}) counts from the moment the fire runs rather than from
     * its instant: so for a fire an operator asked for — a "run now" ({@code MANUAL}), a re-run or a backfill of an
     * instant ({@code BACKFILL}) — and for the later attempts, hand-backs and recoveries of a "run now", which carry
     * its run. Counted from an instant in the past, their tasks would reach the worker expired. The schedule's own
     * fires, their retries and recoveries count from the instant: late past {@code expires}, their tasks are stale.
     *
     * @param run the run outside the schedule the fire belongs to (a "run now"'s request id), or null
     */
    boolean expiresFromFire(String run) {
        return this == MANUAL || this == BACKFILL || run != null;
    }

    /** @return the name as the ledger's {@code trigger_kind} and the meters' tags write it */
    String column() {
        return column;
    }
}
