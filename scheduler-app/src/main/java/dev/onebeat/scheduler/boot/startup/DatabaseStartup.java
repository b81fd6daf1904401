package dev.onebeat.scheduler.boot.startup;

import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.retry.RetryException;
import org.springframework.core.retry.RetryPolicy;
import org.springframework.core.retry.RetryTemplate;
import org.springframework.core.retry.Retryable;
import org.springframework.stereotype.Component;

/**
 * Runs a start-up step that needs the database, again and again while the database cannot be reached (sessions
 * terminated, a server restarting or not yet accepting connections, a failover in progress), with a backoff from
 * {@link #FIRST_DELAY} doubling to {@link #MAX_DELAY}, until {@code onebeat.startup.database-timeout}: then it gives up
 * with a {@link DatabaseStartupException} that names the step. Any other failure (a bad changelog, a bad job) ends
 * the step at once. Each step must be safe to run again from the start after a failure part-way.
 *
 * <p>These steps run while the application context is built, before the web server opens its port: a replica waiting
 * here answers no HTTP request (a start-up probe sees the connection refused) and is not ready; the log says what it
 * waits for.
 */
@Component
public class DatabaseStartup {

    private static final Logger log = LoggerFactory.getLogger(DatabaseStartup.class);
    static final Duration FIRST_DELAY = Duration.ofMillis(250);
    static final Duration MAX_DELAY = Duration.ofSeconds(2);

    private final Duration timeout;
    private final RetryTemplate retries;

    public DatabaseStartup(StartupProperties properties) {
        this.timeout = properties.databaseTimeout();
        this.retries = new RetryTemplate(RetryPolicy.builder()
                .predicate(DatabaseUnavailable::test)
                .maxRetries(Long.MAX_VALUE)
                .timeout(timeout)
                .delay(FIRST_DELAY)
                .multiplier(2)
                .maxDelay(MAX_DELAY)
                .build());
    }

    /**
     * Runs {@code step}, trying again while the database cannot be reached.
     *
     * @param name the step, for the log and the failure report ({@code migrations}, {@code registry sync})
     * @return what the step returns
     * @throws DatabaseStartupException if the database could not be reached within the timeout
     */
    public <T> T run(String name, Callable<T> step) {
        long start = System.nanoTime();
        AtomicInteger attempts = new AtomicInteger();
        Retryable<T> attempt = new Retryable<>() {
            @Override
            public T execute() throws Throwable {
                int number = attempts.incrementAndGet();
                try {
                    return step.call();
                } catch (Throwable failure) {
                    if (DatabaseUnavailable.test(failure)) {
                        log.warn("start-up waits for the database step='{}' attempt={} elapsedMs={} timeout={} cause={}",
                                name, number, (System.nanoTime() - start) / 1_000_000, timeout, rootMessage(failure));
                    }
                    throw failure;
                }
            }

            @Override
            public String getName() {
                return name;
            }
        };
        try {
            T result = retries.execute(attempt);
            if (attempts.get() > 1) {
                log.info("start-up step reached the database step='{}' attempts={} elapsedMs={}", name, attempts.get(),
                        (System.nanoTime() - start) / 1_000_000);
            }
            return result;
        } catch (RetryException e) {
            Throwable last = e.getLastException() != null ? e.getLastException() : e.getCause();
            if (DatabaseUnavailable.test(last)) {
                throw new DatabaseStartupException(name, timeout, attempts.get(), last);
            }
            if (last instanceof RuntimeException runtime) {
                throw runtime;
            }
            if (last instanceof Error error) {
                throw error;
            }
            throw new IllegalStateException("start-up step '" + name + "' failed: " + last.getMessage(), last);
        }
    }

    /** Runs a step that returns nothing, as {@link #run(String, Callable)} does. */
    public void run(String name, Step step) {
        run(name, () -> {
            step.run();
            return null;
        });
    }

    /** A start-up step that returns nothing and may throw. */
    @FunctionalInterface
    public interface Step {
        void run() throws Exception;
    }

    private static String rootMessage(Throwable failure) {
        Throwable root = failure;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.getClass().getSimpleName() + ": " + root.getMessage();
    }
}
