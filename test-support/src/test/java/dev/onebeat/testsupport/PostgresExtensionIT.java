package dev.onebeat.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(PostgresExtension.class)
class PostgresExtensionIT {

    private static TestDatabase seenByBeforeAll;

    private final TestDatabase seenByConstructor;

    PostgresExtensionIT(TestDatabase database) {
        this.seenByConstructor = database;
    }

    @BeforeAll
    static void rememberDatabase(TestDatabase database) {
        seenByBeforeAll = database;
    }

    @Test
    void everyWayOfAskingYieldsTheSameDatabase(TestDatabase database) {
        assertThat(database)
                .isEqualTo(PostgresExtension.database(getClass()))
                .isEqualTo(seenByConstructor)
                .isEqualTo(seenByBeforeAll);
    }

    @Test
    void databaseIsNamedAfterTheTestClass(TestDatabase database) {
        assertThat(database.name()).matches("onebeat_t_postgresextensionit_[0-9a-f]{8}");
    }

    @Test
    void databaseIsConnectableAndEmpty(TestDatabase database) throws SQLException {
        try (Connection connection = database.connect()) {
            assertThat(Catalog.currentDatabase(connection)).isEqualTo(database.name());
            assertThat(Catalog.userRelations(connection)).isZero();
        }
    }

    @Test
    void dataSourceConnectsToTheDatabase(TestDatabase database) throws SQLException {
        try (Connection connection = database.dataSource().getConnection()) {
            assertThat(Catalog.currentDatabase(connection)).isEqualTo(database.name());
        }
    }

    @Test
    void urlWithCredentialsIsEnoughToConnect(TestDatabase database) throws SQLException {
        try (Connection connection = DriverManager.getConnection(database.jdbcUrlWithCredentials())) {
            assertThat(Catalog.currentDatabase(connection)).isEqualTo(database.name());
        }
    }

    @Nested
    class NestedClass {

        @Test
        void usesTheDatabaseOfTheEnclosingClass(TestDatabase database) {
            assertThat(database)
                    .isEqualTo(seenByConstructor)
                    .isEqualTo(PostgresExtension.database(NestedClass.class));
        }
    }
}
