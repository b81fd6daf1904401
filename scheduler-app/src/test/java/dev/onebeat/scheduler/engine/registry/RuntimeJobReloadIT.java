package dev.onebeat.scheduler.engine.registry;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onebeat.job.Jobs;
import dev.onebeat.job.Schedule;
import dev.onebeat.scheduler.SchedulerTestDatabase;
import dev.onebeat.scheduler.SharedSchedulerIT;
import dev.onebeat.scheduler.engine.registry.JobsProperties.Definition;
import dev.onebeat.scheduler.engine.registry.RuntimeJobStore.Kind;
import dev.onebeat.scheduler.engine.registry.RuntimeJobStore.Reload;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.databind.json.JsonMapper;

/**
 * A replica's reload of the runtime jobs reads only what changed since its last load (migration 031), and always ends
 * where a whole load of the same rows ends: each test changes rows as the admin API, another replica or an operator's
 * SQL would, reloads a store that has been loading all along, and compares its registry with a fresh store's whole
 * load.
 */
@SharedSchedulerIT(properties = {SchedulerTestDatabase.NO_DEMO, SchedulerTestDatabase.QUARTZ_STOPPED})
class RuntimeJobReloadIT {

    /** A job defined in code, which a stored override reschedules. */
    private static final String CODED = "reload-coded";
    private static final String INSERT = """
            INSERT INTO onebeat_runtime_job (name, kind, definition, updated_by) VALUES (?, 'job', ?::jsonb, 'test')""";

    @Autowired
    JdbcClient jdbc;
    @Autowired
    JsonMapper json;
    @Autowired
    DataSource dataSource;
    @Autowired
    TransactionTemplate transactions;

    private final String prefix = "reload-" + UUID.randomUUID().toString().substring(0, 8) + "-";
    /** The replica that has been loading all along. */
    private Replica store;

    /** A replica's store, and the registry it lays the stored jobs over. */
    private record Replica(RuntimeJobStore jobs, JobRegistry registry) {

        Reload reload() {
            return jobs.reload();
        }
    }

    @BeforeEach
    void loadedReplica() {
        store = newStore();
        assertThat(store.reload()).as("a replica's first load").isEqualTo(Reload.ALL);
    }

    @AfterEach
    void cleanUp() {
        jdbc.sql("DELETE FROM onebeat_runtime_job WHERE name LIKE ? OR name = ?").params(prefix + "%", CODED).update();
    }

    @Test
    void creationsChangesDeletionsAndRecreationsAreReadAsChangesAndEndAsAWholeLoadWould() throws SQLException {
        save(Kind.JOB, job("a", "60s"));
        save(Kind.JOB, job("b", "60s"));
        save(Kind.JOB, job("c", "60s"));
        save(Kind.OVERRIDE, override("120s"));
        assertReloadedAsChanges(4);

        save(Kind.JOB, job("b", "90s"));
        jdbc.sql("DELETE FROM onebeat_runtime_job WHERE name = ?").param(prefix + "c").update();
        assertReloadedAsChanges(3);
        assertThat(store.reload()).as("nothing changed since").isEqualTo(Reload.NOTHING_CHANGED);

        // deleted and created again, with another schedule, in one transaction
        try (Connection connection = dataSource.getConnection()) {
            connection.setAutoCommit(false);
            try (PreparedStatement delete = connection.prepareStatement("DELETE FROM onebeat_runtime_job WHERE name = ?");
                 PreparedStatement insert = connection.prepareStatement(INSERT)) {
                delete.setString(1, prefix + "a");
                delete.executeUpdate();
                insert.setString(1, prefix + "a");
                insert.setString(2, json.writeValueAsString(job("a", "45s")));
                insert.executeUpdate();
            }
            connection.commit();
        }
        // renamed by hand, and a runtime job made into an override of a job nobody defines, which no longer builds
        jdbc.sql("UPDATE onebeat_runtime_job SET name = ?, definition = jsonb_set(definition, '{name}', to_jsonb(?::text))"
                + " WHERE name = ?").params(prefix + "d", prefix + "d", prefix + "b").update();
        jdbc.sql("UPDATE onebeat_runtime_job SET kind = 'override' WHERE name = ?").param(prefix + "d").update();
        // the override deleted: the coded job gets its own schedule back
        jdbc.sql("DELETE FROM onebeat_runtime_job WHERE name = ?").param(CODED).update();
        assertReloadedAsChanges(2);
        assertThat(view(store)).containsOnlyKeys(prefix + "a", CODED);
        assertThat(view(store).get(CODED)).startsWith("defined in the test|");
    }

    @Test
    void aChangeItsTransactionCommitsAfterALoadIsReadByTheNextLoad() throws Exception {
        // the transaction writes (and takes its id) before the load, another commits meanwhile so the load happens,
        // and it commits after the load: its id lies below ids the load saw, above the oldest it could not
        try (Connection late = dataSource.getConnection()) {
            late.setAutoCommit(false);
            try (PreparedStatement insert = late.prepareStatement(INSERT)) {
                insert.setString(1, prefix + "late");
                insert.setString(2, json.writeValueAsString(job("late", "60s")));
                insert.executeUpdate();
            }
            save(Kind.JOB, job("early", "60s"));
            assertThat(store.reload()).isEqualTo(Reload.CHANGES);
            assertThat(view(store)).containsOnlyKeys(prefix + "early", CODED);
            late.commit();
        }
        assertReloadedAsChanges(3);
        assertThat(view(store)).containsOnlyKeys(prefix + "early", prefix + "late", CODED);
    }

