package dev.onebeat.scheduler.engine.registry;

import dev.onebeat.job.MisfirePolicy;
import dev.onebeat.job.PeriodicJob;
import dev.onebeat.job.Schedule;
import dev.onebeat.scheduler.engine.outbox.TaskArgumentsProperties;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionSynchronizationManager;
import tools.jackson.databind.json.JsonMapper;

/**
 * Jobs and schedules stored through the admin API, {@code onebeat_runtime_job}: runtime jobs (kind
 * {@code job}, a declarative definition like an {@code onebeat.jobs[]} entry) and new schedules of jobs
 * defined in code or configuration (kind {@code override}). Definitions are validated exactly like
 * configuration. {@link #reload} lays the stored rows over the {@link JobRegistry}; every replica calls
 * it at start-up and then every few seconds ({@link RuntimeJobPoller}), so a change made on one replica
 * reaches the others' registries within the poll interval (their Quartz store is shared and changes at once).
 */
@Component
public class RuntimeJobStore {

    private static final Logger log = LoggerFactory.getLogger(RuntimeJobStore.class);
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._:-]{0,149}");

    private final JdbcClient jdbc;
    private final JsonMapper json;
    private final JobRegistry registry;
    private final long maxArgumentBytes;
    private final Clock clock;
    /** How long the names of deleted runtime jobs are kept for the replicas to read. */
    static final Duration KEEP_REMOVED = Duration.ofHours(1);
    private static final Duration PRUNE_EVERY = Duration.ofMinutes(10);

    private volatile long loaded = -1;
    private long missingVersion = -1;
    private boolean startedUp;
    /** The transaction id from which the next reload reads changes; negative before the first load. */
    private long loadedFrom = -1;
    private long lastPrune;

    /** @param registry the registry {@link #reload} lays the stored jobs over */
    public RuntimeJobStore(JdbcClient jdbc, JsonMapper json, JobRegistry registry) {
        this(jdbc, json, registry, TaskArgumentsProperties.DEFAULTS, Clock.systemUTC());
    }

    /**
     * @param registry the registry {@link #reload} lays the stored jobs over
     * @param arguments the bound on a job's arguments ({@code onebeat.fire.max-arguments-size})
     * @param clock the time a job's coming instants are read from, to check its jitter and spread
     */
    @Autowired
    public RuntimeJobStore(JdbcClient jdbc, JsonMapper json, JobRegistry registry, TaskArgumentsProperties arguments,
                           Clock clock) {
        this.clock = clock;
        this.maxArgumentBytes = arguments.maxBytes();
        this.jdbc = jdbc;
        this.json = json;
        this.registry = registry;
    }

    /** What a stored row is. */
    public enum Kind {
        /** a job created at run time */
        JOB,
        /** a new schedule for a job defined in code or configuration */
        OVERRIDE
    }

    /**
     * @param kind runtime job or schedule override
     * @param definition as stored; an override sets only cron or every, zone, gap, overlap and misfire
     */
    public record StoredJob(Kind kind, JobsProperties.Definition definition) {
    }

    /**
     * @return the runtime job {@code definition} describes
     * @throws JobDefinitionException naming the field at fault, as start-up would
     */
    public PeriodicJob runtimeJob(JobsProperties.Definition definition) {
        if (definition.name() != null && !NAME.matcher(definition.name()).matches()) {
            throw new JobDefinitionException("name: must be 1 to 150 letters, digits, '.', '_', ':' or '-', starting "
                    + "with a letter or digit, was '" + definition.name() + "'");
        }
        PeriodicJob job = DeclarativeJobs.toJob("", definition, maxArgumentBytes);
        JobValidation.validate(new RegisteredJob(job, ""), clock.instant());
        return job;
    }

    /**
     * @param original the job as defined in code or configuration
     * @param change its new {@code cron} or {@code every}, {@code zone}, {@code gap}, {@code overlap} (the
     *     schedule, replaced whole: an unset zone is UTC, an unset gap or overlap the default) and
     *     {@code misfire} (kept if unset)
     * @return the original job on the new schedule
     * @throws JobDefinitionException naming the field at fault, or a field that cannot be changed
     */
    public PeriodicJob rescheduled(PeriodicJob original, JobsProperties.Definition change) {
        if (change.task() != null || change.queue() != null || change.args() != null || change.kwargs() != null
                || change.lockAtMostFor() != null || change.jitter() != null || change.spread() != null) {
            throw new JobDefinitionException("task: job '" + original.name() + "' is defined in code or configuration;"
                    + " only its schedule (cron or every, zone, gap, overlap, misfire) can be changed here");
        }
        Schedule schedule = Schedules.parse("", change.cron(), change.every(), change.zone(), change.gap(),
                change.overlap());
        MisfirePolicy misfire = change.misfire() == null ? original.misfirePolicy()
                : DeclarativeJobs.misfire("", change.misfire());
        // its jitter and spread stay, and must fit the new schedule
        return JobValidation.validate(new RegisteredJob(new Rescheduled(original, schedule, misfire), ""),
                clock.instant()).job();
    }

    /**
     * Takes the cluster-wide change lock of one job until the caller's transaction ends, so changes to
     * it (the admin API on any replica, a replica's start-up sync) happen one after another. Take it
     * before any Quartz write of the transaction: nothing holding Quartz's lock waits for this one.
     */
    public void lock(String name) {
        jdbc.sql("SELECT pg_advisory_xact_lock(hashtextextended(?, 0))").param("onebeat.job:" + name)
                .query((rs, row) -> true).single();
    }

    /**
     * Takes the change locks of many jobs, in the order given (sort the names: two callers locking
     * overlapping sets in one order cannot deadlock), until the caller's transaction ends.
     */
    public void lockAll(List<String> names) {
        if (names.isEmpty()) {
            return;
        }
        jdbc.sql("""
                        SELECT count(pg_advisory_xact_lock(hashtextextended('onebeat.job:' || u.name, 0)))
                        FROM (SELECT name FROM unnest(?::text[]) WITH ORDINALITY AS n(name, position) ORDER BY position) u
                        """)
                .param(names.toArray(String[]::new))
                .query(Long.class).single();
    }

    /**
     * @return the jobs of those names as {@link #current(String)} gives each, read in one query; names of
     *         runtime jobs deleted since the last reload are absent
     */
    public Map<String, RegisteredJob> current(Collection<String> names) {
        Map<String, StoredJob> stored = new HashMap<>();
        jdbc.sql("SELECT kind, definition::text FROM onebeat_runtime_job WHERE name = ANY(?::text[])")
                .param(names.toArray(String[]::new))
                .query((rs, row) -> new StoredJob(kind(rs.getString(1)), definition(rs.getString(2))))
                .list()
                .forEach(job -> stored.put(job.definition().name(), job));
        Map<String, RegisteredJob> jobs = new LinkedHashMap<>();
        for (String name : names) {
            Optional<RegisteredJob> job = Optional.ofNullable(stored.get(name)).flatMap(this::build);
            if (job.isEmpty()) {
                job = registry.defined(name);
            }
            job.ifPresent(found -> jobs.put(name, found));
        }
        return jobs;
    }

    /**
     * @return the job of that name as the database and this replica's code and configuration define it
     *         now (read in the caller's transaction): the stored runtime job or schedule when there is one
     *         that builds, else the defined job; empty for a runtime job deleted since the last reload
     */
    public Optional<RegisteredJob> current(String name) {
        Optional<RegisteredJob> stored = find(name).flatMap(this::build);
        return stored.isPresent() ? stored : registry.defined(name);
    }

    /** @return the runtime jobs whose stored definition names the calendar, in name order */
    public List<String> namingCalendar(String calendar) {
        return jdbc.sql("""
                        SELECT name FROM onebeat_runtime_job
                        WHERE kind = 'job' AND (definition -> 'calendars' -> 'include' @> jsonb_build_array(?::text)
                                                OR definition -> 'calendars' -> 'exclude' @> jsonb_build_array(?::text))
                        ORDER BY name""")
                .params(calendar, calendar).query(String.class).list();
    }

    /** @return the stored row of that name */
    public Optional<StoredJob> find(String name) {
        return jdbc.sql("SELECT kind, definition::text FROM onebeat_runtime_job WHERE name = ?")
                .param(name)
                .query((rs, row) -> new StoredJob(kind(rs.getString(1)), definition(rs.getString(2))))
                .optional();
    }

    /** Stores a new row in the caller's transaction. @return false if a row of that name exists */
    public boolean insert(Kind kind, JobsProperties.Definition definition, String actor) {
        // the primary key on name stops two concurrent creations of one job
        return jdbc.sql("""
                        INSERT INTO onebeat_runtime_job (name, kind, definition, updated_by)
                        VALUES (?, ?, ?::jsonb, ?) ON CONFLICT (name) DO NOTHING
                        """)
                .params(definition.name(), column(kind), json.writeValueAsString(definition), actor)
                .update() == 1;
    }

    /** Stores or replaces the row of {@code definition.name()} in the caller's transaction. */
    public void save(Kind kind, JobsProperties.Definition definition, String actor) {
        jdbc.sql("""
                        INSERT INTO onebeat_runtime_job (name, kind, definition, updated_by) VALUES (?, ?, ?::jsonb, ?)
                        ON CONFLICT (name) DO UPDATE SET kind = EXCLUDED.kind, definition = EXCLUDED.definition,
                            updated_by = EXCLUDED.updated_by, updated_at = now()
                        """)
                .params(definition.name(), column(kind), json.writeValueAsString(definition), actor)
                .update();
    }

    /** Deletes the row in the caller's transaction. @return whether there was one */
    public boolean delete(String name) {
        return jdbc.sql("DELETE FROM onebeat_runtime_job WHERE name = ?").param(name).update() == 1;
    }

    /**
     * Lays the stored rows over the registry if they changed since the last call. A row that no longer
     * builds (a zone withdrawn, an override of a job no longer defined) is skipped and logged.
     *
     * <p>The first call loads every row; later ones only the rows written since the last load and the names deleted
     * since (migration 031), unless the table was truncated or the deleted names this replica had not read yet were
     * pruned, when every row is loaded again.
     *
     * @return what was read
     */
    public synchronized Reload reload() {
        if (TransactionSynchronizationManager.isActualTransactionActive()) {
            // inside a caller's transaction its own writes would be read as committed, and after a rollback nothing
            // would read them out of the registry again: the caller reloads once its transaction has ended (JobFiles),
            // or the poll does
            return Reload.IN_TRANSACTION;
        }
        long start = System.nanoTime();
        // every transaction that writes the table moves the counter on as it commits (a deferred trigger): one row
        // read when nothing changed, and a change committed late is seen once it commits, whatever its timestamp. Read
        // before the rows, so the rows are at least as new as the version noted
        // a row deleted by hand comes back with the next write; until then every poll reloads
        Version version = jdbc.sql("""
                        SELECT version, txid_snapshot_xmin(txid_current_snapshot())
                        FROM onebeat_runtime_job_version WHERE id = 1""")
                .query((rs, row) -> new Version(rs.getLong(1), rs.getLong(2)))
                .optional().orElseGet(() -> new Version(--missingVersion, -1));
        if (version.version() == loaded) {
            return Reload.NOTHING_CHANGED;
        }
        // Every change this statement's snapshot did not see was made by a transaction whose id is at least the
        // snapshot's xmin (the oldest still running, or one begun after): the next load reads from there. Rows this
        // load reads later, in statements of their own, only ever see more, which the next load reads again
        Reload read = Reload.CHANGES;
        if (loadedFrom < 0 || version.xmin() < 0 || !loadChanges(start)) {
            loadAll(start);
            read = Reload.ALL;
        }
        prune();
        loaded = version.version();
        loadedFrom = version.xmin();
        return read;
    }

    /** What a {@link #reload} read. */
    public enum Reload {
        /** Called inside a transaction: nothing read (the caller's own writes would be read as committed). */
        IN_TRANSACTION,
        /** The version had not moved: one row. */
        NOTHING_CHANGED,
        /** The rows written and the names deleted since the last load. */
        CHANGES,
        /** Every row: the first load, and after a truncation or a prune of names this replica had not read. */
        ALL
    }

    /** The version of the runtime jobs, and the reading snapshot's xmin (-1 without a version row). */
    private record Version(long version, long xmin) {
    }

    private void loadAll(long start) {
        List<String[]> rows = jdbc.sql("SELECT kind, definition::text FROM onebeat_runtime_job ORDER BY name")
                .query((rs, row) -> new String[] {rs.getString(1), rs.getString(2)})
                .list();
        // The first load, at start-up, builds on every core: reading and checking each definition is nearly all of its
        // time, and a replica starting has its cores to itself (a million runtime jobs: about 20 s on one core of a
        // 2-core machine, 10 s on both). Later whole loads (after a truncation) run beside the fires, on this thread
        // alone. Each row is built apart from the others; the list keeps the rows' order
        List<RegisteredJob> jobs = (startedUp ? rows.stream() : rows.parallelStream())
                .map(row -> build(new StoredJob(kind(row[0]), definition(row[1]))))
                .flatMap(Optional::stream)
                .toList();
        registry.overlay(jobs);
        startedUp = true;
        log.info("runtime jobs loaded count={} tookMs={}", jobs.size(), (System.nanoTime() - start) / 1_000_000);
    }

    /**
     * Lays over the registry the rows written since {@link #loadedFrom}, and takes out the names deleted since.
     *
     * @return false if the table was truncated since, or names deleted since were pruned, so every row must be loaded
     *     again
     */
    private boolean loadChanges(long start) {
        // The deleted names first, then the rows: a name deleted and created again is read back as a row (its row is
        // read by name, whichever transaction wrote it); one deleted between the two reads is read next time. The
        // names are read with how far they were pruned, in one statement: a prune deletes names and moves
        // pruned_through in one statement too, so this sees both or neither
        List<String> removed = new ArrayList<>();
        boolean pruned = jdbc.sql("""
                        SELECT pruned_through >= :from,
                               ARRAY(SELECT name FROM onebeat_runtime_job_removed WHERE removed_txid >= :from)
                        FROM onebeat_runtime_job_version WHERE id = 1""")
                .param("from", loadedFrom)
                .query((rs, row) -> {
                    removed.addAll(Arrays.asList((String[]) rs.getArray(2).getArray()));
                    return rs.getBoolean(1);
                })
                .optional().orElse(true);
        if (pruned || removed.contains(null)) {
            return false;
        }
        List<String[]> rows = jdbc.sql("""
                        SELECT name, kind, definition::text FROM onebeat_runtime_job
                        WHERE changed_txid >= ? OR name = ANY(?::text[])""")
                .params(loadedFrom, removed.toArray(String[]::new))
                .query((rs, row) -> new String[] {rs.getString(1), rs.getString(2), rs.getString(3)})
                .list();
        Set<String> gone = new HashSet<>(removed);
        List<RegisteredJob> changed = new ArrayList<>(rows.size());
        for (String[] row : rows) {
            Optional<RegisteredJob> job = build(new StoredJob(kind(row[1]), definition(row[2])));
            if (job.isPresent()) {
                changed.add(job.get());
                gone.remove(row[0]);
            } else {
                // a row that no longer builds leaves the overlay, as a whole load would leave it out
                gone.add(row[0]);
            }
        }
        registry.overlay(changed, gone);
        log.info("runtime jobs reloaded changed={} removed={} tookMs={}", changed.size(), gone.size(),
                (System.nanoTime() - start) / 1_000_000);
        return true;
    }

    /**
     * Deletes the removed names older than {@link #KEEP_REMOVED}, at most once per {@link #PRUNE_EVERY} on this
     * replica, and notes the newest transaction pruned: a replica that loaded before it has lost names it had not read,
     * and loads every row again.
     */
    private void prune() {
        long now = System.nanoTime();
        if (lastPrune != 0 && now - lastPrune < PRUNE_EVERY.toNanos()) {
            return;
        }
        lastPrune = now;
        try {
            jdbc.sql("""
                            WITH pruned AS (
                                DELETE FROM onebeat_runtime_job_removed
                                WHERE removed_at < now() - make_interval(secs => ?)
                                  -- without the version row, pruned_through could not say what went
                                  AND EXISTS (SELECT 1 FROM onebeat_runtime_job_version WHERE id = 1)
                                RETURNING removed_txid)
                            UPDATE onebeat_runtime_job_version
                            SET pruned_through = greatest(pruned_through, (SELECT max(removed_txid) FROM pruned))
                            WHERE id = 1 AND EXISTS (SELECT 1 FROM pruned)""")
                    .param(KEEP_REMOVED.toSeconds()).update();
        } catch (RuntimeException e) {
            // the names stay a while longer; the next prune takes them
            log.warn("removed runtime job names not pruned error={}", e.toString());
        }
    }

    private Optional<RegisteredJob> build(StoredJob stored) {
        String name = stored.definition().name();
        try {
            Optional<RegisteredJob> defined = registry.defined(name);
            if (stored.kind() == Kind.JOB && defined.isEmpty()) {
                return Optional.of(new RegisteredJob(runtimeJob(stored.definition()), "runtime job"));
            }
            if (stored.kind() == Kind.OVERRIDE && defined.isPresent()) {
                return Optional.of(new RegisteredJob(rescheduled(defined.get().job(), stored.definition()),
                        defined.get().origin() + ", rescheduled at run time"));
            }
            log.warn("stored job skipped job={} kind={}: {}", name, stored.kind(), stored.kind() == Kind.JOB
                    ? "a job of that name is now defined in code or configuration, which wins"
                    : "no job of that name is defined in code or configuration any more");
        } catch (JobDefinitionException e) {
            log.error("stored job skipped, its definition is invalid job={} error={}", name, e.getMessage());
        }
        return Optional.empty();
    }

    private JobsProperties.Definition definition(String text) {
        return json.readValue(text, JobsProperties.Definition.class);
    }

    private static Kind kind(String column) {
        return Kind.valueOf(column.toUpperCase(Locale.ROOT));
    }

    private static String column(Kind kind) {
        return kind.name().toLowerCase(Locale.ROOT);
    }
}
