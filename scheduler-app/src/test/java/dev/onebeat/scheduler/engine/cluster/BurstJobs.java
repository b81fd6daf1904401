package dev.onebeat.scheduler.engine.cluster;

import dev.onebeat.job.IdempotencyKey;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import javax.sql.DataSource;
import liquibase.exception.LiquibaseException;
import liquibase.integration.spring.SpringLiquibase;
import org.springframework.core.io.DefaultResourceLoader;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * Many runtime jobs due on the same instants, stored before any replica starts (as the admin API
 * would have stored them), and what the ledger and the outbox hold for them.
 */
final class BurstJobs {

    static final String TASK = "burst.tick";

    private final DataSource dataSource;
    private final JdbcClient jdbc;
    private final int count;

    BurstJobs(DataSource dataSource, int count) {
        this.dataSource = dataSource;
        this.jdbc = JdbcClient.create(dataSource);
        this.count = count;
    }

    static String name(int index) {
        return String.format(Locale.ROOT, "burst-%05d", index);
    }

    /** Creates onebeat's tables, then the jobs, each firing {@code every}, aligned to the epoch. */
    void store(String every) throws LiquibaseException {
        store(every, "");
    }

    /**
     * As {@link #store(String)}, each definition with more fields.
     *
     * @param fields JSON members added to each definition, such as {@code ,"misfire":"FIRE_ALL_MISSED"}; empty for none
     */
    void store(String every, String fields) throws LiquibaseException {
        SpringLiquibase liquibase = new SpringLiquibase();
        liquibase.setDataSource(dataSource);
        liquibase.setChangeLog("classpath:db/onebeat/changelog-master.xml");
        liquibase.setResourceLoader(new DefaultResourceLoader());
        liquibase.afterPropertiesSet();
        List<String> names = new ArrayList<>(count);
        List<String> definitions = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            names.add(name(i));
            definitions.add(String.format(Locale.ROOT,
                    "{\"name\":\"%s\",\"every\":\"%s\",\"task\":\"%s\",\"queue\":\"burst\",\"args\":[%d]%s}",
                    name(i), every, TASK, i, fields));
        }
        jdbc.sql("""
                        INSERT INTO onebeat_runtime_job (name, kind, definition, updated_by)
                        SELECT name, 'job', definition::jsonb, 'test' FROM unnest(?::text[], ?::text[]) AS t(name, definition)
                        """)
                .params(names.toArray(String[]::new), definitions.toArray(String[]::new))
                .update();
    }

    /** @return per scheduled instant after {@code after}, how many of the jobs fired it */
    NavigableMap<Instant, Long> firesPerInstant(Instant after) {
        NavigableMap<Instant, Long> perInstant = new TreeMap<>();
        jdbc.sql("""
                        SELECT scheduled_at, count(*) FROM onebeat_fire
                        WHERE job_name LIKE 'burst-%' AND scheduled_at > ? GROUP BY scheduled_at
                        """)
                .param(Timestamp.from(after))
                .query((rs, row) -> perInstant.put(rs.getTimestamp(1).toInstant(), rs.getLong(2)))
                .list();
        return perInstant;
    }

    /** @return the instants after {@code after} that every job has fired, oldest first */
    List<Instant> completeInstants(Instant after) {
        return firesPerInstant(after).entrySet().stream().filter(entry -> entry.getValue() == count)
                .map(Map.Entry::getKey).toList();
    }

    /** @return how the fires of an instant were recorded: count per (node, trigger kind) */
    Map<String, Long> firesByNodeAndTrigger(Instant scheduledAt) {
        Map<String, Long> counts = new TreeMap<>();
        jdbc.sql("""
                        SELECT node || ' ' || trigger_kind, count(*) FROM onebeat_fire
                        WHERE job_name LIKE 'burst-%' AND scheduled_at = ? GROUP BY 1
                        """)
                .param(Timestamp.from(scheduledAt))
                .query((rs, row) -> counts.put(rs.getString(1), rs.getLong(2)))
                .list();
        return counts;
    }

    /** @return the jobs with no committed fire of {@code scheduledAt} */
    List<String> missing(Instant scheduledAt) {
        return jdbc.sql("""
                        SELECT j.name FROM onebeat_runtime_job j
                        WHERE j.name LIKE 'burst-%' AND NOT EXISTS
                              (SELECT 1 FROM onebeat_fire f WHERE f.job_name = j.name AND f.scheduled_at = ?)
                        ORDER BY j.name
                        """)
                .param(Timestamp.from(scheduledAt)).query(String.class).list();
    }

    /**
     * @return the tasks of the instant whose key is not the one its job, the instant and the task make,
     *         or that are not exactly one per job
     */
    List<String> wrongTasks(Instant scheduledAt) {
        List<String> wrong = new ArrayList<>();
        Map<String, String> keys = new TreeMap<>();
        jdbc.sql("SELECT job_name, idempotency_key FROM onebeat_task WHERE job_name LIKE 'burst-%' AND scheduled_at = ?")
                .param(Timestamp.from(scheduledAt))
                .query((rs, row) -> {
                    if (keys.put(rs.getString(1), rs.getString(2)) != null) {
                        wrong.add("second task of " + rs.getString(1));
                    }
                    return null;
                })
                .list();
        for (int i = 0; i < count; i++) {
            String expected = IdempotencyKey.of(name(i), scheduledAt, TASK, null).value();
            if (!expected.equals(keys.get(name(i)))) {
                wrong.add(name(i) + ": " + keys.get(name(i)) + " instead of " + expected);
            }
        }
        return wrong;
    }

    /** @return the replica holding the schedule's trigger in the middle of a fire, or null */
    String nodeFiringTheSchedule() {
        List<String> nodes = jdbc.sql("""
                        SELECT f.instance_name FROM qrtz_fired_triggers f
                        JOIN onebeat_job j ON j.schedule_key = f.trigger_name
                        WHERE j.name = ? AND f.state = 'EXECUTING'
                        """)
                .param(name(0)).query(String.class).list();
        return nodes.isEmpty() ? null : nodes.get(0);
    }
}
