package dev.onebeat.scheduler.interop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.onebeat.job.PeriodicJob;
import dev.onebeat.scheduler.SchedulerIT;
import dev.onebeat.scheduler.engine.relay.TestRoutes;
import dev.onebeat.testsupport.PostgresExtension;
import dev.onebeat.transport.testing.RedisTestDatabase;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

/**
 * A real RQ worker runs onebeat's jobs from Redis with {@code onebeat.process_once} on PostgreSQL;
 * the work horse of the first job SIGKILLs itself right after its commit. RQ moves that job to the
 * FailedJobRegistry ("Work-horse terminated unexpectedly"), an operator requeues it with the real
 * {@code rq requeue}, and the rerun's {@code process_once} finds the key journalled and skips it.
 * Every job takes effect exactly once.
 */
@SchedulerIT
class RqProcessOnceCrashIT extends WorkerInteropBase {

    private static final String FUNCTION = "onebeat_interop_rq_once.once";
    private static final Duration REQUEUE_TIMEOUT = Duration.ofSeconds(60);

    private static final RedisTestDatabase REDIS = new RedisTestDatabase();
    private static final String QUEUE = REDIS.newName("rq-once");
    private static PythonWorker worker;

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        TestRoutes.route(registry, "redis", "redis", RedisTestDatabase.URL, "rq", QUEUE);
    }

    @TestConfiguration(proxyBeanMethods = false)
    static class ProcessOnceJob {
        @Bean
        PeriodicJob interopProcessOnce() {
            return ProcessOnceRuns.job(FUNCTION, QUEUE);
        }
    }

    @Test
    void aJobWhoseHorseWasKilledAfterItsCommitIsRequeuedAndItsRerunSkippedByProcessOnce() throws Exception {
        PythonWorker.requireOnebeatPackage();
        ProcessOnceRuns.createEffectTable(jdbc);
        Map<String, String> environment = ProcessOnceRuns.workerEnvironment(PostgresExtension.database(getClass()));
        Path marker = Path.of("target", "interop", QUEUE + ".crashed");
        worker = PythonWorker.rq(QUEUE, RedisTestDatabase.URL, ProcessOnceRuns.crashing(environment, marker), QUEUE);

        String failedRegistry = "rq:failed:" + QUEUE;
        String crashedKey = ProcessOnceRuns.awaitCrash(worker, marker,
                () -> REDIS.jedis().zcard(failedRegistry) > 0);
        // the worker goes on with the next jobs; the crashed one waits in the registry for the operator
        List<JsonNode> crashedRun = worker.records().stream()
                .filter(run -> crashedKey.equals(run.get("key").asString())).toList();
        assertThat(crashedRun).as("runs of the crashed job before the requeue").singleElement()
                .satisfies(run -> assertThat(run.get("first").asBoolean()).isTrue());
        String jobId = crashedRun.get(0).get("id").asString();
        assertThat(REDIS.jedis().zrange(failedRegistry, 0, -1)).as("the FailedJobRegistry of %s", QUEUE)
                .containsExactly(jobId);
        assertThat(REDIS.jedis().hget("rq:job:" + jobId, "status")).as("status of the crashed job").isEqualTo("failed");
        assertThat(ProcessOnceRuns.linesWith(worker.log(), "Moving job to FailedJobRegistry"))
                .as("what the worker said of its horse").singleElement().asString()
                .contains("Work-horse terminated unexpectedly").contains("(signal 9)");
        assertThat(worker.isAlive()).as("the worker outlives its horse").isTrue();

        assertThat(requeueAll()).as("rq requeue's output").contains("Requeueing 1 jobs from failed queue");
        List<JsonNode> crashed = ProcessOnceRuns.assertEachTaskTookEffectOnce(jdbc, QUEUE, worker::records, crashedKey);

        assertThat(crashed.get(1).get("pid").asInt()).as("the rerun's work horse").isNotEqualTo(crashed.get(0).get("pid").asInt());
        assertThat(REDIS.jedis().zcard(failedRegistry)).as("jobs left in the FailedJobRegistry").isZero();
        await("the rerun finishes").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200))
                .until(() -> "finished".equals(REDIS.jedis().hget("rq:job:" + jobId, "status")));
        assertThat(ProcessOnceRuns.linesWith(worker.log(), "Work-horse terminated unexpectedly"))
                .as("horses that died").hasSize(1);
        assertThat(worker.isAlive()).as("worker still running").isTrue();
    }

    /** The operator's move: {@code rq requeue --all} of the queue, with RQ's own command line. */
    private static String requeueAll() throws IOException, InterruptedException {
        Path output = Path.of("target", "interop", QUEUE + ".requeue.log");
        Process requeue = new ProcessBuilder(PythonWorker.PYTHON.toString(), "-m", "rq.cli", "requeue", "--all",
                "--queue", QUEUE, "-u", RedisTestDatabase.URL)
                .redirectErrorStream(true).redirectOutput(output.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
        if (!requeue.waitFor(REQUEUE_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
            requeue.destroyForcibly();
            throw new AssertionError("rq requeue did not end in " + REQUEUE_TIMEOUT + "; it said: " + Files.readString(output));
        }
        String said = Files.readString(output, StandardCharsets.UTF_8);
        assertThat(requeue.exitValue()).as("rq requeue's exit status; it said: %s", said).isZero();
        return said;
    }

    /** Marks every job of the queue for removal: their keys carry the job id, not the queue. */
    @Override
    void afterRelayStopped() {
        WorkerRuns.rows(jdbc, QUEUE).keySet().forEach(REDIS::track);
    }

    @AfterAll
    static void stopWorkerAndDeleteKeys() throws Exception {
        close(worker, REDIS);
    }
}
