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
 * Gives the context of a {@link SchedulerIT} class the database {@link PostgresExtension} made for it,
 * so no test registers it by hand. Registered in {@code META-INF/spring.factories} of the test classes.
 */
public final class SchedulerTestDatabaseCustomizerFactory implements ContextCustomizerFactory {

    @Override
    public ContextCustomizer createContextCustomizer(Class<?> testClass, List<ContextConfigurationAttributes> attributes) {
        boolean annotated = MergedAnnotations.search(MergedAnnotations.SearchStrategy.TYPE_HIERARCHY)
                .withEnclosingClasses(type -> true).from(testClass).isPresent(SchedulerIT.class);
        return annotated ? new DatabaseCustomizer(testClass) : null;
    }

    /** Adds the class's database as the highest-priority property source, read when the context starts. */
    private static final class DatabaseCustomizer implements ContextCustomizer {

        private final Class<?> testClass;

        DatabaseCustomizer(Class<?> testClass) {
            this.testClass = testClass;
        }

        @Override
        public void customizeContext(ConfigurableApplicationContext context, MergedContextConfiguration configuration) {
            TestDatabase database = PostgresExtension.database(testClass);
            MapPropertySource source = new MapPropertySource("onebeat-test-database",
                    Map.of("spring.datasource.url", database.jdbcUrl(),
                            "spring.datasource.username", database.username(),
                            "spring.datasource.password", database.password(),
                            // the built-in retention job would be one more job in every test's counts
                            "onebeat.retention.enabled", "false"));
            MutablePropertySources sources = context.getEnvironment().getPropertySources();
            // below the test's own properties (inlined and dynamic), so that a test can still set any of these
            if (sources.contains(TestPropertySourceUtils.INLINED_PROPERTIES_PROPERTY_SOURCE_NAME)) {
                sources.addAfter(TestPropertySourceUtils.INLINED_PROPERTIES_PROPERTY_SOURCE_NAME, source);
            } else {
                sources.addFirst(source);
            }
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
