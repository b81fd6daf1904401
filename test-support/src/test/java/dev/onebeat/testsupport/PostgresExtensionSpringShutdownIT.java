package dev.onebeat.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.platform.engine.discovery.DiscoverySelectors;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Bean;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * With the extension declared before {@code @SpringBootTest}, an application context closed after
 * the class ({@code @DirtiesContext}) still reaches its database while it shuts down.
 */
class PostgresExtensionSpringShutdownIT {

    private static final Map<String, String> SEEN = new ConcurrentHashMap<>();

    @Test
    void applicationShutsDownBeforeTheDatabaseIsDropped() {
        EngineTestKit.engine("junit-jupiter")
                .selectors(DiscoverySelectors.selectClass(SpringSample.class))
                .execute()
                .testEvents()
                .assertStatistics(stats -> stats.succeeded(1).failed(0));

        assertThat(SEEN.get("at-shutdown")).isNotNull().isEqualTo(SEEN.get("during-test"));
    }

    @ExtendWith(PostgresExtension.class)
    @SpringBootTest(classes = SpringSample.Application.class)
    @DirtiesContext
    static class SpringSample {

        @DynamicPropertySource
        static void dataSource(DynamicPropertyRegistry registry) {
            TestDatabase database = PostgresExtension.database(SpringSample.class);
            registry.add("spring.datasource.url", database::jdbcUrl);
            registry.add("spring.datasource.username", database::username);
            registry.add("spring.datasource.password", database::password);
        }

        @Test
        void rememberDatabase(TestDatabase database) {
            SEEN.put("during-test", database.name());
        }

        @SpringBootConfiguration
        @EnableAutoConfiguration
        static class Application {

            @Bean
            ShutdownProbe shutdownProbe(JdbcTemplate jdbcTemplate) {
                return new ShutdownProbe(jdbcTemplate);
            }
        }

        /** Queries the database while the context closes, as an application's shutdown work would. */
        record ShutdownProbe(JdbcTemplate jdbcTemplate) implements DisposableBean {

            @Override
            public void destroy() {
                SEEN.put("at-shutdown", jdbcTemplate.queryForObject("SELECT current_database()", String.class));
            }
        }
    }
}
