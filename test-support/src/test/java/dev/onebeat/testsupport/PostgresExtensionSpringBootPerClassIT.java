package dev.onebeat.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestInstance.Lifecycle;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * Under {@code PER_CLASS}, Spring builds the application context with the test instance, before any
 * {@code beforeAll}; the database must exist by then.
 */
@ExtendWith(PostgresExtension.class)
@SpringBootTest(classes = PostgresExtensionSpringBootIT.Application.class)
@TestInstance(Lifecycle.PER_CLASS)
class PostgresExtensionSpringBootPerClassIT {

    @DynamicPropertySource
    static void dataSource(DynamicPropertyRegistry registry) {
        TestDatabase database = PostgresExtension.database(PostgresExtensionSpringBootPerClassIT.class);
        registry.add("spring.datasource.url", database::jdbcUrl);
        registry.add("spring.datasource.username", database::username);
        registry.add("spring.datasource.password", database::password);
    }

    @Autowired
    private JdbcTemplate jdbcTemplate;

    @Test
    void applicationUsesTheDatabaseOfTheTestClass(TestDatabase database) {
        assertThat(jdbcTemplate.queryForObject("SELECT current_database()", String.class)).isEqualTo(database.name());
    }
}
