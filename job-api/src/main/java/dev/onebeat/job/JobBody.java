package dev.onebeat.job;

/** The work of a job built with {@link Jobs#periodic}; see {@link PeriodicJob#run}. */
@FunctionalInterface
public interface JobBody {

    /**
     * @param context the fire's scheduled instant, connection and dispatch
     * @throws Exception any failure; it rolls back the whole fire
     */
    void run(JobContext context) throws Exception;
}
