package dev.onebeat.scheduler.operate.monitor;

import dev.onebeat.scheduler.engine.fire.FireAttempts.SkipReason;
import dev.onebeat.scheduler.engine.fire.InstantRecords.Attempt;
import dev.onebeat.scheduler.engine.fire.InstantRecords.Fault;
import dev.onebeat.scheduler.engine.fire.InstantRecords.Fire;
import dev.onebeat.scheduler.engine.fire.InstantRecords.Slot;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Judges one expected instant of a job from what is recorded of it, as of a given time. The same rules serve the
 * API (what to show) and the detector (what to report):
 *
 * <ul>
 *   <li>a committed fire is {@code on-time}, {@code late} when its attempt began more than {@code lateAfter}
 *       after the instant, or {@code early} when it began before the instant (its lag is then negative: a replica
 *       whose clock ran ahead of the database's, before fires waited for the database's time);</li>
 *   <li>otherwise the latest attempt decides: {@code skipped} with its reason, {@code retrying} while a next
 *       attempt is armed (and the catch-up window, past which none is, has not closed), else {@code failed};</li>
 *   <li>otherwise {@code running} while a fire of the instant holds the job's lock, {@code pending} until the instant
 *       plus its grace, and {@code missed} after that: with, as its reason, the periods in which replicas' fires could
 *       not reach the database between just before the instant and the end of its grace, when there were any
 *       ({@link Fault}).</li>
 * </ul>
 *
 * <p>An instant is <em>missed</em>, for the detector, when no fire of it had begun by the instant plus its grace: no
 * record at all, a skip because no replica could fire it in time (an outage: {@link SkipReason#missed()}), or a
 * committed first attempt that began after the grace (a misfire after an outage, a backfill). A fire that began in
 * time and runs long is not missed, nor is a retry that commits late: the first attempt began.
 */
final class InstantJudge {

    /** Quartz acquires a trigger up to its idle wait (1 s) before the fire: a fault that early stops the fire too. */
    static final Duration ACQUIRED_BEFORE = Duration.ofSeconds(1);
    /** The most fault periods a reason names; it says how many more there were. */
    private static final int MAX_FAULTS_NAMED = 3;
    /** How a reason begins to say that fires could not reach the database. */
    static final String UNREACHABLE = "the database could not be reached";
    private static final int MAX_ERROR = 100;
    /** A reason fits an event's 500 characters with the rest of a miss's reason. */
    private static final int MAX_UNREACHABLE = 400;

    private InstantJudge() {
    }

    /**
     * What the detector makes of a judged instant.
     */
    enum Finding {
        /** Committed in time. */
        SUCCESS,
        /** Began after its grace, then committed: a miss (the job's last success all the same, but no recovery). */
        MISSED_THEN_SUCCESS,
        /** Missed. */
        MISSED,
        /** Failed for good. */
        FAILED,
        /** Skipped by a policy or an operator: neither a success nor a failure. */
        NEUTRAL,
        /** Not settled yet: pending, running or retrying. */
        UNSETTLED
    }

    /**
     * @param outcome what became of the instant
     * @param reason a skip's reason, a failure's error, or why it is missed; null for a committed fire
     * @param lag how long after the instant its committed attempt began (negative if before), or null
     * @param finding what the detector makes of it
     */
    record Verdict(InstantOutcome outcome, String reason, Duration lag, Finding finding) {
    }

    /**
     * @param instant the expected instant
     * @param fires whether the schedule fires it (false for a wall-clock time in a gap under {@code gap=skip})
     * @param slot what is recorded of it ({@link Slot#EMPTY} when nothing is)
     * @param running whether a fire of it holds the job's lock now
     * @param grace how long after the instant a fire may begin before the instant is missed
     * @param lateAfter how long after the instant a committed fire may begin and still be on time
     * @param catchUpWindow the job's catch-up window: no attempt is made after it, so none is awaited
     * @param now the time of judgement
     */
    static Verdict judge(Instant instant, boolean fires, Slot slot, boolean running, Duration grace, Duration lateAfter,
                         Duration catchUpWindow, Instant now) {
        return judge(instant, fires, slot, running, grace, lateAfter, catchUpWindow, now, List.of());
    }

    /**
     * As {@link #judge(Instant, boolean, Slot, boolean, Duration, Duration, Duration, Instant)}, an instant missed
     * giving as its reason the periods of {@code faults} that overlap its window, if any.
     *
     * @param faults periods in which replicas' fires could not reach the database, at least those overlapping the
     *     instant's window
     */
    static Verdict judge(Instant instant, boolean fires, Slot slot, boolean running, Duration grace, Duration lateAfter,
                         Duration catchUpWindow, Instant now, List<Fault> faults) {
        return judge(instant, fires, null, slot, running, grace, lateAfter, catchUpWindow, now, faults);
    }

    /**
     * As {@link #judge(Instant, boolean, Slot, boolean, Duration, Duration, Duration, Instant, List)}, for an instant
     * that the job's calendars or active period may leave out: one that nothing is recorded of is then {@code skipped}
     * with that reason, neither awaited nor missed. What is recorded of it (a fire, a skip, a failure) comes first: the
     * calendars may have changed since.
     *
     * @param exclusion why the job's calendars leave the instant out ({@link
     *     dev.onebeat.scheduler.engine.calendar.Calendars#exclusion}), or null
     */
    static Verdict judge(Instant instant, boolean fires, String exclusion, Slot slot, boolean running, Duration grace,
                         Duration lateAfter, Duration catchUpWindow, Instant now, List<Fault> faults) {
        Fire fire = slot.fire();
        if (fire != null) {
            // never clamped: a fire that began before its instant is shown as early, by how much
            Duration lag = Duration.between(instant, fire.firedAt());
            InstantOutcome outcome = lag.isNegative() ? InstantOutcome.EARLY
                    : lag.compareTo(lateAfter) > 0 ? InstantOutcome.LATE : InstantOutcome.ON_TIME;
            boolean beganLate = fire.attempt() == 1 && !"recovery".equals(fire.trigger()) && lag.compareTo(grace) > 0;
            return new Verdict(outcome, null, lag, beganLate ? Finding.MISSED_THEN_SUCCESS : Finding.SUCCESS);
        }
        Attempt attempt = slot.attempt();
        if (attempt != null && attempt.outcome().equals("skipped")) {
            boolean outage = SkipReason.ofText(attempt.reason()).map(SkipReason::missed).orElse(false);
            return new Verdict(InstantOutcome.SKIPPED, attempt.reason(), null, outage ? Finding.MISSED : Finding.NEUTRAL);
        }
        if (attempt != null) {
            String error = attempt.errorClass() + (attempt.errorMessage() == null ? "" : ": " + attempt.errorMessage());
            if (attempt.retryAt() != null && now.isBefore(instant.plus(catchUpWindow).plus(grace))) {
                return new Verdict(InstantOutcome.RETRYING, "attempt " + attempt.attempt() + " failed (" + error
                        + "); attempt " + (attempt.attempt() + 1) + " at " + attempt.retryAt(), null, Finding.UNSETTLED);
            }
            return new Verdict(InstantOutcome.FAILED, "attempt " + attempt.attempt() + " failed: " + error, null,
                    Finding.FAILED);
        }
        if (!fires) {
            return new Verdict(InstantOutcome.SKIPPED, SkipReason.DST_GAP.text(), null, Finding.NEUTRAL);
        }
        if (exclusion != null) {
            return new Verdict(InstantOutcome.SKIPPED, exclusion, null, Finding.NEUTRAL);
        }
        if (running) {
            return new Verdict(InstantOutcome.RUNNING, null, null, Finding.UNSETTLED);
        }
        Instant deadline = instant.plus(grace);
        if (now.isBefore(deadline)) {
            return new Verdict(InstantOutcome.PENDING, null, null, Finding.UNSETTLED);
        }
        String unreachable = unreachable(instant.minus(ACQUIRED_BEFORE), deadline, faults);
        return new Verdict(InstantOutcome.MISSED, "no fire began by " + deadline + " (grace " + grace + ")"
                + (unreachable == null ? "" : ": " + unreachable), null, Finding.MISSED);
    }

    /**
     * @return whether a period of {@code faults} ends no earlier than {@code before} ahead of the window of the
     *     instant planned at {@code planned} (which begins {@link #ACQUIRED_BEFORE} before it): the periods of a
     *     fault near the instant, some of which may not be written yet
     */
    static boolean faultNear(Instant planned, Duration before, List<Fault> faults) {
        Instant from = planned.minus(ACQUIRED_BEFORE).minus(before);
        return faults.stream().anyMatch(fault -> !fault.until().isBefore(from));
    }

    /**
     * @return what the periods overlapping {@code [from, to]} say: {@code the database could not be reached: replica-1
     *     quartz from … to … (12 failures), …; last error: …}, or null if none does
     */
    static String unreachable(Instant from, Instant to, List<Fault> faults) {
        List<Fault> overlapping = new ArrayList<>();
        for (Fault fault : faults) {
            if (!fault.until().isBefore(from) && !fault.since().isAfter(to)) {
                overlapping.add(fault);
            }
        }
        if (overlapping.isEmpty()) {
            return null;
        }
        StringBuilder text = new StringBuilder(UNREACHABLE).append(": ");
        for (int i = 0; i < Math.min(MAX_FAULTS_NAMED, overlapping.size()); i++) {
            Fault fault = overlapping.get(i);
            text.append(i == 0 ? "" : ", ").append(fault.node()).append(' ').append(fault.stage()).append(" from ")
                    .append(fault.since()).append(" to ").append(fault.until()).append(" (").append(fault.failures())
                    .append(fault.failures() == 1 ? " failure)" : " failures)");
        }
        if (overlapping.size() > MAX_FAULTS_NAMED) {
            text.append(" and ").append(overlapping.size() - MAX_FAULTS_NAMED).append(" more");
        }
        String error = overlapping.get(overlapping.size() - 1).error();
        text.append("; last error: ").append(error.length() > MAX_ERROR ? error.substring(0, MAX_ERROR) + "…" : error);
        return text.length() > MAX_UNREACHABLE ? text.substring(0, MAX_UNREACHABLE - 1) + "…" : text.toString();
    }
}
