package dev.onebeat.scheduler.bench;

import dev.onebeat.scheduler.SecurityTestUsers;
import dev.onebeat.scheduler.engine.cluster.DatabaseFaults;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.springframework.jdbc.core.RowCallbackHandler;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import redis.clients.jedis.Jedis;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Reads what a chaos run left: each instant's outcome as the instants API judges it, the ledger and the outbox in the
 * database, and every message on the broker, counted per idempotency key.
 */
final class ChaosTally {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final ChaosCluster cluster;
    private final ChaosOptions options;
    private final JdbcClient jdbc;

    ChaosTally(ChaosCluster cluster, ChaosOptions options) {
        this.cluster = cluster;
        this.options = options;
        this.jdbc = JdbcClient.create(new DriverManagerDataSource(cluster.database().url()));
    }

    ChaosResult tally(Instant from, Instant to, Map<ChaosFault, Integer> faults, int sessionsTerminated,
                      Long skewSeen) {
        Map<String, Long> outcomes = new TreeMap<>();
        long expected = expected(from, to, 1) + options.groupJobs() * expected(from, to, 2);
        List<String> jobs = new ArrayList<>(List.of(ChaosCluster.SINGLE_JOB));
        for (int i = 1; i <= options.groupJobs(); i++) {
            jobs.add(ChaosCluster.groupJob(i));
        }
        long listed = 0;
        Instant now = Instant.now();
        List<String> unaccounted = new ArrayList<>();
        for (String job : jobs) {
            List<DatabaseFaults.Judged> instants = instants(job, from, to);
            listed += instants.size();
            DatabaseFaults.counts(instants, now).forEach((label, count) -> outcomes.merge(label, (long) count, Long::sum));
            // each instant without an outcome, with what the ledger holds of it: what a failed run is read by
            DatabaseFaults.unaccounted(instants, now).forEach(judged -> unaccounted.add(job + " " + judged.instant()
                    + " " + judged.outcome() + (judged.reason() == null ? "" : " (" + judged.reason() + ")")
                    + "; ledger: " + ledgerOf(job, judged.instant())));
            if (instants.size() != expected(from, to, job.equals(ChaosCluster.SINGLE_JOB) ? 1 : 2)) {
                unaccounted.add(job + ": " + instants.size() + " instants listed of "
                        + expected(from, to, job.equals(ChaosCluster.SINGLE_JOB) ? 1 : 2));
            }
        }
        if (listed != expected) {
            outcomes.put("none (not listed by the API)", expected - listed);
        }
        // the jobs go on firing while this is read: only tasks of instants before the end of the faults are judged.
        // The outbox is read before the broker: the relay marks a row published only after the broker acknowledged its
        // message, so each row read here as published must be on the broker when it is read after (read the other way
        // round, a row published between the two reads would count as lost)
        Timestamp end = Timestamp.from(to);
        Map<String, String> published = new HashMap<>();
        jdbc.sql("""
                        SELECT idempotency_key, 'id ' || id || ', job ' || job_name || ' at ' || scheduled_at
                               || ', written ' || created_at || ', published ' || coalesce(published_at::text, '?')
                               || ', attempts ' || attempts
                        FROM onebeat_task WHERE status = 'published' AND scheduled_at < ?""")
                .param(end).query((RowCallbackHandler) rs -> published.put(rs.getString(1), rs.getString(2)));
        Map<String, Long> publishes = brokerPublishes();
        List<String> lost = published.entrySet().stream().filter(entry -> !publishes.containsKey(entry.getKey()))
                .map(entry -> entry.getKey() + " (" + entry.getValue() + ")").sorted().toList();
        return new ChaosResult(options.seed(), from, to, Map.copyOf(faults), sessionsTerminated, cluster.kills(),
                cluster.exits(), skewSeen,
                cluster.skewLogged().orElse(null), expected, outcomes,
                count("SELECT count(*) FROM onebeat_fire WHERE run_id = ''"),
                DatabaseFaults.duplicateCommits(jdbc),
                count("""
                        SELECT count(*) FROM (SELECT idempotency_key FROM onebeat_task
                        GROUP BY idempotency_key HAVING count(*) > 1) twice"""),
                count("SELECT count(*) FROM onebeat_task"),
                byLabel("SELECT status, count(*) FROM onebeat_task WHERE status NOT IN ('published', 'done')"
                        + " AND scheduled_at < '" + to + "' GROUP BY 1"),
                earlyFires(), earliestMillis(),
                publishes.values().stream().mapToLong(Long::longValue).sum(),
                publishes.values().stream().filter(n -> n > 1).count(),
                publishes.values().stream().mapToLong(n -> n - 1).sum(), lost, unaccounted);
    }

