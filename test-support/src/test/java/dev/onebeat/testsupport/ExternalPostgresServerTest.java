package dev.onebeat.testsupport;

import static dev.onebeat.testsupport.ExternalPostgresServer.PASSWORD_VARIABLE;
import static dev.onebeat.testsupport.ExternalPostgresServer.URL_VARIABLE;
import static dev.onebeat.testsupport.ExternalPostgresServer.USER_VARIABLE;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class ExternalPostgresServerTest {

    @Test
    void credentialsInTheUrlWinOverTheVariables() {
        TestDatabase admin = ExternalPostgresServer.fromEnvironment(Map.of(
                URL_VARIABLE, "jdbc:postgresql://h/maintenance?user=inurl&password=fromurl",
                USER_VARIABLE, "invariable",
                PASSWORD_VARIABLE, "fromvariable")).admin();

        assertThat(admin.username()).isEqualTo("inurl");
        assertThat(admin.password()).isEqualTo("fromurl");
        assertThat(admin.name()).isEqualTo("maintenance");
    }

    @Test
    void variablesSupplyCredentialsTheUrlLacks() {
        TestDatabase admin = ExternalPostgresServer.fromEnvironment(Map.of(
                URL_VARIABLE, "jdbc:postgresql://h/postgres",
                USER_VARIABLE, "ci",
                PASSWORD_VARIABLE, "s3cret")).admin();

        assertThat(admin.username()).isEqualTo("ci");
        assertThat(admin.password()).isEqualTo("s3cret");
    }

    @Test
    void withoutCredentialsConnectsAsPostgresWithoutPassword() {
        TestDatabase admin = ExternalPostgresServer.fromEnvironment(Map.of(URL_VARIABLE, "jdbc:postgresql://h:5432/")).admin();

        assertThat(admin.username()).isEqualTo("postgres");
        assertThat(admin.password()).isEmpty();
        assertThat(admin.name()).as("the driver's default: the user's database").isEqualTo("postgres");
    }

    @Test
    void testDatabasesKeepTheParametersOfTheUrl() {
        PostgresServer server = ExternalPostgresServer.fromEnvironment(
                Map.of(URL_VARIABLE, "jdbc:postgresql://h:5432/postgres?user=ci&sslmode=disable"));

        assertThat(server.database("onebeat_t_x_0000abcd").jdbcUrl())
                .isEqualTo("jdbc:postgresql://h:5432/onebeat_t_x_0000abcd?user=ci&sslmode=disable");
    }
}
