package dev.onebeat.transport.rq;

import dev.onebeat.job.IdempotencyKey;
import dev.onebeat.transport.TraceContext;
import dev.onebeat.transport.internal.pickle.JsonValues;
import dev.onebeat.transport.internal.pickle.PickleWriter;
import dev.onebeat.transport.internal.pickle.PythonRepr;
import dev.onebeat.transport.internal.pickle.PythonTuple;
import dev.onebeat.transport.internal.redis.RedisCommand;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.zip.Deflater;

/**
 * Encodes a task as an RQ job that an unmodified RQ worker runs: {@code data} is the zlib'd pickle of
 * {@code (function, None, args, kwargs)}, the function named by its dotted path.
 *
 * <p>The job id is a UUID, so the readable key and the scheduled instant travel in the job's
 * {@code meta}: the pickle of {@code {"idempotency_key": key, "scheduled_at": instant}}, not zlib'd
 * (RQ's default serializer, unlike {@code data}, never compresses), which a worker's
 * {@code rq.get_current_job().meta} returns.
 *
 * <p>RQ does not deduplicate: the job id is fixed by the idempotency key, so publishing the same
 * task twice enqueues it twice under one id, and preventing that is the relay's job.
 */
final class RqEncoder {

    /** RQ's default job timeout in seconds, written as the queue would. */
    static final String DEFAULT_TIMEOUT = "180";
    /** The {@code meta} entry holding the readable idempotency key. */
    public static final String META_IDEMPOTENCY_KEY = "idempotency_key";
    /** The {@code meta} entry holding the fire's scheduled instant, ISO-8601 UTC ({@link Instant#toString()}). */
    public static final String META_SCHEDULED_AT = "scheduled_at";
    private static final int DESCRIPTION_ARG_LENGTH = 75;
    // RQ's parser is strict: six fraction digits and a literal Z, nothing else
    private static final DateTimeFormatter RQ_TIME =
            DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSS'Z'").withZone(ZoneOffset.UTC);
    private static final List<String> EMPTY_FIELDS = List.of("success_callback_name", "failure_callback_name",
            "stopped_callback_name", "started_at", "ended_at", "last_heartbeat", "worker_name", "group_id");

    private RqEncoder() {
    }

    /**
     * @param function the dotted path of the Python function, such as {@code rqtasks.add}
     * @param queue the RQ queue name, such as {@code default}
     * @param key the task's idempotency key; the job id is its UUIDv5
     * @param scheduledAt the fire's logical scheduled instant, written with the key in {@code meta}
     * @param argsJson the positional arguments, a JSON array (or {@code null})
     * @param kwargsJson the keyword arguments, a JSON object (or {@code null})
     * @param enqueuedAt the publish time, written as {@code created_at} and {@code enqueued_at}
     * @return the job and the commands that enqueue it
     * @throws IllegalArgumentException if a name is blank or the arguments are not JSON of the expected shape
     */
    public static RqJob encode(String function, String queue, IdempotencyKey key, Instant scheduledAt, String argsJson,
            String kwargsJson, Instant enqueuedAt) {
        return encode(function, queue, key, scheduledAt, argsJson, kwargsJson, enqueuedAt, TraceContext.NONE);
    }

    /**
     * As {@link #encode(String, String, IdempotencyKey, Instant, String, String, Instant)}, with the trace the job
     * continues in its {@code meta} ({@code job.meta["traceparent"]}).
     */
    public static RqJob encode(String function, String queue, IdempotencyKey key, Instant scheduledAt, String argsJson,
            String kwargsJson, Instant enqueuedAt, TraceContext trace) {
        requireText(function, "function");
        requireText(queue, "queue");
        Objects.requireNonNull(key, "key must not be null");
        Objects.requireNonNull(scheduledAt, "scheduledAt must not be null");
        Objects.requireNonNull(enqueuedAt, "enqueuedAt must not be null");
        List<Object> args = JsonValues.args(argsJson);
        Map<String, Object> kwargs = JsonValues.kwargs(kwargsJson);

        // a UUID fits RQ's [A-Za-z0-9_-]+ id rule; the key itself has '/' and ':'
        String id = key.toUuid().toString();
        String jobKey = "rq:job:" + id;
        String queueKey = "rq:queue:" + queue;
        String time = RQ_TIME.format(enqueuedAt);

        Map<String, byte[]> fields = new LinkedHashMap<>();
        fields.put("data", zlib(PickleWriter.dumps(PythonTuple.of(function, null, new PythonTuple(args), kwargs))));
        fields.put("created_at", utf8(time));
        fields.put("enqueued_at", utf8(time));
        fields.put("origin", utf8(queue));
        fields.put("description", utf8(description(function, args, kwargs)));
        fields.put("status", utf8("queued"));
        fields.put("timeout", utf8(DEFAULT_TIMEOUT));
        fields.put("meta", PickleWriter.dumps(meta(key, scheduledAt, trace)));
        EMPTY_FIELDS.forEach(name -> fields.put(name, new byte[0]));

        return new RqJob(id, jobKey, queueKey, fields, commands(id, jobKey, queueKey, fields));
    }

    private static Map<String, Object> meta(IdempotencyKey key, Instant scheduledAt, TraceContext trace) {
        Map<String, Object> meta = new LinkedHashMap<>();
        meta.put(META_IDEMPOTENCY_KEY, key.value());
        meta.put(META_SCHEDULED_AT, scheduledAt.toString());
        meta.putAll(trace.fields());
        return meta;
    }

    private static List<RedisCommand> commands(String id, String jobKey, String queueKey, Map<String, byte[]> fields) {
        List<Object> hset = new ArrayList<>(List.of("HSET", jobKey));
        fields.forEach((name, value) -> {
            hset.add(name);
            hset.add(value);
        });
        return List.of(
                RedisCommand.of("SADD", "rq:queues", queueKey),
                RedisCommand.of("MULTI"),
                RedisCommand.of("HSET", jobKey, "status", "queued"),
                RedisCommand.of(hset.toArray()),
                // a hash left by an earlier run of this id keeps its result_ttl, which HSET does not
                // clear: without this the requeued job could expire while waiting and be skipped silently
                RedisCommand.of("PERSIST", jobKey),
                RedisCommand.of("RPUSH", queueKey, id),
                RedisCommand.of("EXEC"));
    }

    // RQ's get_call_string: reprs cut at 75 characters, keyword arguments sorted by their text
    static String description(String function, List<Object> args, Map<String, Object> kwargs) {
        List<String> parts = new ArrayList<>();
        args.forEach(arg -> parts.add(truncate(PythonRepr.of(arg))));
        List<String> keywords = new ArrayList<>();
        kwargs.forEach((name, value) -> keywords.add(name + "=" + truncate(PythonRepr.of(value))));
        keywords.sort(null);
        parts.addAll(keywords);
        return function + "(" + String.join(", ", parts) + ")";
    }

    private static String truncate(String repr) {
        return repr.length() > DESCRIPTION_ARG_LENGTH ? repr.substring(0, DESCRIPTION_ARG_LENGTH) + "..." : repr;
    }

    private static byte[] zlib(byte[] raw) {
        Deflater deflater = new Deflater();
        try {
            deflater.setInput(raw);
            deflater.finish();
            ByteArrayOutputStream out = new ByteArrayOutputStream(raw.length + 16);
            byte[] buffer = new byte[512];
            while (!deflater.finished()) {
                out.write(buffer, 0, deflater.deflate(buffer));
            }
            return out.toByteArray();
        } finally {
            deflater.end();
        }
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static void requireText(String value, String name) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException(name + " must not be blank, was '" + value + "'");
        }
    }
}
