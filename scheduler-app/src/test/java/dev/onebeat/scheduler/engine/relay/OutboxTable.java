package dev.onebeat.scheduler.engine.relay;

import com.zaxxer.hikari.HikariDataSource;
import dev.onebeat.testsupport.TestDatabase;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import liquibase.integration.spring.SpringLiquibase;
import org.springframework.core.io.DefaultResourceLoader;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The outbox table of a test database, migrated with the application's changelog, for tests that
 * write rows directly and run relays on them without a Spring context.
 */
final class OutboxTable implements AutoCloseable {

    /** The scheduled time of every row these tests write. */
    private static final Instant SCHEDULED_AT = Instant.parse("2026-11-29T08:00:00Z");
    /** The task name of every row these tests write. */
    private static final String TASK = "relay.test";

    private final HikariDataSource pool;
    private final JdbcTemplate jdbc;

    private OutboxTable(HikariDataSource pool) {
        this.pool = pool;
        this.jdbc = new JdbcTemplate(pool);
    }

    /** Applies {@code db/onebeat/changelog-master.xml} to the database, as the application does at start-up. */
    static OutboxTable migrated(TestDatabase database) {
        HikariDataSource pool = pool(database, "onebeat-test");
        SpringLiquibase liquibase = new SpringLiquibase();
        liquibase.setDataSource(pool);
        liquibase.setChangeLog("classpath:db/onebeat/changelog-master.xml");
        liquibase.setResourceLoader(new DefaultResourceLoader());
        try {
            liquibase.afterPropertiesSet();
        } catch (Exception e) {
            pool.close();
            throw new IllegalStateException("could not migrate " + database, e);
        }
        return new OutboxTable(pool);
    }

    /** @return a pool of its own, as each replica has: relays under test must not share connections */
    static HikariDataSource pool(TestDatabase database, String name) {
        HikariDataSource pool = new HikariDataSource();
        pool.setJdbcUrl(database.jdbcUrl());
        pool.setUsername(database.username());
        pool.setPassword(database.password());
        pool.setMaximumPoolSize(4);
        pool.setPoolName(name);
        return pool;
    }

    /**
     * Writes {@code count} pending rows of job {@code job} to {@code queue}, one per entity
     * {@code row:1} to {@code row:count}, as a fire would.
     *
     * @return their idempotency keys
     */
    List<String> insert(String job, String queue, int count) {
        return insert(job, queue, 1, count);
    }

    /** Writes pending rows for entities {@code row:from} to {@code row:to}; see {@link #insert(String, String, int)}. */
    List<String> insert(String job, String queue, int from, int to) {
        return insert(job, queue, from, to, Duration.ZERO);
    }

    /**
     * Writes {@code count} pending rows that fall due {@code dueIn} after their commit, by the database's clock.
     *
     * @see #insert(String, String, int)
     */
    List<String> insertDueIn(String job, String queue, int count, Duration dueIn) {
        return insert(job, queue, 1, count, dueIn);
    }

    private List<String> insert(String job, String queue, int from, int to, Duration dueIn) {
        // the key has the form IdempotencyKey.of gives: job/scheduled-at/task/entity
        return jdbc.queryForList("""
                INSERT INTO onebeat_task (idempotency_key, job_name, scheduled_at, task, queue, entity_type, entity_id, payload,
                                          available_at)
                SELECT ? || '/' || ? || '/' || ? || '/row:' || i, ?, ?::timestamptz, ?, ?, 'row', i::text,
                       jsonb_build_object('args', jsonb_build_array(i), 'kwargs', '{}'::jsonb),
                       now() + ? * interval '1 millisecond'
                FROM generate_series(?, ?) AS i
                RETURNING idempotency_key
                """, String.class, job, SCHEDULED_AT.toString(), TASK, job, SCHEDULED_AT.toString(), TASK, queue,
                dueIn.toMillis(), from, to);
    }

    /** @return row counts by status for the queue */
    Map<String, Integer> statuses(String queue) {
        Map<String, Integer> counts = new LinkedHashMap<>();
        jdbc.query("SELECT status, count(*) FROM onebeat_task WHERE queue = ? GROUP BY status ORDER BY status",
                rs -> {
                    counts.put(rs.getString(1), rs.getInt(2));
                }, queue);
        return counts;
    }

    /**
     * The keys of the queue's rows a transaction still open holds locked, as a relay's claim does while it publishes:
     * the row's {@code xmax} is that transaction's id. Takes no lock itself, so a relay claiming meanwhile is not
     * kept from any row.
     */
    List<String> lockedKeys(String queue) {
        return jdbc.queryForList("""
                SELECT idempotency_key FROM onebeat_task
                WHERE queue = ? AND xmax::text IN (SELECT backend_xid::text FROM pg_stat_activity
                                                   WHERE backend_xid IS NOT NULL AND pid <> pg_backend_pid())
                ORDER BY id""", String.class, queue);
    }

    JdbcTemplate jdbc() {
        return jdbc;
    }

    @Override
    public void close() {
        pool.close();
    }
}
