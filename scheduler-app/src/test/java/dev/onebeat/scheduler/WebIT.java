package dev.onebeat.scheduler;

import dev.onebeat.scheduler.ApiClient;
import dev.onebeat.scheduler.WebIT;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.core.annotation.AliasFor;

/**
 * A {@link SchedulerIT} whose replica serves HTTP on a random port, with the {@link WithTestUsers test users}
 * signed up, and an {@link ApiClient} to autowire: the web tests' set-up in one place.
 *
 * <pre>{@code
 * @WebIT(properties = {SchedulerTestDatabase.NO_DEMO, "onebeat.jobs[0].name=report", ...})
 * class ReportApiIT {
 *     @Autowired ApiClient server;
 *
 *     @Test
 *     void ... { server.as("admin").get("/api/jobs/report") ... }
 * }
 * }</pre>
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@SchedulerIT(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@WithTestUsers
public @interface WebIT {

    /** @return the context's properties; by default no demo job */
    @AliasFor(annotation = SchedulerIT.class, attribute = "properties")
    String[] properties() default SchedulerTestDatabase.NO_DEMO;
}
