package dev.onebeat.scheduler;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.core.annotation.AliasFor;

/**
 * A {@link SchedulerIT} that shares its application context, and the database under it, with every other
 * class of the same configuration (properties, web environment, test configuration): Spring starts the
 * context once and keeps it in its cache. The database is a copy of the migrated template made when the
 * context starts and dropped when it closes (see {@link SchedulerTestDatabaseCustomizerFactory}).
 *
 * <p>Only for a class that leaves the context as it found it and does not need an empty database: it names its
 * own jobs, queues and rows uniquely, or clears what it counts; it stops no bean, overrides no clock, changes no
 * configuration. A class that cannot is a {@link SchedulerIT}.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@SpringBootTest
public @interface SharedSchedulerIT {

    /** @return the context's properties; by default no demo job */
    @AliasFor(annotation = SpringBootTest.class, attribute = "properties")
    String[] properties() default SchedulerTestDatabase.NO_DEMO;

    /** @return the web environment; by default a mock one, no port */
    @AliasFor(annotation = SpringBootTest.class, attribute = "webEnvironment")
    SpringBootTest.WebEnvironment webEnvironment() default SpringBootTest.WebEnvironment.MOCK;
}
