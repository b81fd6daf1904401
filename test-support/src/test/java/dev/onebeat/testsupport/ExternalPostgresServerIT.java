package dev.onebeat.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The {@value ExternalPostgresServer#URL_VARIABLE} path, against the PostgreSQL that the build
 * machine runs on its loopback address and that trusts local connections.
 */
class ExternalPostgresServerIT {

    private static final String LOCAL_SERVER = "jdbc:postgresql://127.0.0.1:5432/postgres?user=postgres";

    private static final PostgresServer SERVER =
            PostgresServers.select(Map.of(ExternalPostgresServer.URL_VARIABLE, LOCAL_SERVER));

    @Test
    void serverOfTheVariableIsUsedAsItIs() {
        assertThat(SERVER.source()).isEqualTo("env");
        assertThat(SERVER.admin()).isEqualTo(new TestDatabase("postgres", LOCAL_SERVER, "postgres", ""));
    }

    @Test
    void createdDatabaseKeepsTheParametersOfTheUrlAndIsGoneAfterTheDrop() throws SQLException {
        String name = DatabaseNames.forTestClass(getClass());
        TestDatabase database = DatabaseAdmin.create(SERVER, name);
        try (Connection connection = database.connect()) {
            assertThat(database.jdbcUrl()).isEqualTo("jdbc:postgresql://127.0.0.1:5432/" + name + "?user=postgres");
            assertThat(Catalog.currentDatabase(connection)).isEqualTo(name);
            assertThat(Catalog.userRelations(connection)).isZero();
        } finally {
            DatabaseAdmin.drop(SERVER, name);
        }
        assertThat(Catalog.exists(SERVER, name)).isFalse();
    }
}
