package dev.onebeat.worker;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import dev.onebeat.testsupport.EmptyDatabase;
import dev.onebeat.testsupport.PostgresExtension;
import dev.onebeat.testsupport.TestDatabase;
import java.sql.Connection;
import java.sql.ResultSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

// empty, not the migrated template: the subject is what the changelog creates
@EmptyDatabase
@ExtendWith(PostgresExtension.class)
class WorkerSchemaIT {

    @Test
    void masterChangelogCreatesTheWorkerTables(TestDatabase database) throws Exception {
        try (HikariDataSource dataSource = WorkerSchema.migrated(database);
             Connection connection = dataSource.getConnection();
             ResultSet tables = connection.createStatement().executeQuery(
                     "SELECT count(*) FROM information_schema.tables WHERE table_name IN "
                             + "('onebeat_task', 'onebeat_processed', 'onebeat_effect', 'onebeat_throttle')")) {
            tables.next();
            assertThat(tables.getInt(1)).isEqualTo(4);
        }
    }
}
