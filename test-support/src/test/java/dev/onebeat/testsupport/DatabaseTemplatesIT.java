package dev.onebeat.testsupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class DatabaseTemplatesIT {

    private final PostgresServer server = PostgresServers.shared();

    @Test
    void copiesOfAPreparedTemplateHoldWhatItPreparedAndAreIndependent() throws SQLException {
        String template = DatabaseTemplates.prepare(server, List.of(database -> execute(database,
                "CREATE TABLE seeded (id INT PRIMARY KEY)", "INSERT INTO seeded VALUES (1)")));
        TestDatabase first = DatabaseAdmin.create(server, DatabaseNames.forTestClass(getClass()), template);
        TestDatabase second = DatabaseAdmin.create(server, DatabaseNames.forTestClass(getClass()), template);
        try {
            execute(first, "INSERT INTO seeded VALUES (2)");

            assertThat(ids(first)).containsExactly(1, 2);
            assertThat(ids(second)).as("a copy of the template, not of the first copy").containsExactly(1);
        } finally {
            DatabaseAdmin.drop(server, first.name());
            DatabaseAdmin.drop(server, second.name());
            DatabaseAdmin.drop(server, template);
        }
    }

    @Test
    void aTemplateThatFailsIsNamedAndDropped() {
        DatabaseTemplate failing = new DatabaseTemplate() {
            @Override
            public void prepare(TestDatabase database) throws SQLException {
                execute(database, "CREATE TABLE half_done (id INT)", "SELECT no_such_column FROM half_done");
            }

            @Override
            public String toString() {
                return "FailingTemplate";
            }
        };

        assertThatThrownBy(() -> DatabaseTemplates.prepare(server, List.of(failing)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageMatching("could not prepare template database onebeat_t_template_[0-9a-f]{8} with \\[FailingTemplate]")
                .satisfies(e -> assertThat(Catalog.exists(server, e.getMessage().split(" ")[4])).isFalse());
    }

    @Test
    void withoutARegisteredTemplateOrWhenAskedDatabasesAreCopiesOfTemplate0() {
        // this module registers no DatabaseTemplate
        assertThat(DatabaseTemplates.forTestClass(server, DatabaseTemplatesIT.class)).isEqualTo("template0");
        assertThat(DatabaseTemplates.forTestClass(server, AskingForEmpty.class)).isEqualTo("template0");
    }

    @EmptyDatabase
    private static final class AskingForEmpty {
    }

    private static void execute(TestDatabase database, String... statements) throws SQLException {
        try (Connection connection = database.connect(); Statement statement = connection.createStatement()) {
            for (String sql : statements) {
                statement.execute(sql);
            }
        }
    }

    private static List<Integer> ids(TestDatabase database) throws SQLException {
        try (Connection connection = database.connect(); Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("SELECT id FROM seeded ORDER BY id")) {
            List<Integer> ids = new ArrayList<>();
            while (rows.next()) {
                ids.add(rows.getInt(1));
            }
            return ids;
        }
    }
}
