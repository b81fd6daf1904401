package dev.onebeat.scheduler.interop;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onebeat.job.PeriodicJob;
import dev.onebeat.scheduler.SchedulerIT;
import dev.onebeat.scheduler.engine.relay.TestRoutes;
import dev.onebeat.transport.testing.RedisTestDatabase;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * A real RQ worker (Debian's RQ 1.13, forking a work horse per job) runs the jobs a replica writes
 * to Redis with the {@code rq} transport: every job once, under the job id onebeat gave it, with the
 * readable key and the scheduled instant in {@code get_current_job().meta}.
 */
@SchedulerIT
class RqInteropIT extends WorkerInteropBase {

    private static final RedisTestDatabase REDIS = new RedisTestDatabase();
    private static final String QUEUE = REDIS.newName("rq-interop");
    private static PythonWorker worker;

    @BeforeAll
    static void startWorker() {
        worker = PythonWorker.rq(QUEUE, RedisTestDatabase.URL, QUEUE);
    }

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        InteropJobs.registerDeclarative(registry, PythonWorker.RQ_FUNCTION, QUEUE);
        TestRoutes.route(registry, "redis", "redis", RedisTestDatabase.URL, "rq", QUEUE);
    }

    @TestConfiguration(proxyBeanMethods = false)
    static class FanOut {
        @Bean
        PeriodicJob interopFanOut() {
            return InteropJobs.fanOut(PythonWorker.RQ_FUNCTION, QUEUE);
        }
    }

    @Test
    void rqWorkerRunsEveryPublishedJobOnceUnderItsJobIdWithItsArgumentsKeyAndInstantInMeta() {
        WorkerRuns.assertEveryPublishedTaskRanOnce(jdbc, QUEUE, worker, PythonWorker.RQ_FUNCTION, (record, row) -> {
            assertThat(record.get("origin").asString()).as("origin of %s", row.key()).isEqualTo(QUEUE);
            assertThat(record.get("meta").get("idempotency_key").asString()).as("meta key of %s", row.key())
                    .isEqualTo(row.key().value());
            assertThat(record.get("meta").get("scheduled_at").asString()).as("meta instant of %s", row.key())
                    .isEqualTo(scheduledAt(jdbc, row.key()));
        });
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
