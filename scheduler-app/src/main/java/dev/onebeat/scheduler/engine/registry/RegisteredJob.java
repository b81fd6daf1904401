package dev.onebeat.scheduler.engine.registry;

import dev.onebeat.job.PeriodicJob;

/**
 * A validated job and where it was defined.
 *
 * @param job the job
 * @param origin for messages: {@code bean 'x'}, {@code service com.acme.X}, {@code onebeat.jobs[2]}
 */
public record RegisteredJob(PeriodicJob job, String origin) {

    /** @return the job's name */
    public String name() {
        return job.name();
    }

    /**
     * @return whether the job is defined by data alone (configuration or the admin API): its fires only
     *         dispatch one task, so many of them may share one transaction
     */
    public boolean declarative() {
        return isDeclarative(job);
    }

    /** @return whether {@code job} is defined by data alone, see {@link #declarative()} */
    public static boolean isDeclarative(PeriodicJob job) {
        return job instanceof DeclarativeJob || (job instanceof Rescheduled rescheduled
                && rescheduled.original() instanceof DeclarativeJob);
    }
}
