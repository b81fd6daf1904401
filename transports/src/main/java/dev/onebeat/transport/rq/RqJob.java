package dev.onebeat.transport.rq;

import dev.onebeat.transport.internal.redis.RedisCommand;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * An encoded RQ job.
 *
 * @param id the job id, {@code [A-Za-z0-9_-]+}
 * @param jobKey {@code rq:job:<id>}
 * @param queueKey {@code rq:queue:<queue>}
 * @param fields the job hash, field to value bytes, in write order
 * @param commands what a publisher runs, in order, to enqueue the job
 */
record RqJob(String id, String jobKey, String queueKey, Map<String, byte[]> fields, List<RedisCommand> commands) {

    /** Copies the collections; callers must not see later changes. */
    public RqJob {
        Objects.requireNonNull(id, "id must not be null");
        Objects.requireNonNull(jobKey, "jobKey must not be null");
        Objects.requireNonNull(queueKey, "queueKey must not be null");
        fields = Collections.unmodifiableMap(new LinkedHashMap<>(Objects.requireNonNull(fields, "fields must not be null")));
        commands = List.copyOf(Objects.requireNonNull(commands, "commands must not be null"));
    }
}
