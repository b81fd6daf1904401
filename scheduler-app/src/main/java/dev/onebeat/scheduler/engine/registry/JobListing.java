package dev.onebeat.scheduler.engine.registry;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * The job catalog's pages for the API and the console: each job with its schedule's trigger's next fire time, its
 * last ledger row and, for a runtime job applied from a file, whether it drifted, read together in one statement
 * whatever the number of jobs. With {@link JobCatalog} (the catalog's
 * other statements) the owner of {@code onebeat_job}.
 */
@Component
public class JobListing {

    // the page's names first (from the name index alone where no namespace is asked for, or from a search's matches
    // read first), then the catalog, the schedule's trigger and the ledger's last row of those names only: an OFFSET
    // skips names, not joined rows
    private static final String PAGE = """
            %s
            SELECT j.name, j.schedule, j.paused, j.orphaned, t.next_fire_time,
                   (SELECT f.scheduled_at FROM onebeat_fire f WHERE f.job_name = j.name
                    ORDER BY f.scheduled_at DESC LIMIT 1) AS last_fire, j.pause_reason, j.paused_until, j.namespace,
                   r.applied_from, r.applied IS NOT NULL AND r.applied <> r.definition AS drifted
            FROM (SELECT name FROM %s ORDER BY name LIMIT :limit OFFSET :offset) p
            JOIN onebeat_job j ON j.name = p.name
            LEFT JOIN onebeat_runtime_job r ON r.name = j.name AND r.kind = 'job'
            LEFT JOIN qrtz_triggers t ON t.sched_name = :scheduler AND t.trigger_group = :group
                                     AND t.trigger_name = j.schedule_key
            ORDER BY j.name
            """;

    // A search's matching names, all of them, before they are sorted: read through the trigram index, whatever the
    // LIMIT. Given the LIMIT, the planner walks the name index in order instead, filtering each name, expecting the
    // matches spread evenly; names that share a prefix sit together, so a search matching 1 % of a million names
    // walked 790,000 of them first (410-530 ms, against 45-65 ms this way).
    private static final String MATCHES = "WITH matching AS MATERIALIZED (SELECT name FROM onebeat_job WHERE %s)";
    /** The shortest search the trigram index serves: a shorter one holds no trigram, and scans the catalog. */
    private static final int TRIGRAM = 3;

    private final JdbcClient jdbc;
    /** Whether migration 026 could create the trigram index (it goes on without it); null until first asked. */
    private volatile Boolean trigramIndex;