    /** @return the ledger's rows and attempts of one (job, instant), and the fault periods around it, one line */
    private String ledgerOf(String job, Instant instant) {
        Timestamp at = Timestamp.from(instant);
        List<String> rows = new ArrayList<>(jdbc.sql("""
                        SELECT 'fire ' || node || ' ' || trigger_kind || ' ' || outcome || ' at ' || fired_at
                        FROM onebeat_fire WHERE job_name = ? AND scheduled_at = ?""")
                .params(job, at).query(String.class).list());
        rows.addAll(jdbc.sql("""
                        SELECT 'attempt ' || attempt || ' ' || node || ' ' || trigger_kind || ' ' || outcome
                               || coalesce(' ' || reason, '') || coalesce(' ' || error_message, '') || ' at '
                               || attempted_at
                        FROM onebeat_fire_attempt WHERE job_name = ? AND scheduled_at = ?""")
                .params(job, at).query(String.class).list());
        rows.addAll(jdbc.sql("""
                        SELECT 'fault ' || node || ' ' || stage || ' ' || since || ' to ' || until
                        FROM onebeat_fire_fault WHERE since <= CAST(? AS timestamptz) + interval '5 seconds'
                          AND until >= CAST(? AS timestamptz) - interval '5 seconds'""")
                .params(at, at).query(String.class).list());
        return rows.isEmpty() ? "nothing" : String.join("; ", rows);
    }

    private static long expected(Instant from, Instant to, long everySeconds) {
        long first = -Math.floorDiv(-from.getEpochSecond(), everySeconds);
        long last = -Math.floorDiv(-to.getEpochSecond(), everySeconds) - 1;
        return Math.max(0, last - first + 1);
    }

    /** The instants in {@code [from, to)} from the first replica that answers. */
    private List<DatabaseFaults.Judged> instants(String job, Instant from, Instant to) {
        RuntimeException last = null;
        for (String baseUrl : cluster.baseUrls()) {
            try {
                return DatabaseFaults.instants(baseUrl, SecurityTestUsers.token("viewer"), job, from, to);
            } catch (RuntimeException e) {
                last = e;
            }
        }
        throw new IllegalStateException("no replica answered the instants of " + job, last);
    }

    /**
     * Fires whose tasks were written before their instant by the database's clock ({@code created_at} is the
     * transaction's {@code now()}), per replica: a replica whose clock runs ahead fires early.
     */
    private Map<String, Long> earlyFires() {
        return byLabel("""
                SELECT f.node, count(*) FROM onebeat_fire f
                WHERE f.run_id = '' AND EXISTS (SELECT 1 FROM onebeat_task t WHERE t.job_name = f.job_name
                      AND t.scheduled_at = f.scheduled_at AND t.created_at < t.scheduled_at)
                GROUP BY 1""");
    }

    private long earliestMillis() {
        Long millis = jdbc.sql("""
                        SELECT coalesce(max(extract(epoch FROM scheduled_at - created_at) * 1000), 0)::bigint
                        FROM onebeat_task WHERE created_at < scheduled_at""").query(Long.class).single();
        return millis == null ? 0 : millis;
    }

    /** @return per idempotency key, how many messages the broker holds for it (nothing consumes them) */
    private Map<String, Long> brokerPublishes() {
        Map<String, Long> publishes = new HashMap<>();
        try (Jedis jedis = cluster.broker().connect()) {
            for (String envelope : jedis.lrange(ChaosCluster.QUEUE, 0, -1)) {
                JsonNode key = JSON.readTree(envelope).path("headers").path("idempotency_key");
                publishes.merge(key.isMissingNode() ? "(no key)" : key.asString(), 1L, Long::sum);
            }
        }
        return publishes;
    }

    private long count(String sql) {
        return jdbc.sql(sql).query(Long.class).single();
    }

    private Map<String, Long> byLabel(String sql) {
        Map<String, Long> counts = new TreeMap<>();
        jdbc.sql(sql).query((rs, row) -> counts.put(rs.getString(1), rs.getLong(2))).list();
        return counts;
    }
}
