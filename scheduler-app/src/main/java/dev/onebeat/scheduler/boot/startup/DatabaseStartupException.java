package dev.onebeat.scheduler.boot.startup;

import java.time.Duration;

/** A start-up step that could not reach the database within {@code onebeat.startup.database-timeout}. */
public final class DatabaseStartupException extends RuntimeException {

    private final String step;
    private final Duration timeout;
    private final int attempts;

    DatabaseStartupException(String step, Duration timeout, int attempts, Throwable lastFailure) {
        super("start-up step '" + step + "' could not reach the database in " + attempts + " attempts within "
                + "onebeat.startup.database-timeout=" + timeout + ": " + lastFailure, lastFailure);
        this.step = step;
        this.timeout = timeout;
        this.attempts = attempts;
    }

    public String step() {
        return step;
    }

    public Duration timeout() {
        return timeout;
    }

    public int attempts() {
        return attempts;
    }
}
