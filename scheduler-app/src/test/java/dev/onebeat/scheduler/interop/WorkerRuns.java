package dev.onebeat.scheduler.interop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.onebeat.job.IdempotencyKey;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.springframework.jdbc.core.JdbcTemplate;
import tools.jackson.databind.JsonNode;

/**
 * Checks a real worker against the outbox: every task the relay marked {@code published} on a queue
 * ran exactly once, under the id the transport gave it, with its arguments intact, and the worker
 * logged no error. On failure the worker's output is part of the message.
 */
final class WorkerRuns {

    /** Fires of the fan-out job to wait for before checking: enough to see two batches go out. */
    private static final int FIRES = 2;
    private static final Duration PUBLISH_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration RUN_TIMEOUT = Duration.ofSeconds(60);
    private static final int LOG_TAIL_LINES = 150;

    private WorkerRuns() {
    }

    /**
     * A task row of the outbox.
     *
     * @param key its idempotency key
     * @param job the job that dispatched it
     * @param entityId its entity id, or {@code null}
     * @param status its status
     */
    record Row(IdempotencyKey key, String job, String entityId, String status) {

        /** @return the task id Celery and RQ workers see: the transports' UUIDv5 of the key */
        String workerId() {
            return key.toUuid().toString();
        }
    }

    /** @return every row of {@code queue}, by worker id */
    static Map<String, Row> rows(JdbcTemplate jdbc, String queue) {
        Map<String, Row> rows = new HashMap<>();
        jdbc.query("SELECT idempotency_key, job_name, entity_id, status FROM onebeat_task WHERE queue = ?",
                rs -> {
                    Row row = new Row(new IdempotencyKey(rs.getString(1)), rs.getString(2), rs.getString(3),
                            rs.getString(4));
                    rows.put(row.workerId(), row);
                }, queue);
        return rows;
    }

    /**
     * Waits for both jobs' tasks of {@value #FIRES} fires to be published and run, then checks every
     * run the worker recorded.
     *
     * @param jdbc the replica's database
     * @param queue the queue the jobs dispatch to
     * @param worker the worker consuming it
     * @param task the task name the worker reports: Celery's registered name or RQ's function path
     * @param check what else a worker-specific record must hold; gets the record and its row
     */
    static void assertEveryPublishedTaskRanOnce(JdbcTemplate jdbc, String queue, PythonWorker worker, String task,
            RecordCheck check) {
        try {
            Map<String, Row> published = awaitPublished(jdbc, queue);
            await("worker runs every task published so far").atMost(RUN_TIMEOUT).pollInterval(Duration.ofMillis(250))
                    .untilAsserted(() -> {
                        Set<String> missing = new HashSet<>(published.keySet());
                        ids(worker.records()).forEach(missing::remove);
                        assertThat(missing.size()).as("published tasks the worker has not run (of %d), such as %s",
                                published.size(), missing.stream().limit(3).map(id -> published.get(id).key()).toList())
                                .isZero();
                    });

            List<JsonNode> records = worker.records();
            Map<String, Row> rows = rows(jdbc, queue);
            assertThat(ids(records)).as("task ids run more than once").doesNotHaveDuplicates();
            for (JsonNode record : records) {
                String id = record.get("id").asString();
                Row row = rows.get(id);
                assertThat(row).as("the outbox row of task id %s run by the worker", id).isNotNull();
                assertThat(record.get("task").asString()).as("task name of %s", row.key()).isEqualTo(task);
                assertThat(record.get("args")).as("args of %s", row.key())
                        .isEqualTo(InteropJobs.expectedArgs(row.job(), row.entityId()));
                assertThat(record.get("kwargs")).as("kwargs of %s", row.key())
                        .isEqualTo(InteropJobs.expectedKwargs(row.job(), row.entityId()));
                check.accept(record, row);
            }
            assertThat(rows.values()).as("rows the relay gave up on").noneMatch(row -> "failed".equals(row.status()));
            assertThat(worker.errorLines()).as("error lines in the worker's output").isEmpty();
            assertThat(worker.isAlive()).as("worker still running").isTrue();
        } catch (AssertionError | RuntimeException e) {
            List<String> errors = worker.errorLines();
            throw new AssertionError(e.getMessage() + "\n--- " + errors.size() + " error lines of " + worker + ", such as:\n"
                    + String.join("\n", errors.subList(0, Math.min(errors.size(), 5)))
                    + "\n--- its last " + LOG_TAIL_LINES + " lines:\n" + tail(worker.log()), e);
        }
    }

    private static Map<String, Row> awaitPublished(JdbcTemplate jdbc, String queue) {
        Map<String, Row> published = new HashMap<>();
        await("tasks of " + FIRES + " fires published").atMost(PUBLISH_TIMEOUT).pollInterval(Duration.ofMillis(250))
                .untilAsserted(() -> {
                    published.clear();
                    Map<String, Integer> byJob = new HashMap<>();
                    rows(jdbc, queue).forEach((id, row) -> {
                        if ("published".equals(row.status())) {
                            published.put(id, row);
                            byJob.merge(row.job(), 1, Integer::sum);
                        }
                    });
                    assertThat(byJob.getOrDefault(InteropJobs.FAN_OUT_JOB, 0))
                            .isGreaterThanOrEqualTo(FIRES * InteropJobs.ENTITIES);
                    assertThat(byJob.getOrDefault(InteropJobs.DECLARATIVE_JOB, 0)).isGreaterThanOrEqualTo(FIRES);
                });
        return published;
    }

    private static List<String> ids(List<JsonNode> records) {
        return records.stream().map(record -> record.get("id").asString()).toList();
    }

    private static String tail(String log) {
        List<String> lines = log.lines().toList();
        return String.join("\n", lines.subList(Math.max(0, lines.size() - LOG_TAIL_LINES), lines.size()));
    }

    /** A worker-specific check of one record against its row. */
    @FunctionalInterface
    interface RecordCheck {
        void accept(JsonNode record, Row row);
    }
}
