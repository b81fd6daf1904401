package dev.onebeat.scheduler.boot.migration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

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
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.BeforeEach;
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

    /** Each test from an empty database: one database for the class, emptied before each. */
    @BeforeEach
    void empty() throws SQLException {
        execute("DROP SCHEMA public CASCADE; CREATE SCHEMA public");
    }

    @Test
    void aStartMigratesAndRecordsTheChangelogAndTheNextStartsWhileAnotherHoldsTheMigrationLock() throws Exception {
        assertThat(query("SELECT to_regclass('onebeat_applied_changelog')::text")).as("empty before").isNull();

        start(CHANGELOG, true);

        assertThat(recorded("changelog")).isEqualTo(CHANGELOG);
        assertThat(recorded("changelog_digest"))
                .isEqualTo(ChangelogDigest.of(new DefaultResourceLoader(), CHANGELOG).orElseThrow());
        startWithoutTheLock(CHANGELOG);
    }

    @Test
    void aChangesetChangedInDatabasechangelogRunsLiquibaseUnderTheLock() throws Exception {
        start(CHANGELOG, true);
        execute("UPDATE databasechangelog SET md5sum = NULL WHERE id = '023-applied-changelog'");

        startWaitingForTheLock(CHANGELOG, true);

        // Liquibase computed the checksum it found missing, and the record is of the table as Liquibase left it
        assertThat(query("SELECT md5sum FROM databasechangelog WHERE id = '023-applied-changelog'")).isNotNull();
        startWithoutTheLock(CHANGELOG);
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
        startWithoutTheLock(CHANGELOG);
    }

    @Test
    void withTheSkipOffLiquibaseRunsAtEveryStartAndStillRecordsForTheReplicasThatSkip() throws Exception {
        start(CHANGELOG, true);
        execute("UPDATE onebeat_applied_changelog SET applied_by = 'earlier'");

        startWaitingForTheLock(CHANGELOG, false);

        assertThat(recorded("applied_by")).isNotEqualTo("earlier");
    }

    @Test
    void aStartWhoseLiquibaseDoesNotRunRecordsNothing() throws Exception {
        start(CHANGELOG, true);
        execute("UPDATE databasechangelog SET md5sum = NULL WHERE id = '023-applied-changelog'");
        String recorded = recorded("changesets_digest");

        SerializedLiquibase liquibase = liquibase(CHANGELOG, true);
        liquibase.setShouldRun(false);
        liquibase.afterPropertiesSet();

        assertThat(query("SELECT md5sum FROM databasechangelog WHERE id = '023-applied-changelog'"))
                .as("Liquibase did not run").isNull();
        assertThat(recorded("changesets_digest")).as("the record still of the earlier table").isEqualTo(recorded);
        startWaitingForTheLock(CHANGELOG, true);
    }

    @Test
    void aChangelogWithoutADigestRunsLiquibaseAtEveryStart() throws Exception {
        String outsideTheClassPath = Path.of("target/test-classes/db/digest/plus-one.xml").toUri().toString();
        start(outsideTheClassPath, true);
        assertThat(query("SELECT to_regclass('digest_one')::text")).isEqualTo("digest_one");

        startWaitingForTheLock(outsideTheClassPath, true);
    }

    /** Starts while another session holds the migration lock, and sees the start end without it. */
    private void startWithoutTheLock(String changeLog) throws Exception {
        whileAnotherHoldsTheLock(changeLog, true, started -> {
            await().atMost(BOUND).until(() -> started.isDone() || waitingForAdvisoryLocks() > 0);
            assertThat(started).as("the start ends while another session holds the migration lock").isDone();
        });
    }

    /** Starts while another session holds the migration lock, sees the start wait for it, and lets it go. */
    private void startWaitingForTheLock(String changeLog, boolean skipUnchanged) throws Exception {
        whileAnotherHoldsTheLock(changeLog, skipUnchanged, started -> {
            await().atMost(BOUND).until(() -> waitingForAdvisoryLocks() > 0 || started.isDone());
            assertThat(started).as("the start waits for the migration lock").isNotDone();
        });
    }

    /**
     * Starts while another session holds the migration lock and checks the start; then lets the lock go and waits for
     * the start to end, whatever the check found, so that no start goes on into a later test.
     */
    private void whileAnotherHoldsTheLock(String changeLog, boolean skipUnchanged,
                                          Consumer<CompletableFuture<Void>> check) throws Exception {
        CompletableFuture<Void> started = null;
        try {
            try (Connection other = database.connect()) {
                holdMigrationLock(other);
                started = CompletableFuture.runAsync(() -> start(changeLog, skipUnchanged));
                check.accept(started);
            }
        } finally {
            if (started != null) {
                // the other session is closed: its lock went with it
                started.get(BOUND.toSeconds(), TimeUnit.SECONDS);
            }
        }
    }

    private void start(String changeLog, boolean skipUnchanged) {
        liquibase(changeLog, skipUnchanged).afterPropertiesSet();
    }

    private SerializedLiquibase liquibase(String changeLog, boolean skipUnchanged) {
        SerializedLiquibase liquibase = new SerializedLiquibase(new DatabaseStartup(StartupProperties.DEFAULTS),
                skipUnchanged);
        liquibase.setDataSource(database.dataSource());
        liquibase.setResourceLoader(new DefaultResourceLoader());
        liquibase.setChangeLog(changeLog);
        return liquibase;
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
