package dev.onebeat.scheduler.engine.registry;

/** A job definition that cannot be scheduled; stops start-up. The message names the job and the field. */
public class JobDefinitionException extends RuntimeException {

    public JobDefinitionException(String message) {
        super(message);
    }

    public JobDefinitionException(String message, Throwable cause) {
        super(message, cause);
    }
}
