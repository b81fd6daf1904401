package dev.onebeat.scheduler.operate.admin;

/** The named job is not in the scheduler's store; the API answers 404. */
public class UnknownJobException extends RuntimeException {

    public UnknownJobException(String name) {
        super("no job named '" + name + "'");
    }

    /** A job that exists but has no backfill with that id (or no job of that name). */
    public UnknownJobException(String name, long backfill) {
        super("job '" + name + "' has no backfill " + backfill);
    }
}
