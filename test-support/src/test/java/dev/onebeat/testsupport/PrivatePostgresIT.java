package dev.onebeat.testsupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class PrivatePostgresIT {

    @Test
    void aStandbyPromotedAfterItsPrimaryIsKilledHasTheSynchronouslyCommittedRowsAndTheOldPrimaryComesBackReadOnly()
            throws SQLException {
        assumeTrue(PrivatePostgres.available(), "no PostgreSQL binaries");
        try (PrivatePostgres primary = PrivatePostgres.startPrimary("ppg_primary");
             PrivatePostgres standby = primary.startStandby("ppg_standby")) {
            primary.requireSynchronousStandby("ppg_standby");
            primary.createDatabase("app");
            try (Connection connection = primary.connect("app"); Statement statement = connection.createStatement()) {
                statement.execute("CREATE TABLE t (id int PRIMARY KEY)");
                statement.execute("INSERT INTO t SELECT generate_series(1, 100)");
            }
            primary.killPostmaster();
            standby.promote();
            assertThat(count(standby, "app")).isEqualTo(100);

            primary.restartAsReadOnlyStandby();
            assertThat(primary.inRecovery()).isTrue();
            try (Connection connection = primary.connect("app"); Statement statement = connection.createStatement()) {
                assertThatThrownBy(() -> statement.execute("INSERT INTO t VALUES (101)"))
                        .isInstanceOfSatisfying(SQLException.class,
                                e -> assertThat(e.getSQLState()).isEqualTo("25006"));
            }
        }
    }

    @Test
    void aFrozenPrimaryKeepsItsSocketsOpenAndSilentUntilKilled() throws SQLException {
        assumeTrue(PrivatePostgres.available(), "no PostgreSQL binaries");
        try (PrivatePostgres primary = PrivatePostgres.startPrimary("ppg_frozen")) {
            List<Long> frozen = primary.freeze();
            long start = System.nanoTime();
            assertThatThrownBy(() -> {
                try (Connection connection = java.sql.DriverManager.getConnection(
                        primary.jdbcUrl("postgres").replace("connectTimeout=5", "connectTimeout=2")
                                + "&loginTimeout=2", "postgres", "")) {
                    connection.isValid(1);
                }
            }).isInstanceOf(SQLException.class);
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofSeconds(1));
            primary.killFrozen(frozen);
        }
    }

    private static long count(PrivatePostgres node, String database) throws SQLException {
        try (Connection connection = node.connect(database); Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("SELECT count(*) FROM t")) {
            rows.next();
            return rows.getLong(1);
        }
    }
}
