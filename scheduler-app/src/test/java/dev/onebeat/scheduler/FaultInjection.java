package dev.onebeat.scheduler;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;

/**
 * A long test that injects real faults (killed replicas, relays and database sessions, a failed-over or frozen
 * primary, a skewed clock, a broker outage) and waits them out: the longest integration test classes.
 * {@code ./mvnw -B verify} runs them; a developer's quicker loop leaves them out with
 * {@code ./mvnw -B verify -DexcludedGroups=faults} and runs only them with {@code -Dgroups=faults}.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Tag(FaultInjection.TAG)
public @interface FaultInjection {

    /** The JUnit tag of these tests. */
    String TAG = "faults";
}
