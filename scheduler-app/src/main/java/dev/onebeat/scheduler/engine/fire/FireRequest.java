package dev.onebeat.scheduler.engine.fire;

import java.time.Instant;
import java.util.Objects;

/**
 * Which fire to make, whoever asks for it (a schedule's trigger, a retry, a hand-back, a backfill, an operator's
 * "run now"): the values every step of the fire path reads, carried as one instead of side by side.
 *
 * @param scheduledAt the instant fired: the fire's key, whatever the clock says
 * @param trigger why it fires now
 * @param node the firing replica's id, recorded in the ledger and the logs
 * @param run the run outside the schedule the fire belongs to ("run now": its request id), with a ledger slot and task
 *     keys of its own ({@link FireRun}); {@code null} for the schedule's own fire of the instant
 * @param attempt which attempt of the fire this is, from 1; a failure arms the next if the job's retry policy and
 *     catch-up window leave one ({@link FireAttempts})
 */
public record FireRequest(Instant scheduledAt, FireTrigger trigger, String node, String run, int attempt) {

    public FireRequest {
        Objects.requireNonNull(scheduledAt, "scheduledAt must not be null");
        Objects.requireNonNull(trigger, "trigger must not be null");
        Objects.requireNonNull(node, "node must not be null");
        if (attempt < 1) {
            throw new IllegalArgumentException("attempt must be at least 1, was " + attempt);
        }
    }

    /** @return the first attempt of the schedule's fire of {@code scheduledAt} (no run) */
    public static FireRequest of(Instant scheduledAt, FireTrigger trigger, String node) {
        return new FireRequest(scheduledAt, trigger, node, null, 1);
    }

    /** @return the same fire, of another instant: how a fire settles the instants it stands in for */
    public FireRequest at(Instant instant) {
        return new FireRequest(instant, trigger, node, run, attempt);
    }

    /** @return the same fire, as attempt {@code attempt} */
    public FireRequest withAttempt(int attempt) {
        return new FireRequest(scheduledAt, trigger, node, run, attempt);
    }

    /** @return the same fire, of the run {@code run} (null for the schedule's own fire) */
    public FireRequest withRun(String run) {
        return new FireRequest(scheduledAt, trigger, node, run, attempt);
    }

    /** @return whether this is the schedule's own fire of its instant (on time or after a misfire), not a run */
    boolean scheduled() {
        return run == null && trigger.scheduled();
    }

    /**
     * @return whether an instant recorded skipped settles this fire of it as a duplicate: the schedule's own fire in
     *     whatever form ({@link FireTrigger#settledBySkip}), not a run
     */
    boolean settledBySkip() {
        return run == null && trigger.settledBySkip();
    }

    /**
     * @return whether the fire begins at each job's planned moment (its instant plus its spread and jitter): the
     *     schedule's own fire of the instant, on time, after a misfire or recovered; a run, a retry or a backfill fires
     *     when it is asked for
     */
    boolean waitsForPlannedMoment() {
        return run == null && (trigger.scheduled() || trigger == FireTrigger.RECOVERY);
    }

    /** @return whether its tasks' expiry counts from the moment it runs ({@link FireTrigger#expiresFromFire}) */
    boolean expiresFromFire() {
        return trigger.expiresFromFire(run);
    }
}
