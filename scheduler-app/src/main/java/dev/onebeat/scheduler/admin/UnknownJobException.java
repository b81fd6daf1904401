package dev.onebeat.scheduler.admin;

/** The named job is not in the scheduler's store; the API answers 404. */
public class UnknownJobException extends RuntimeException {

    public UnknownJobException(String name) {
        super("no job named '" + name + "'");
    }
}
