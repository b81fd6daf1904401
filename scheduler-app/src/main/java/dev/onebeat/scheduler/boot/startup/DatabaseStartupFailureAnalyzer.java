package dev.onebeat.scheduler.boot.startup;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/** Says, instead of a stack trace, which start-up step gave up on the database, after how long, and why. */
class DatabaseStartupFailureAnalyzer extends AbstractFailureAnalyzer<DatabaseStartupException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, DatabaseStartupException cause) {
        return new FailureAnalysis("The database could not be reached while starting: step '" + cause.step()
                + "' tried " + cause.attempts() + " times for onebeat.startup.database-timeout=" + cause.timeout()
                + "; the last error was: " + cause.getCause(),
                "Check that PostgreSQL at spring.datasource.url is running, accepts connections and, after a "
                        + "failover, that the URL leads to the new primary; or raise onebeat.startup.database-timeout "
                        + "to wait longer. The replica is safe to start again at any time.",
                cause);
    }
}
