package dev.onebeat.scheduler;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A test class that never runs beside another such class, in whichever of the build's test JVMs: the classes that
 * start several replica JVMs, private servers or a CPU-heavy burst. Two of them side by side on 2 cores slowed each
 * other 3–4× (RetryKilledIT took 145 s beside ChaosIT and 38 s alone) and pushed replicas past their liveness
 * bounds; one at a time, with the light classes filling the other test JVM, the suite is shorter.
 * {@link RunsAloneExtension} holds a file lock for the class's whole run.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@ExtendWith(RunsAloneExtension.class)
public @interface RunsAlone {
}
