package dev.onebeat.scheduler.boot.startup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import liquibase.exception.DatabaseException;
import liquibase.exception.LiquibaseException;
import org.junit.jupiter.api.Test;

class DatabaseStartupTest {

    private final DatabaseStartup startup = new DatabaseStartup(new StartupProperties(Duration.ofSeconds(1), true));

    @Test
    void stepThatCannotReachTheDatabaseIsTriedAgainUntilItSucceeds() {
        AtomicInteger attempts = new AtomicInteger();
        String result = startup.run("migrations", () -> {
            if (attempts.incrementAndGet() < 3) {
                throw new LiquibaseException(new DatabaseException(new SQLException(
                        "FATAL: terminating connection due to administrator command", "57P01")));
            }
            return "done";
        });
        assertThat(result).isEqualTo("done");
        assertThat(attempts).hasValue(3);
    }

    @Test
    void stepWhoseDatabaseNeverAnswersGivesUpAfterTheTimeoutNamingTheStep() {
        long start = System.nanoTime();
        assertThatThrownBy(() -> startup.run("registry sync", () -> {
            throw new SQLException("Connection to 127.0.0.1:1 refused", "08001");
        })).isInstanceOf(DatabaseStartupException.class)
                .hasMessageContaining("start-up step 'registry sync'")
                .hasMessageContaining("onebeat.startup.database-timeout=PT1S")
                .hasRootCauseMessage("Connection to 127.0.0.1:1 refused");
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));
    }

    @Test
    void otherFailureEndsTheStepAtOnceUnwrapped() {
        AtomicInteger attempts = new AtomicInteger();
        IllegalArgumentException bad = new IllegalArgumentException("jobs[0].cron: not a cron");
        assertThatThrownBy(() -> startup.run("registry sync", () -> {
            attempts.incrementAndGet();
            throw bad;
        })).isSameAs(bad);
        assertThat(attempts).hasValue(1);
    }

    @Test
    void syntaxErrorIsNotMistakenForAnUnreachableDatabase() {
        assertThat(DatabaseUnavailable.test(new SQLException("relation does not exist", "42P01"))).isFalse();
        assertThat(DatabaseUnavailable.test(new IllegalStateException("wrapped",
                new SQLException("the database system is starting up", "57P03")))).isTrue();
        assertThat(DatabaseUnavailable.test(new SQLException("cannot execute INSERT in a read-only transaction",
                "25006"))).isTrue();
    }

    @Test
    void timeoutMustBePositive() {
        assertThatThrownBy(() -> new StartupProperties(Duration.ZERO, true))
                .hasMessage("onebeat.startup.database-timeout: must be positive, was PT0S");
    }
}
