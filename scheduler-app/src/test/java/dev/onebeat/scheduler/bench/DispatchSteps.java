package dev.onebeat.scheduler.bench;

import dev.onebeat.job.IdempotencyKey;
import dev.onebeat.job.TaskRequest;
import dev.onebeat.scheduler.engine.outbox.JsonValues;
import dev.onebeat.scheduler.engine.outbox.OutboxTask;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import tools.jackson.databind.json.JsonMapper;

/**
 * The in-memory work of a fire, step by step, each a {@link Rounds.Round} over {@code entities}
 * tasks: the job building its requests, then what {@code FireContext.dispatch} does to each. The
 * steps repeat {@code FireContext.dispatch} with the same public calls, since that class is private
 * to its package; keep them in step with it.
 *
 * <p>Every step adds up something of its results, so that the JIT cannot drop the work.
 */
final class DispatchSteps {

    private final JsonMapper json;
    private final int entities;
    private final List<TaskRequest> requests;

    DispatchSteps(JsonMapper json, int entities) {
        this.json = json;
        this.entities = entities;
        this.requests = requests(entities);
    }

    Rounds.Round buildRequests() {
        return index -> requests(entities).size();
    }

    Rounds.Round deriveKeys(String job, Instant scheduledAt) {
        return index -> {
            int length = 0;
            for (TaskRequest request : requests) {
                length += IdempotencyKey.of(job, scheduledAt, request.task(), request.entity()).value().length();
            }
            return length > 0 ? requests.size() : 0;
        };
    }

    Rounds.Round checkJson() {
        return index -> {
            for (TaskRequest request : requests) {
                JsonValues.requireJson("args", request.args());
                JsonValues.requireJson("kwargs", request.kwargs());
            }
            return requests.size();
        };
    }

    Rounds.Round serialize() {
        return index -> {
            int length = 0;
            for (TaskRequest request : requests) {
                length += json.writeValueAsString(request.args()).length()
                        + json.writeValueAsString(request.kwargs()).length();
            }
            return length > 0 ? requests.size() : 0;
        };
    }

    /** All of it: what a fire holds in memory before its inserts. */
    Rounds.Round all(String job, Instant scheduledAt) {
        return index -> outboxTasks(job, scheduledAt).size();
    }

    /** @return the rows {@code FireContext.dispatch} would hand to the outbox for a fire at {@code scheduledAt} */
    List<OutboxTask> outboxTasks(String job, Instant scheduledAt) {
        List<OutboxTask> tasks = new ArrayList<>(entities);
        for (TaskRequest request : requests(entities)) {
            JsonValues.requireJson("args", request.args());
            JsonValues.requireJson("kwargs", request.kwargs());
            IdempotencyKey key = IdempotencyKey.of(job, scheduledAt, request.task(), request.entity());
            tasks.add(OutboxTask.of(key, request, null, json, Long.MAX_VALUE, null, null));
        }
        return tasks;
    }

    private static List<TaskRequest> requests(int count) {
        List<TaskRequest> requests = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            requests.add(ReminderTasks.request(i));
        }
        return requests;
    }
}
