package dev.onebeat.scheduler;

import dev.onebeat.testsupport.PostgresExtension;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.core.annotation.AliasFor;
import org.springframework.test.annotation.DirtiesContext;

/**
 * An integration test of one replica in the test JVM: the class gets a fresh PostgreSQL database of
 * its own ({@link PostgresExtension}), the application context points at it (with retention off, see
 * {@link SchedulerTestDatabase}) and is closed after the class. A test adds only what is its own:
 *
 * <pre>{@code
 * @SchedulerIT
 * class NightlyReportIT {
 *     @Autowired JdbcTemplate jdbc;
 *     ...
 * }
 * }</pre>
 *
 * <p>A class that leaves its context as it found it can be a {@link SharedSchedulerIT} instead and save the
 * context's start; a class that serves HTTP is a {@link WebIT}.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ExtendWith(PostgresExtension.class)
@DirtiesContext
@SpringBootTest
public @interface SchedulerIT {

    /** @return the context's properties; by default no demo job */
    @AliasFor(annotation = SpringBootTest.class, attribute = "properties")
    String[] properties() default SchedulerTestDatabase.NO_DEMO;

    /** @return the web environment; by default a mock one, no port */
    @AliasFor(annotation = SpringBootTest.class, attribute = "webEnvironment")
    SpringBootTest.WebEnvironment webEnvironment() default SpringBootTest.WebEnvironment.MOCK;
}
