package dev.onebeat.scheduler.operate.admin;

/** No outbox task has the given id; the API answers 404. */
public class UnknownTaskException extends RuntimeException {

    public UnknownTaskException(long id) {
        super("no task with id " + id);
    }
}
