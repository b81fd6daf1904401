package dev.onebeat.scheduler.operate.admin;

/** A job defined in code or configuration has no stored schedule to remove; the API answers 404. */
public class NoScheduleOverrideException extends RuntimeException {

    NoScheduleOverrideException(String name) {
        super("job '" + name + "' has no stored schedule; it already runs on the schedule defined in code or "
                + "configuration");
    }
}
