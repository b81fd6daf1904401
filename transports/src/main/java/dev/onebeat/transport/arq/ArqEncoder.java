package dev.onebeat.transport.arq;

import dev.onebeat.job.IdempotencyKey;
import dev.onebeat.transport.internal.pickle.JsonValues;
import dev.onebeat.transport.internal.pickle.PickleWriter;
import dev.onebeat.transport.internal.pickle.PythonTuple;
import dev.onebeat.transport.internal.redis.RedisCommand;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Encodes a task as an arq job, the way {@code ArqRedis.enqueue_job} writes it, with the idempotency
 * key as the job id: arq skips an enqueue while {@code arq:job:<id>} or {@code arq:result:<id>}
 * exists, so a republished task is a no-op on the broker for as long as arq keeps its result.
 */
final class ArqEncoder {

    /** arq's default queue; the queue name is the sorted set's key. */
    public static final String DEFAULT_QUEUE = "arq:queue";
    /** What arq adds to the wait before the score for the job key's lifetime: one day. */
    static final long EXPIRES_MILLIS = 86_400_000L;

    // arq's WATCH / EXISTS / MULTI as one atomic step; the reply says whether it enqueued. ZADD goes
    // first: a script stopped by an error keeps the writes before it, and a job key left without its
    // queue entry would make every retry of a refused enqueue (a queue key of the wrong type) look done
    static final String ENQUEUE_SCRIPT = "if redis.call('EXISTS', KEYS[1], KEYS[2]) > 0 then return 0 end\n"
            + "redis.call('ZADD', KEYS[3], ARGV[3], ARGV[4])\n"
            + "redis.call('PSETEX', KEYS[1], ARGV[1], ARGV[2])\n"
            + "return 1";

    private ArqEncoder() {
    }

    /**
     * @param function the name the worker registered the function under, such as {@code add}
     * @param queue the queue's sorted-set key, usually {@link #DEFAULT_QUEUE}
     * @param key the task's idempotency key, used verbatim as the job id
     * @param argsJson the positional arguments, a JSON array (or {@code null})
     * @param kwargsJson the keyword arguments, a JSON object (or {@code null})
     * @param enqueuedAt the publish time: the job's {@code et} and its queue score
     * @return the job and the command that enqueues it
     * @throws IllegalArgumentException if a name is blank or the arguments are not JSON of the expected shape
     */
    public static ArqJob encode(String function, String queue, IdempotencyKey key, String argsJson, String kwargsJson,
            Instant enqueuedAt) {
        requireText(function, "function");
        requireText(queue, "queue");
        Objects.requireNonNull(key, "key must not be null");
        Objects.requireNonNull(enqueuedAt, "enqueuedAt must not be null");
        long enqueuedMillis = enqueuedAt.toEpochMilli();

        Map<String, Object> job = new LinkedHashMap<>();
        job.put("t", null);
        job.put("f", function);
        job.put("a", new PythonTuple(JsonValues.args(argsJson)));
        job.put("k", JsonValues.kwargs(kwargsJson));
        job.put("et", enqueuedMillis);
        byte[] payload = PickleWriter.dumps(job);

        String id = key.value();
        String jobKey = "arq:job:" + id;
        String resultKey = "arq:result:" + id;
        RedisCommand command = RedisCommand.of("EVAL", ENQUEUE_SCRIPT, "3", jobKey, resultKey, queue,
                Long.toString(EXPIRES_MILLIS), payload, Long.toString(enqueuedMillis), id);
        return new ArqJob(id, jobKey, resultKey, queue, payload, enqueuedMillis, EXPIRES_MILLIS, command);
    }

    private static void requireText(String value, String name) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException(name + " must not be blank, was '" + value + "'");
        }
    }
}
