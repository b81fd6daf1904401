package dev.onebeat.scheduler.engine.registry;

/** A job that would take its namespace past one of its limits ({@code onebeat.namespaces.<name>.max-*}). */
public class NamespaceLimitException extends RuntimeException {

    public NamespaceLimitException(String message) {
        super(message);
    }
}
