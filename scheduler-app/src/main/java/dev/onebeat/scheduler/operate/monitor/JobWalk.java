package dev.onebeat.scheduler.operate.monitor;

import dev.onebeat.job.AlertPolicy;
import dev.onebeat.job.PeriodicJob;
import dev.onebeat.scheduler.engine.fire.InstantRecords.Slot;
import dev.onebeat.scheduler.engine.registry.JobCatalog.Standing;
import dev.onebeat.scheduler.engine.schedule.ScheduledInstant;
import dev.onebeat.scheduler.operate.monitor.InstantJudge.Finding;
import dev.onebeat.scheduler.operate.monitor.InstantJudge.Verdict;
import dev.onebeat.scheduler.operate.monitor.MonitorTable.Event;
import dev.onebeat.scheduler.operate.monitor.MonitorTable.Progress;
import java.time.Instant;
import java.util.List;

/**
 * One job's walk through its instants in one check ({@link MonitorCheck}): the streak it carries from instant to
 * instant, and the events the instants make. Misses past {@code maxEvents} in one check are gathered into one event.
 */
final class JobWalk {

    /** An event's reason holds at most this many characters ({@code onebeat_job_event.reason}). */
    private static final int MAX_REASON = 500;

    final PeriodicJob job;
    final Standing standing;
    final List<ScheduledInstant> instants;
    /** whether the job is orphaned and judged from the catalog alone: none of its instants can fire */
    final boolean orphaned;
    Progress progress;
    private final int maxEvents;
    private int missedEvents;
    private int unreported;
    private Instant firstUnreported;
    private Instant lastUnreported;
    private String lastUnreportedReason;

    /** @param maxEvents the misses reported one by one in one check, the rest as one event */
    JobWalk(PeriodicJob job, Standing standing, List<ScheduledInstant> instants, Progress progress, boolean orphaned,
            int maxEvents) {
        this.job = job;
        this.standing = standing;
        this.instants = instants;
        this.progress = progress;
        this.orphaned = orphaned;
        this.maxEvents = maxEvents;
    }

    /**
     * Moves the job's streak by one judged instant, adding the events it makes.
     *
     * @return the progress after the instant
     */
    Progress judge(Progress p, Instant at, Finding finding, Verdict verdict, Slot slot, String node, Instant now,
                   List<Event> events) {
        AlertPolicy policy = job.alerts();
        String name = job.name();
        switch (finding) {
            case MISSED_THEN_SUCCESS -> {
                // it ran, so it is the job's last success; but late past its grace it is a miss, and a job alerted on
                // recovers with an instant that began in time, not with each late one of a backlog
                Progress late = missed(p, at, "began " + verdict.lag().toMillis()
                        + " ms after the instant, after its grace", node, now, events);
                return new Progress(name, late.checkedUntil(), late.alerting(), late.failuresInRow(), 0,
                        slot.fire().committedAt(), late.nextDeadline());
            }
            case SUCCESS -> {
                return success(p, at, slot, node, now, events);
            }
            case MISSED -> {
                return missed(p, at, verdict.reason(), node, now, events);
            }
            case FAILED -> {
                flushUnreported(node, now, events);
                int failures = p.failuresInRow() + 1;
                boolean alert = failures >= policy.afterFailures();
                events.add(new Event(name, at, "failed", verdict.reason() + (alert ? "" : " (" + failures + " of "
                        + policy.afterFailures() + " failures in a row before an alert)"), alert && policy.enabled(),
                        node, now));
                return new Progress(name, p.checkedUntil(), p.alerting() || alert, failures, 0, p.lastSuccessAt(),
                        p.nextDeadline());
            }
            default -> {
                return p;
            }
        }
    }

    private Progress success(Progress p, Instant at, Slot slot, String node, Instant now,
                             List<Event> events) {
        flushUnreported(node, now, events);
        AlertPolicy policy = job.alerts();
        int successes = p.successesInRow() + 1;
        boolean resolved = p.alerting() && successes >= policy.resolveAfter();
        if (resolved) {
            events.add(new Event(job.name(), at, "recovered", "committed; " + successes + " success"
                    + (successes == 1 ? "" : "es") + " in a row", policy.enabled(), node, now));
        }
        return new Progress(p.job(), p.checkedUntil(), p.alerting() && !resolved, 0, successes,
                slot.fire().committedAt(), p.nextDeadline());
    }

    private Progress missed(Progress p, Instant at, String reason, String node, Instant now,
                            List<Event> events) {
        if (missedEvents < maxEvents) {
            missedEvents++;
            events.add(new Event(job.name(), at, "missed", reason, job.alerts().enabled(), node, now));
        } else {
            if (unreported == 0) {
                firstUnreported = at;
            }
            unreported++;
            lastUnreported = at;
            lastUnreportedReason = reason;
        }
        return new Progress(p.job(), p.checkedUntil(), true, p.failuresInRow(), 0, p.lastSuccessAt(),
                p.nextDeadline());
    }

    /** Writes the misses a check did not report one by one as one event at the last of them. */
    void flushUnreported(String node, Instant now, List<Event> events) {
        if (unreported == 0) {
            return;
        }
        // the last one's reason, when it says more than that no fire began: the database could not be reached
        String reason = "missed, with the " + unreported + " missed instants from " + firstUnreported
                + " to this one, reported as one event" + (lastUnreportedReason.contains(InstantJudge.UNREACHABLE)
                ? "; this one: " + lastUnreportedReason : "");
        events.add(new Event(job.name(), lastUnreported, "missed",
                reason.length() > MAX_REASON ? reason.substring(0, MAX_REASON - 1) + "…" : reason,
                job.alerts().enabled(), node, now));
        unreported = 0;
        firstUnreported = null;
        lastUnreported = null;
        lastUnreportedReason = null;
    }
}
