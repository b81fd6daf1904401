package dev.onebeat.scheduler.boot.migration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.onebeat.scheduler.boot.startup.DatabaseStartup;
import dev.onebeat.scheduler.boot.startup.StartupProperties;
import dev.onebeat.testsupport.EmptyDatabase;
import dev.onebeat.testsupport.PostgresExtension;
import dev.onebeat.testsupport.TestDatabase;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.core.io.DefaultResourceLoader;

/**
 * A start on a database that records its changelog as applied, with {@code databasechangelog} unchanged since, does
 * not run Liquibase; anything else does, under the migration lock. Liquibase's run is seen by the lock: another
 * session holds onebeat's migration lock, so a start that runs Liquibase waits for it (seen in {@code pg_locks}), and
 * one that skips it does not.
 */
@EmptyDatabase
@ExtendWith(PostgresExtension.class)
class AppliedChangelogIT {

    private static final String CHANGELOG = "classpath:db/onebeat/changelog-master.xml";
    private static final String PLUS_ONE = "classpath:db/digest/plus-one.xml";
    private static final Duration BOUND = Duration.ofSeconds(60);

    private final TestDatabase database;

    AppliedChangelogIT(TestDatabase database) {
        this.database = database;
    }

    @Test
    void aStartMigratesAndRecordsTheChangelogAndTheNextStartsWhileAnotherHoldsTheMigrationLock() throws Exception {
        start(CHANGELOG, true);
        assertThat(recorded("changelog")).isEqualTo(CHANGELOG);
        assertThat(recorded("changelog_digest"))
                .isEqualTo(ChangelogDigest.of(new DefaultResourceLoader(), CHANGELOG).orElseThrow());

        try (Connection other = database.connect()) {
            holdMigrationLock(other);
            // were Liquibase run, the start would wait for the lock until the other session lets it go
            assertTimeoutPreemptively(BOUND, () -> start(CHANGELOG, true));
        }
    }

    @Test
    void aChangesetChangedInDatabasechangelogRunsLiquibaseUnderTheLock() throws Exception {
        start(CHANGELOG, true);
        execute("UPDATE databasechangelog SET md5sum = NULL WHERE id = '023-applied-changelog'");

        startWaitingForTheLock(CHANGELOG, true);

        // Liquibase computed the checksum it found missing, and the record is of the table as Liquibase left it
        assertThat(query("SELECT md5sum FROM databasechangelog WHERE id = '023-applied-changelog'")).isNotNull();
        try (Connection other = database.connect()) {
            holdMigrationLock(other);
            assertTimeoutPreemptively(BOUND, () -> start(CHANGELOG, true));
        }
    }

    @Test
    void anotherChangelogRunsLiquibaseAndSoDoesTheFirstOneAgainAfterIt() throws Exception {
        start(CHANGELOG, true);

        start(PLUS_ONE, true);
        assertThat(query("SELECT to_regclass('digest_one')::text")).as("the changeset more was applied")
                .isEqualTo("digest_one");
        assertThat(recorded("changelog")).isEqualTo(PLUS_ONE);

        // the application's changelog is not the one recorded: Liquibase runs (nothing to apply) and records it
        startWaitingForTheLock(CHANGELOG, true);
        assertThat(recorded("changelog")).isEqualTo(CHANGELOG);
    }

    @Test
    void withTheSkipOffLiquibaseRunsAtEveryStart() throws Exception {
        start(CHANGELOG, true);

        startWaitingForTheLock(CHANGELOG, false);
    }

    /** Starts while another session holds the migration lock, sees the start wait for it, and lets it go. */
    private void startWaitingForTheLock(String changeLog, boolean skipUnchanged) throws Exception {
        CompletableFuture<Void> started;
        try (Connection other = database.connect()) {
            holdMigrationLock(other);
            started = CompletableFuture.runAsync(() -> start(changeLog, skipUnchanged));
            await().atMost(BOUND).until(() -> waitingForAdvisoryLocks() == 1 || started.isDone());
            assertThat(started).as("the start waits for the migration lock").isNotDone();
        }
        // the other session is closed: its lock goes with it
        started.get(BOUND.toSeconds(), TimeUnit.SECONDS);
    }

    private void start(String changeLog, boolean skipUnchanged) {
        SerializedLiquibase liquibase = new SerializedLiquibase(new DatabaseStartup(StartupProperties.DEFAULTS),
                skipUnchanged);
        liquibase.setDataSource(database.dataSource());
        liquibase.setResourceLoader(new DefaultResourceLoader());
        liquibase.setChangeLog(changeLog);
        liquibase.afterPropertiesSet();
    }

    private static void holdMigrationLock(Connection connection) throws SQLException {
        try (PreparedStatement lock = connection.prepareStatement("SELECT pg_advisory_lock(?)")) {
            lock.setLong(1, SerializedLiquibase.LOCK_KEY);
            lock.execute();
        }
    }

    private long waitingForAdvisoryLocks() throws SQLException {
        return Long.parseLong(query("""
                SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted
                AND database = (SELECT oid FROM pg_database WHERE datname = current_database())"""));
    }

    private String recorded(String column) throws SQLException {
        return query("SELECT " + column + " FROM onebeat_applied_changelog");
    }

    private String query(String sql) throws SQLException {
        try (Connection connection = database.connect(); Statement statement = connection.createStatement();
             ResultSet row = statement.executeQuery(sql)) {
            return row.next() ? row.getString(1) : null;
        }
    }

    private void execute(String sql) throws SQLException {
        try (Connection connection = database.connect(); Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }
}
