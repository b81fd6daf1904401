package dev.onebeat.scheduler.interop;

import dev.onebeat.job.IdempotencyKey;
import dev.onebeat.scheduler.engine.relay.Relay;
import java.sql.Timestamp;
import org.junit.jupiter.api.AfterEach;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * What the real-worker tests share: the replica's database and relay, the relay stopped after each
 * test so nothing is published once clean-up starts, and the clean-up of a worker and its broker.
 */
abstract class WorkerInteropBase {

    @Autowired
    JdbcTemplate jdbc;

    @Autowired
    Relay relay;

    @AfterEach
    void stopRelay() {
        relay.stop();
        afterRelayStopped();
    }

    /** Runs once the relay published its last task; nothing by default. */
    void afterRelayStopped() {
    }

    /** @return the task's scheduled instant as the transports write it for the worker: ISO-8601 UTC text */
    static String scheduledAt(JdbcTemplate jdbc, IdempotencyKey key) {
        return jdbc.queryForObject("SELECT scheduled_at FROM onebeat_task WHERE idempotency_key = ?", Timestamp.class,
                key.value()).toInstant().toString();
    }

    /** Stops the worker (if it started), then removes what the test made on its broker. */
    static void close(PythonWorker worker, AutoCloseable broker) throws Exception {
        try {
            if (worker != null) {
                worker.close();
            }
        } finally {
            broker.close();
        }
    }
}
