package dev.onebeat.scheduler;

import dev.onebeat.testsupport.PostgresExtension;
import dev.onebeat.testsupport.TestDatabase;
import org.springframework.test.context.DynamicPropertyRegistry;

/** Points a Spring test context at the fresh database {@link PostgresExtension} made for the test class. */
public final class SchedulerTestDatabase {

    /** Properties every in-JVM scheduler test starts with: no demo, no Quartz firing unless a test starts it. */
    public static final String NO_DEMO = "onebeat.demo.enabled=false";
    public static final String QUARTZ_STOPPED = "spring.quartz.auto-startup=false";

    private SchedulerTestDatabase() {
    }

    public static void register(DynamicPropertyRegistry registry, Class<?> testClass) {
        TestDatabase database = PostgresExtension.database(testClass);
        registry.add("spring.datasource.url", database::jdbcUrl);
        registry.add("spring.datasource.username", database::username);
        registry.add("spring.datasource.password", database::password);
        // the built-in retention job would be one more job in every test's counts; RetentionIT runs it
        registry.add("onebeat.retention.enabled", () -> "false");
    }
}
