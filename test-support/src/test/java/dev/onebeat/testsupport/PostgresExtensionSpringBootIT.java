package dev.onebeat.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

// the extension comes first, so that after the class Spring's callbacks run before the database is dropped
@ExtendWith(PostgresExtension.class)
@SpringBootTest(classes = PostgresExtensionSpringBootIT.Application.class)
class PostgresExtensionSpringBootIT {

    @DynamicPropertySource
    static void dataSource(DynamicPropertyRegistry registry) {
        TestDatabase database = PostgresExtension.database(PostgresExtensionSpringBootIT.class);
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

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class Application {
    }
}
