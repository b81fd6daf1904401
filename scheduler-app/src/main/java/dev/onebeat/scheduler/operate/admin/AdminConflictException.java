package dev.onebeat.scheduler.operate.admin;

/** A change that contradicts the target's current state (a reused request id, a task already sent); 409. */
public class AdminConflictException extends RuntimeException {

    public AdminConflictException(String message) {
        super(message);
    }
}
