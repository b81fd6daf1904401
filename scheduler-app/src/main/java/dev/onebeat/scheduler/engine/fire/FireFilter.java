package dev.onebeat.scheduler.engine.fire;

import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * Which fires of one job to list, newest scheduled instant first. A null criterion matches every fire.
 *
 * @param job the job name
 * @param outcome only attempts with this outcome, one of {@link #OUTCOMES}
 * @param trigger only fires of this kind, one of {@link #TRIGGERS}
 * @param from only fires scheduled at or after this instant
 * @param to only fires scheduled before this instant
 * @param limit at most this many, at least 1
 */
public record FireFilter(String job, String outcome, String trigger, Instant from, Instant to, int limit) {

    /** The outcomes of attempts: the ledger's committed fires and the attempts beside it. */
    public static final List<String> OUTCOMES = List.of("committed", "failed", "skipped", "duplicate");

    /** The trigger kinds the ledger holds, as written in {@code trigger_kind}. */
    public static final List<String> TRIGGERS = Arrays.stream(FireTrigger.values()).map(FireTrigger::column).toList();

    public FireFilter {
        Objects.requireNonNull(job, "job can not be null");
        if (limit < 1) {
            throw new IllegalArgumentException("limit: must be at least 1, was " + limit);
        }
    }

    /** Every fire of {@code job}, at most {@code limit}. */
    public static FireFilter latest(String job, int limit) {
        return new FireFilter(job, null, null, null, null, limit);
    }
}
