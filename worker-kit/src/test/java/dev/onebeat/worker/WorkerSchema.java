package dev.onebeat.worker;

import com.zaxxer.hikari.HikariDataSource;
import dev.onebeat.testsupport.TestDatabase;
import java.sql.Connection;
import java.sql.SQLException;
import javax.sql.DataSource;
import liquibase.Liquibase;
import liquibase.database.DatabaseFactory;
import liquibase.database.jvm.JdbcConnection;
import liquibase.resource.ClassLoaderResourceAccessor;

/** Applies onebeat's master changelog (scheduler and worker tables) to a test database. */
public final class WorkerSchema {

    private WorkerSchema() {
    }

    /** @return a pooled data source on the database, with every onebeat table created */
    public static HikariDataSource migrated(TestDatabase database) {
        HikariDataSource dataSource = new HikariDataSource();
        dataSource.setJdbcUrl(database.jdbcUrl());
        dataSource.setUsername(database.username());
        dataSource.setPassword(database.password());
        dataSource.setMaximumPoolSize(40);
        apply(dataSource);
        return dataSource;
    }

    @SuppressWarnings("deprecation") // the Liquibase facade is the short way for a test
    static void apply(DataSource dataSource) {
        try (Connection connection = dataSource.getConnection()) {
            var database = DatabaseFactory.getInstance().findCorrectDatabaseImplementation(new JdbcConnection(connection));
            new Liquibase("db/onebeat/changelog-master.xml", new ClassLoaderResourceAccessor(), database).update("");
        } catch (SQLException | liquibase.exception.LiquibaseException e) {
            throw new IllegalStateException("could not migrate the test database", e);
        }
    }
}
