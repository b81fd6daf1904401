package dev.onebeat.scheduler.interop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.onebeat.job.Jobs;
import dev.onebeat.job.PeriodicJob;
import dev.onebeat.job.Schedule;
import dev.onebeat.job.TaskRequest;
import dev.onebeat.testsupport.TestDatabase;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.springframework.jdbc.core.JdbcTemplate;
import tools.jackson.databind.JsonNode;

/**
 * What the process-once crash tests share: the job whose tasks the worker processes, the effect
 * table and the worker's database connection string, and the check that each task took effect
 * exactly once, the crashed one included. The task body is {@code onebeat_interop_once.py}: each run
 * records the task's key and whether {@code process_once} saw it for the first time.
 */
final class ProcessOnceRuns {

    /** The job: every second, {@value #TASKS_PER_FIRE} tasks, one per tenant. */
    static final String JOB = "interop-process-once";
    static final int TASKS_PER_FIRE = 3;
    /** The consumer name the task body journals its keys under. */
    static final String CONSUMER = "interop-crash";

    static final String DSN_VARIABLE = "ONEBEAT_INTEROP_DSN";
    static final String CRASH_MARKER_VARIABLE = "ONEBEAT_INTEROP_CRASH_MARKER";

    private static final Duration CRASH_TIMEOUT = Duration.ofSeconds(90);
    private static final Duration RUN_TIMEOUT = Duration.ofSeconds(60);
    /** Tasks published, counting from the crash, before the test stops waiting for more. */
    private static final int TASKS_AFTER_CRASH = 2 * TASKS_PER_FIRE;

    private ProcessOnceRuns() {
    }

    /** @return the job, for a {@code @Bean} of the test's configuration */
    static PeriodicJob job(String task, String queue) {
        return Jobs.periodic(JOB, Schedule.every(Duration.ofSeconds(1))).execute(context -> {
            for (int tenant = 1; tenant <= TASKS_PER_FIRE; tenant++) {
                context.dispatch(TaskRequest.builder(task).queue(queue).entity("tenant", tenant).build());
            }
        });
    }

    /** Creates the table of effects: deliberately without a unique key, so that a second effect would show. */
    static void createEffectTable(JdbcTemplate jdbc) {
        jdbc.execute("CREATE TABLE interop_effect (idempotency_key VARCHAR(320) NOT NULL, pid INTEGER NOT NULL,"
                + " applied_at TIMESTAMPTZ NOT NULL DEFAULT now())");
    }

    /**
     * @param database the test's database, which has the worker kit's tables (onebeat's changelog includes them)
     * @return the worker's environment: the libpq connection string of {@code database}
     */
    static Map<String, String> workerEnvironment(TestDatabase database) {
        URI uri = URI.create(database.jdbcUrl().substring("jdbc:".length()));
        StringBuilder dsn = new StringBuilder()
                .append("host=").append(uri.getHost() == null ? "127.0.0.1" : uri.getHost())
                .append(" port=").append(uri.getPort() < 0 ? 5432 : uri.getPort())
                .append(" dbname=").append(database.name())
                .append(" user=").append(database.username())
                .append(" connect_timeout=10");
        if (!database.password().isEmpty()) {
            dsn.append(" password='").append(database.password().replace("\\", "\\\\").replace("'", "\\'")).append('\'');
        }
        return Map.of(DSN_VARIABLE, dsn.toString());
    }