    JobListing(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /**
     * A job of the catalog as a page shows it.
     *
     * @param schedule the schedule it fires on, as stored
     * @param nextFireTime its trigger's next fire time in epoch milliseconds, or null if it has none
     * @param lastFire the scheduled instant of its latest ledger row, or null
     * @param namespace the namespace it belongs to
     * @param appliedFrom the job file it was last applied from, null if none
     * @param drifted whether it was changed by hand since
     */
    public record Row(String name, String schedule, boolean paused, boolean orphaned, Long nextFireTime,
                      Instant lastFire, String pauseReason, Instant pausedUntil, String namespace, String appliedFrom,
                      boolean drifted) {
    }

    /**
     * @param namespaces the namespaces counted, null for all
     * @param limit counting stops there
     * @return the jobs whose name contains {@code search} (lower case), at most {@code limit}: an exact count of a
     *     million jobs took 100–150 ms on every page, most of a page's time
     */
    public long count(String search, Collection<String> namespaces, long limit) {
        return jdbc.sql(countStatement(search, namespaces)).params(parameters(search, null, namespaces))
                .param("limit", limit).query(Long.class).single();
    }

    /**
     * @return the statement counting the jobs of a search up to a limit (named parameters {@code pattern},
     *     {@code namespaces}, {@code limit})
     */
    static String countStatement(String search, Collection<String> namespaces) {
        return "SELECT count(*) FROM (SELECT 1 FROM onebeat_job WHERE " + filter(search, null, namespaces)
                + " LIMIT :limit) matching";
    }

    /**
     * The conditions of a listing, only those asked for: a statement per shape, so that a lookup by name is planned
     * as one whatever PostgreSQL's generic plans make of the others. A search is a {@code LIKE} on the lower-case
     * name, which the trigram index of migration 026 serves where {@code pg_trgm} could be created.
     */
    private static String filter(String search, String name, Collection<String> namespaces) {
        StringBuilder filter = new StringBuilder("true");
        if (!search.isEmpty()) {
            filter.append(" AND lower(name) LIKE :pattern ESCAPE '\\'");
        }
        if (name != null) {
            filter.append(" AND name = :name");
        }
        if (namespaces != null) {
            filter.append(" AND namespace = ANY(CAST(:namespaces AS varchar[]))");
        }
        return filter.toString();
    }

    private static Map<String, Object> parameters(String search, String name, Collection<String> namespaces) {
        Map<String, Object> parameters = new HashMap<>();
        if (!search.isEmpty()) {
            parameters.put("pattern", "%" + likeEscaped(search) + "%");
        }
        if (name != null) {
            parameters.put("name", name);
        }
        if (namespaces != null) {
            parameters.put("namespaces", array(namespaces));
        }
        return parameters;
    }

    /** @return {@code text} matched literally by {@code LIKE … ESCAPE '\'}: its wildcards and escape escaped */
    static String likeEscaped(String text) {
        return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_");
    }

    private static String[] array(Collection<String> namespaces) {
        return namespaces == null ? null : namespaces.toArray(String[]::new);
    }

    /**
     * @param scheduler the Quartz scheduler's name
     * @param group the group of the schedules' triggers
     * @param search part of the name, lower case; empty for all
     * @param name the one job to read, or null for all
     * @param namespaces the namespaces read, null for all
     * @param fewMatches whether the search is known to match few jobs (its {@link #count}, at most
     *     {@code JobDirectory.COUNT_CAP}): its matches are then read all by the trigram index and sorted, where the
     *     index serves the search, instead of walking the names in order until a page of them is found, which is
     *     faster when many names match (and when the index cannot help, as a second scan would cost more)
     * @return a page of jobs, by name
     */
    public List<Row> page(String scheduler, String group, String search, String name, Collection<String> namespaces,
                          boolean fewMatches, int limit, long offset) {
        boolean matchesFirst = fewMatches && search.length() >= TRIGRAM && trigramIndex();
        return jdbc.sql(pageStatement(search, name, namespaces, matchesFirst))
                .params(parameters(search, name, namespaces))
                .param("scheduler", scheduler)
                .param("group", group)
                .param("limit", limit)
                .param("offset", offset)
                .query(JobListing::row)
                .list();
    }

    /** @return whether the trigram index exists, asked once: an index added by hand later is used after a restart */
    private boolean trigramIndex() {
        Boolean exists = trigramIndex;
        if (exists == null) {
            exists = jdbc.sql("SELECT to_regclass('onebeat_job_name_trgm_idx') IS NOT NULL").query(Boolean.class)
                    .single();
            trigramIndex = exists;
        }
        return exists;
    }

    /**
     * @param matchesFirst whether a search's matches are read all before they are sorted (the trigram index's way)
     * @return the statement reading a page (named parameters {@code pattern}, {@code name}, {@code namespaces},
     *     {@code scheduler}, {@code group}, {@code limit}, {@code offset}, those its filter asks for)
     */
    static String pageStatement(String search, String name, Collection<String> namespaces, boolean matchesFirst) {
        String filter = filter(search, name, namespaces);
        return matchesFirst && !search.isEmpty() && name == null ? PAGE.formatted(MATCHES.formatted(filter), "matching")
                : PAGE.formatted("", "onebeat_job WHERE " + filter);
    }

    private static Row row(ResultSet rs, int row) throws SQLException {
        long next = rs.getLong(5);
        Long nextFireTime = rs.wasNull() ? null : next;
        Timestamp last = rs.getTimestamp(6);
        Timestamp until = rs.getTimestamp(8);
        return new Row(rs.getString(1), rs.getString(2), rs.getBoolean(3), rs.getBoolean(4), nextFireTime,
                last == null ? null : last.toInstant(), rs.getString(7), until == null ? null : until.toInstant(),
                rs.getString(9), rs.getString(10), rs.getBoolean(11));
    }
}
