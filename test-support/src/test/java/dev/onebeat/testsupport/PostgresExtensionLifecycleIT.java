package dev.onebeat.testsupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestInstance.Lifecycle;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.platform.engine.DiscoverySelector;
import org.junit.platform.engine.discovery.DiscoverySelectors;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Events;

/**
 * Runs sample classes through the JUnit engine, so that what the extension leaves behind after a
 * class can be checked. The samples are static nested classes, which failsafe does not pick up on
 * its own.
 */
class PostgresExtensionLifecycleIT {

    /** What each sample saw, by a label the sample chooses. */
    private static final Map<String, Seen> SEEN = new ConcurrentHashMap<>();

    @BeforeEach
    void forgetEarlierRuns() {
        SEEN.clear();
    }

    @Test
    void eachClassGetsADatabaseOfItsOwnThatStartsEmpty() {
        run(FirstSample.class, SecondSample.class).assertStatistics(stats -> stats.succeeded(2).failed(0));

        assertThat(SEEN.get("first").database().name()).isNotEqualTo(SEEN.get("second").database().name());
        assertThat(List.of(SEEN.get("first").relationsAtStart(), SEEN.get("second").relationsAtStart()))
                .containsOnly(0L);
    }

    @Test
    void databaseIsDroppedAfterTheClassEvenWhileAConnectionIsOpen() throws SQLException {
        run(LeakingSample.class).assertStatistics(stats -> stats.succeeded(1).failed(0));

        TestDatabase database = SEEN.get("leaking").database();
        try (Connection leaked = LeakingSample.leaked) {
            assertThat(Catalog.exists(PostgresServers.shared(), database.name())).isFalse();
            assertThat(leaked.isValid(5)).as("connection ended by DROP ... WITH (FORCE)").isFalse();
        }
    }

    @Test
    void databaseIsNoLongerRegisteredAfterTheClass() {
        run(FirstSample.class).assertStatistics(stats -> stats.succeeded(1).failed(0));

        assertThatIllegalStateException().isThrownBy(() -> PostgresExtension.database(FirstSample.class));
    }

    @Test
    void nestedClassesShareTheEnclosingDatabaseWithoutDroppingIt() throws SQLException {
        run(SampleWithNestedClasses.class).assertStatistics(stats -> stats.succeeded(3).failed(0));

        TestDatabase outer = SEEN.get("outer").database();
        assertThat(SEEN.get("nested-1").database()).isEqualTo(outer);
        assertThat(SEEN.get("nested-2").database()).isEqualTo(outer);
        assertThat(Catalog.exists(PostgresServers.shared(), outer.name())).isFalse();
    }

    @Test
    void perClassInstanceGetsTheDatabaseInItsConstructor() throws SQLException {
        run(PerClassSample.class).assertStatistics(stats -> stats.succeeded(1).failed(0));

        assertThat(SEEN.get("constructor").database()).isEqualTo(SEEN.get("per-class").database());
        assertThat(Catalog.exists(PostgresServers.shared(), SEEN.get("per-class").database().name())).isFalse();
    }

    @Test
    void askingForTheDatabaseOfAClassWithoutTheExtensionFailsWithAHint() {
        assertThatIllegalStateException()
                .isThrownBy(() -> PostgresExtension.database(PostgresExtensionLifecycleIT.class))
                .withMessageContaining(PostgresExtensionLifecycleIT.class.getName())
                .withMessageContaining("@ExtendWith(PostgresExtension.class)");
    }

    private static Events run(Class<?>... sampleClasses) {
        return EngineTestKit.engine("junit-jupiter")
                .selectors(Arrays.stream(sampleClasses).map(DiscoverySelectors::selectClass).toArray(DiscoverySelector[]::new))
                .execute()
                .testEvents();
    }

    private static void see(String label, TestDatabase database) throws SQLException {
        try (Connection connection = database.connect()) {
            assertThat(Catalog.currentDatabase(connection)).isEqualTo(database.name());
            SEEN.put(label, new Seen(database, Catalog.userRelations(connection)));
            try (Statement statement = connection.createStatement()) {
                statement.execute("CREATE TABLE left_behind (id int)");
            }
        }
    }

    record Seen(TestDatabase database, long relationsAtStart) {
    }

    @ExtendWith(PostgresExtension.class)
    static class FirstSample {

        @Test
        void seeDatabase(TestDatabase database) throws SQLException {
            see("first", database);
        }
    }

    @ExtendWith(PostgresExtension.class)
    static class SecondSample {

        @Test
        void seeDatabase(TestDatabase database) throws SQLException {
            see("second", database);
        }
    }

    @ExtendWith(PostgresExtension.class)
    static class LeakingSample {

        static Connection leaked;

        @Test
        void leaveAConnectionOpen(TestDatabase database) throws SQLException {
            SEEN.put("leaking", new Seen(database, 0));
            leaked = database.connect();
        }
    }

    @ExtendWith(PostgresExtension.class)
    static class SampleWithNestedClasses {

        @Test
        void seeDatabase(TestDatabase database) {
            SEEN.put("outer", new Seen(database, 0));
        }

        @Nested
        class FirstNested {

            @Test
            void seeDatabase(TestDatabase database) throws SQLException {
                assertThat(PostgresExtension.database(FirstNested.class)).isEqualTo(database);
                connectAndRemember("nested-1", database);
            }
        }

        @Nested
        class SecondNested {

            @Test
            void seeDatabase(TestDatabase database) throws SQLException {
                assertThat(PostgresExtension.database(SecondNested.class)).isEqualTo(database);
                connectAndRemember("nested-2", database);
            }
        }

        // connecting proves that whichever nested class ran first did not drop the database
        private static void connectAndRemember(String label, TestDatabase database) throws SQLException {
            try (Connection connection = database.connect()) {
                assertThat(Catalog.currentDatabase(connection)).isEqualTo(database.name());
            }
            SEEN.put(label, new Seen(database, 0));
        }
    }

    @ExtendWith(PostgresExtension.class)
    @TestInstance(Lifecycle.PER_CLASS)
    static class PerClassSample {

        PerClassSample(TestDatabase database) {
            SEEN.put("constructor", new Seen(database, 0));
        }

        @Test
        void seeDatabase(TestDatabase database) throws SQLException {
            see("per-class", database);
        }
    }
}
