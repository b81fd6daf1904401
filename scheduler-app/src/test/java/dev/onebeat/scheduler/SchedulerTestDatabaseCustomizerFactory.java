package dev.onebeat.scheduler;

import dev.onebeat.testsupport.PostgresExtension;
import dev.onebeat.testsupport.TestDatabase;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.annotation.MergedAnnotations;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.MutablePropertySources;
import org.springframework.test.context.ContextConfigurationAttributes;
import org.springframework.test.context.ContextCustomizer;
import org.springframework.test.context.ContextCustomizerFactory;
import org.springframework.test.context.MergedContextConfiguration;
import org.springframework.test.context.support.TestPropertySourceUtils;

/**
 * Gives the context of a {@link SchedulerIT} class the database {@link PostgresExtension} made for it, and
 * the context of a {@link SharedSchedulerIT} class a database of the context's own ({@link SharedDatabaseCustomizer}),
 * so no test registers it by hand. Registered in {@code META-INF/spring.factories} of the test classes.
 */
public final class SchedulerTestDatabaseCustomizerFactory implements ContextCustomizerFactory {

    @Override
    public ContextCustomizer createContextCustomizer(Class<?> testClass, List<ContextConfigurationAttributes> attributes) {
        MergedAnnotations annotations = MergedAnnotations.search(MergedAnnotations.SearchStrategy.TYPE_HIERARCHY)
                .withEnclosingClasses(type -> true).from(testClass);
        if (annotations.isPresent(SchedulerIT.class)) {
            return new DatabaseCustomizer(testClass);
        }
        return annotations.isPresent(SharedSchedulerIT.class) ? new SharedDatabaseCustomizer(testClass) : null;
    }

    /**
     * Adds {@code database} as a property source just below the test's own properties (inlined and
     * dynamic), so that a test can still set any of these; read when the context starts.
     */
    static void addDatabase(ConfigurableApplicationContext context, TestDatabase database) {
        MapPropertySource source = new MapPropertySource("onebeat-test-database",
                Map.of("spring.datasource.url", database.jdbcUrl(),
                        "spring.datasource.username", database.username(),
                        "spring.datasource.password", database.password(),
                        // the built-in retention job would be one more job in every test's counts
                        "onebeat.retention.enabled", "false"));
        MutablePropertySources sources = context.getEnvironment().getPropertySources();
        if (sources.contains(TestPropertySourceUtils.INLINED_PROPERTIES_PROPERTY_SOURCE_NAME)) {
            sources.addAfter(TestPropertySourceUtils.INLINED_PROPERTIES_PROPERTY_SOURCE_NAME, source);
        } else {
            sources.addFirst(source);
        }
    }

    /** The class's own database: equal only for the same class, so its context is its own too. */
    private static final class DatabaseCustomizer implements ContextCustomizer {

        private final Class<?> testClass;

        DatabaseCustomizer(Class<?> testClass) {
            this.testClass = testClass;
        }

        @Override
        public void customizeContext(ConfigurableApplicationContext context, MergedContextConfiguration configuration) {
            addDatabase(context, PostgresExtension.database(testClass));
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof DatabaseCustomizer that && testClass.equals(that.testClass);
        }

        @Override
        public int hashCode() {
            return Objects.hash(testClass);
        }
    }
}