    @Test
    void aReloadInsideATransactionReadsNothingSoARolledBackWriteNeverReachesTheRegistry() {
        // another writer commits meanwhile, so that the version has moved when the reload is asked for
        save(Kind.JOB, job("committed", "60s"));
        transactions.executeWithoutResult(status -> {
            jdbc.sql(INSERT).params(prefix + "rolled-back", json.writeValueAsString(job("rolled-back", "60s")))
                    .update();
            assertThat(store.reload()).isEqualTo(Reload.IN_TRANSACTION);
            status.setRollbackOnly();
        });

        assertReloadedAsChanges(2);
        assertThat(view(store)).containsOnlyKeys(prefix + "committed", CODED);
    }

    @Test
    void aRowInsertedWithAStaleTransactionIdIsStampedWithItsOwn() {
        // an operator's INSERT … SELECT from a copy of the table carries the copy's ids
        jdbc.sql("""
                        INSERT INTO onebeat_runtime_job (name, kind, definition, updated_by, changed_txid)
                        VALUES (?, 'job', ?::jsonb, 'test', 1)""")
                .params(prefix + "copied", json.writeValueAsString(job("copied", "60s"))).update();

        assertReloadedAsChanges(2);
        assertThat(view(store)).containsKey(prefix + "copied");
    }

    @Test
    void aTruncatedTableIsLoadedWhole() {
        save(Kind.JOB, job("kept", "60s"));
        assertReloadedAsChanges(2);
        // the trigger's mark, tried on the real table and rolled back (other classes share this database)
        assertThat(truncationMarks()).as("the truncate trigger writes a null name").isEqualTo(1);
        jdbc.sql("INSERT INTO onebeat_runtime_job_removed (name) VALUES (NULL)").update();
        try {
            save(Kind.JOB, job("after", "60s"));

            assertThat(store.reload()).isEqualTo(Reload.ALL);
            assertThat(view(store)).isEqualTo(view(wholeLoad()));
        } finally {
            jdbc.sql("DELETE FROM onebeat_runtime_job_removed WHERE name IS NULL").update();
        }
    }

    @Test
    void aReplicaWhoseUnreadDeletionsWerePrunedLoadsWhole() {
        save(Kind.JOB, job("pruned", "60s"));
        assertReloadedAsChanges(2);
        jdbc.sql("DELETE FROM onebeat_runtime_job WHERE name = ?").param(prefix + "pruned").update();
        // older than the names are kept: another replica's first load prunes it before this one reads it
        jdbc.sql("UPDATE onebeat_runtime_job_removed SET removed_at = now() - make_interval(secs => ?) WHERE name = ?")
                .params(RuntimeJobStore.KEEP_REMOVED.plusMinutes(1).toSeconds(), prefix + "pruned").update();
        assertThat(newStore().reload()).isEqualTo(Reload.ALL);
        assertThat(jdbc.sql("SELECT count(*) FROM onebeat_runtime_job_removed WHERE name = ?").param(prefix + "pruned")
                .query(Integer.class).single()).as("pruned").isZero();

        assertThat(store.reload()).isEqualTo(Reload.ALL);
        assertThat(view(store)).isEqualTo(view(wholeLoad())).doesNotContainKey(prefix + "pruned");
    }

    private int truncationMarks() {
        try (Connection connection = dataSource.getConnection()) {
            connection.setAutoCommit(false);
            try (Statement statement = connection.createStatement()) {
                statement.execute("SET LOCAL lock_timeout = '10s'");
                statement.execute("TRUNCATE onebeat_runtime_job");
                try (ResultSet rows = statement.executeQuery(
                        "SELECT count(*) FROM onebeat_runtime_job_removed WHERE name IS NULL")) {
                    rows.next();
                    return rows.getInt(1);
                }
            } finally {
                connection.rollback();
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** @param jobs how many of this test's jobs and the coded one the registry then holds */
    private void assertReloadedAsChanges(int jobs) {
        assertThat(store.reload()).isEqualTo(Reload.CHANGES);
        assertThat(view(store)).hasSize(jobs).isEqualTo(view(wholeLoad()));
    }

    private Replica wholeLoad() {
        Replica whole = newStore();
        assertThat(whole.reload()).isEqualTo(Reload.ALL);
        return whole;
    }

    /** A store over a registry of its own, which defines {@link #CODED}. */
    private Replica newStore() {
        JobRegistry registry = JobRegistry.of(List.of(new RegisteredJob(Jobs.periodic(CODED,
                Schedule.every(Duration.ofMinutes(1))).execute(context -> { }), "defined in the test")));
        return new Replica(new RuntimeJobStore(jdbc, json, registry), registry);
    }

    /** @return this test's jobs and the coded one, by name: where each comes from and its schedule */
    private Map<String, String> view(Replica of) {
        Map<String, String> view = new TreeMap<>();
        of.registry().all().stream().filter(job -> job.name().startsWith(prefix) || job.name().equals(CODED))
                .forEach(job -> view.put(job.name(), job.origin() + "|" + job.job().schedule().describe()));
        return view;
    }

    private Definition job(String name, String every) {
        return Definition.builder(prefix + name).every(every).task("reload.task").build();
    }

    private static Definition override(String every) {
        return Definition.builder(CODED).every(every).build();
    }

    private void save(Kind kind, Definition definition) {
        newStore().jobs().save(kind, definition, "test");
    }
}
