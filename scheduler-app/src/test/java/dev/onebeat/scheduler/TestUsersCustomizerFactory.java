package dev.onebeat.scheduler;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
 * Gives the context of a {@link WithTestUsers} class the test users and an {@link ApiClient}. Registered in
 * {@code META-INF/spring.factories} of the test classes.
 */
public final class TestUsersCustomizerFactory implements ContextCustomizerFactory {

    @Override
    public ContextCustomizer createContextCustomizer(Class<?> testClass, List<ContextConfigurationAttributes> attributes) {
        boolean annotated = MergedAnnotations.search(MergedAnnotations.SearchStrategy.TYPE_HIERARCHY)
                .withEnclosingClasses(type -> true).from(testClass).isPresent(WithTestUsers.class);
        return annotated ? new UsersCustomizer() : null;
    }

    /** Equal to every other: the users are the same for every class. */
    private static final class UsersCustomizer implements ContextCustomizer {

        // hashed once per JVM: every context then gets the same property values
        private static final Map<String, Object> USERS = users();

        @Override
        public void customizeContext(ConfigurableApplicationContext context, MergedContextConfiguration configuration) {
            MapPropertySource source = new MapPropertySource("onebeat-test-users", USERS);
            MutablePropertySources sources = context.getEnvironment().getPropertySources();
            // below the test's own properties, so that a test can still replace a user
            if (sources.contains(TestPropertySourceUtils.INLINED_PROPERTIES_PROPERTY_SOURCE_NAME)) {
                sources.addAfter(TestPropertySourceUtils.INLINED_PROPERTIES_PROPERTY_SOURCE_NAME, source);
            } else {
                sources.addFirst(source);
            }
            context.getBeanFactory().registerSingleton("onebeatTestApiClient", ApiClient.of(context.getEnvironment()));
        }

        private static Map<String, Object> users() {
            Map<String, Object> users = new LinkedHashMap<>();
            SecurityTestUsers.register((name, value) -> users.put(name, value.get()));
            return Map.copyOf(users);
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof UsersCustomizer;
        }

        @Override
        public int hashCode() {
            return UsersCustomizer.class.hashCode();
        }
    }
}