    /** @return {@code environment} plus the marker file whose absence makes the worker crash on its first task */
    static Map<String, String> crashing(Map<String, String> environment, Path marker) {
        try {
            Files.createDirectories(marker.toAbsolutePath().getParent());
            Files.deleteIfExists(marker);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Map<String, String> crashing = new HashMap<>(environment);
        crashing.put(CRASH_MARKER_VARIABLE, marker.toAbsolutePath().toString());
        return crashing;
    }

    /**
     * Waits until the worker's first task committed and SIGKILLed its process.
     *
     * @param worker the worker, or the worker whose horse, the process that crashes
     * @param marker the marker file the crashing task writes its key to
     * @param processGone whether the crashed process is gone, such as the worker having exited
     * @return the key of the task that crashed
     */
    static String awaitCrash(PythonWorker worker, Path marker, BooleanSupplier processGone) {
        await("the first task commits, then SIGKILLs its process").atMost(CRASH_TIMEOUT).pollInterval(Duration.ofMillis(200))
                .failFast("the worker stopped without crashing a task: " + worker,
                        () -> !worker.isAlive() && !Files.exists(marker))
                .until(() -> Files.exists(marker) && processGone.getAsBoolean());
        try {
            String key = Files.readString(marker, StandardCharsets.UTF_8);
            assertThat(key).as("key of the task that crashed").isNotBlank();
            return key;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Waits for the crashed task's second run (the duplicate {@code process_once} skips) and for every
     * task published until {@value #TASKS_AFTER_CRASH} more came after the crash, then checks:
     * {@code process_once} saw every task first exactly once, and only the crashed one again; every
     * key has one effect and one journal entry; every record's key is its task's key.
     *
     * @param jdbc the replica's database, also the worker's
     * @param queue the queue of the tasks
     * @param records every run the workers recorded so far, read anew on each call
     * @param crashedKey the key of the task that crashed after its commit
     * @return the records of the crashed task's two runs, first the crashed one
     */
    static List<JsonNode> assertEachTaskTookEffectOnce(JdbcTemplate jdbc, String queue,
            Supplier<List<JsonNode>> records, String crashedKey) {
        await("the crashed task runs again").atMost(RUN_TIMEOUT).pollInterval(Duration.ofMillis(250))
                .until(() -> runsOf(records.get(), crashedKey).size() >= 2);
        int publishedAtCrash = published(jdbc, queue).size();
        Map<String, WorkerRuns.Row> published = new HashMap<>();
        await("tasks published after the crash").atMost(RUN_TIMEOUT).pollInterval(Duration.ofMillis(250))
                .untilAsserted(() -> {
                    published.clear();
                    published.putAll(published(jdbc, queue));
                    assertThat(published.size()).isGreaterThanOrEqualTo(publishedAtCrash + TASKS_AFTER_CRASH);
                });
        await("every published task runs").atMost(RUN_TIMEOUT).pollInterval(Duration.ofMillis(250))
                .untilAsserted(() -> {
                    Set<String> ran = records.get().stream().map(record -> record.get("id").asString())
                            .collect(Collectors.toSet());
                    assertThat(published.keySet()).as("task ids published and not run")
                            .allSatisfy(id -> assertThat(ran).contains(id));
                });

        List<JsonNode> all = records.get();
        Map<String, WorkerRuns.Row> rows = WorkerRuns.rows(jdbc, queue);
        for (JsonNode record : all) {
            WorkerRuns.Row row = rows.get(record.get("id").asString());
            assertThat(row).as("outbox row of the task id a worker ran: %s", record).isNotNull();
            assertThat(record.get("key").asString()).as("onebeat.key() of task %s", record.get("id"))
                    .isEqualTo(row.key().value());
        }
        Map<String, List<JsonNode>> byKey = all.stream().collect(Collectors.groupingBy(
                record -> record.get("key").asString(), LinkedHashMap::new, Collectors.toList()));
        byKey.forEach((key, runs) -> {
            assertThat(runs.stream().filter(run -> run.get("first").asBoolean()).count())
                    .as("runs of %s that process_once let through: %s", key, runs).isEqualTo(1);
            if (!key.equals(crashedKey)) {
                assertThat(runs).as("runs of %s, which did not crash", key).hasSize(1);
            }
        });
        List<JsonNode> crashed = runsOf(all, crashedKey);
        assertThat(crashed).as("runs of the crashed task %s", crashedKey).hasSize(2);
        assertThat(crashed.get(0).get("first").asBoolean()).as("the crashed run processed it").isTrue();
        assertThat(crashed.get(1).get("first").asBoolean()).as("the rerun was skipped as a duplicate").isFalse();
        assertThat(crashed.get(1).get("id").asString()).as("the rerun's task id").isEqualTo(crashed.get(0).get("id").asString());

        // one statement, one snapshot: a worker may commit another task meanwhile
        Map<String, List<Integer>> effectsAndJournal = new HashMap<>();
        jdbc.query("SELECT coalesce(e.idempotency_key, j.idempotency_key), coalesce(e.n, 0), coalesce(j.n, 0)"
                + " FROM (SELECT idempotency_key, count(*) AS n FROM interop_effect GROUP BY 1) e"
                + " FULL JOIN (SELECT idempotency_key, count(*) AS n FROM onebeat_processed WHERE consumer = ? GROUP BY 1) j"
                + " ON e.idempotency_key = j.idempotency_key",
                rs -> {
                    effectsAndJournal.put(rs.getString(1), List.of(rs.getInt(2), rs.getInt(3)));
                }, CONSUMER);
        assertThat(effectsAndJournal).as("[effects, journal entries] per key")
                .containsKeys(byKey.keySet().toArray(String[]::new))
                .allSatisfy((key, counts) -> assertThat(counts).as(key).containsExactly(1, 1));
        assertThat(rows.values()).as("rows the relay gave up on").noneMatch(row -> "failed".equals(row.status()));
        return crashed;
    }

    /** @return the records of both workers, the first one's first */
    static List<JsonNode> concat(PythonWorker first, PythonWorker second) {
        List<JsonNode> records = new ArrayList<>(first.records());
        if (second != null) {
            records.addAll(second.records());
        }
        return records;
    }

    private static List<JsonNode> runsOf(List<JsonNode> records, String key) {
        return records.stream().filter(record -> key.equals(record.get("key").asString())).toList();
    }

    private static Map<String, WorkerRuns.Row> published(JdbcTemplate jdbc, String queue) {
        return WorkerRuns.rows(jdbc, queue).entrySet().stream().filter(entry -> "published".equals(entry.getValue().status()))
                .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
    }

    /** @return the lines of {@code log} that contain {@code text} */
    static List<String> linesWith(String log, String text) {
        return Stream.of(log.split("\n")).filter(line -> line.contains(text)).toList();
    }
}
