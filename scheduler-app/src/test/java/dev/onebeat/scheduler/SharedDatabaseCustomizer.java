package dev.onebeat.scheduler;

import dev.onebeat.testsupport.SharedDatabases;
import dev.onebeat.testsupport.TestDatabase;
import java.util.Arrays;
import java.util.Map;
import java.util.stream.Stream;
import javax.sql.DataSource;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.MapPropertySource;
import org.springframework.test.context.ContextCustomizer;
import org.springframework.test.context.MergedContextConfiguration;

/**
 * The database of a {@link SharedSchedulerIT} context: made when Spring starts the context, for whichever
 * class comes first, and dropped when the context closes (evicted from the cache, or at the end of the JVM).
 * Every instance is equal, so it leaves Spring's cache key to the rest of the configuration: classes of the
 * same properties get one context, hence one database; classes of different properties get a context and a
 * database each.
 */
final class SharedDatabaseCustomizer implements ContextCustomizer {

    private static final String LEASE = "onebeatSharedTestDatabase";

    // names the database and picks its template; not part of equality
    private final Class<?> firstClass;

    SharedDatabaseCustomizer(Class<?> firstClass) {
        this.firstClass = firstClass;
    }

    @Override
    public void customizeContext(ConfigurableApplicationContext context, MergedContextConfiguration configuration) {
        TestDatabase database = SharedDatabases.create(firstClass);
        SchedulerTestDatabaseCustomizerFactory.addDatabase(context, database);
        // Quartz keeps one JVM-wide registry of connection providers keyed by scheduler name: a context started
        // later under the same name would replace this one's entry, and once that context closed, this cached
        // context's job store would be handed a closed pool. A scheduler name of its own keeps the entry its own.
        context.getEnvironment().getPropertySources().addFirst(new MapPropertySource("onebeat-shared-scheduler",
                Map.of("spring.quartz.scheduler-name", "onebeat-shared-" + database.name())));
        context.addBeanFactoryPostProcessor(beanFactory -> dropAfterDataSources(beanFactory, new Lease(database)));
    }

    /**
     * Registers the lease as a bean every data source depends on: the context then destroys it after them,
     * and after everything that uses them (Quartz, the relay, the pools), so no session is cut short.
     */
    private static void dropAfterDataSources(ConfigurableListableBeanFactory beanFactory, Lease lease) {
        ((BeanDefinitionRegistry) beanFactory).registerBeanDefinition(LEASE, new RootBeanDefinition(Lease.class, () -> lease));
        String[] dataSources = beanFactory.getBeanNamesForType(DataSource.class, true, false);
        if (dataSources.length == 0) {
            throw new IllegalStateException("no DataSource bean to tie " + lease.database.name() + " to");
        }
        for (String name : dataSources) {
            BeanDefinition definition = beanFactory.getBeanDefinition(name);
            String[] dependsOn = definition.getDependsOn() == null ? new String[0] : definition.getDependsOn();
            definition.setDependsOn(Stream.concat(Arrays.stream(dependsOn), Stream.of(LEASE)).toArray(String[]::new));
        }
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof SharedDatabaseCustomizer;
    }

    @Override
    public int hashCode() {
        return SharedDatabaseCustomizer.class.hashCode();
    }

    /** Drops the database when the context destroys it. */
    static final class Lease implements DisposableBean {

        private final TestDatabase database;

        Lease(TestDatabase database) {
            this.database = database;
        }

        @Override
        public void destroy() {
            SharedDatabases.drop(database);
        }
    }
}
