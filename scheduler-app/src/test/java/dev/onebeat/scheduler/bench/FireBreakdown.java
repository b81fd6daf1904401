package dev.onebeat.scheduler.bench;

import dev.onebeat.job.IdempotencyKey;
import dev.onebeat.job.Jobs;
import dev.onebeat.job.PeriodicJob;
import dev.onebeat.job.Schedule;
import dev.onebeat.job.TaskRequest;
import dev.onebeat.scheduler.bench.RawMultiRowInsert.Commit;
import dev.onebeat.scheduler.outbox.JsonValues;
import dev.onebeat.scheduler.outbox.OutboxTask;
import dev.onebeat.scheduler.outbox.OutboxWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.databind.json.JsonMapper;

/**
 * Times the stages of a fire apart, each over the same number of tasks, to show where a fire's
 * time goes: the job building its requests, what {@code FireContext.dispatch} does to each in
 * memory (key, JSON checks, serialization), the outbox insert on its own, and the fixed cost of a
 * fire that dispatches nothing (lock, ledger, commit, unlock).
 *
 * <p>The in-memory stages repeat {@code FireContext.dispatch}'s steps with the same public calls,
 * since that class is private to its package; keep them in step with it.
 */
final class FireBreakdown {

    private static final String JOB = "fan-out-stages";

    private final BenchOptions options;
    private final BenchDatabase database;
    private final OnebeatInstance instance;
    private final Supplier<Instant> instants;
    private final JsonMapper json;
    private final int batchSize;

    FireBreakdown(BenchOptions options, BenchDatabase database, OnebeatInstance instance, Supplier<Instant> instants) {
        this.options = options;
        this.database = database;
        this.instance = instance;
        this.instants = instants;
        this.json = instance.bean(JsonMapper.class);
        this.batchSize = options.batchSizes().get(0);
    }

    void run(PhaseResult fire) throws Exception {
        int n = options.entities();
        System.out.printf(Locale.ROOT, "stages of a fire of %,d tasks, each timed alone (batch-size %d), median of %d"
                + " rounds:%n", n, batchSize, options.rounds());
        print("whole fire (onebeat phase above)", fire.rates());
        Instant at = Instant.parse("2030-06-01T00:00:00Z");
        List<TaskRequest> requests = requests(n);
        stage("job body: build the TaskRequests", index -> requests(n).size());
        stage("dispatch: derive idempotency keys", index -> keys(requests, at));
        stage("dispatch: check args/kwargs are JSON values", index -> validate(requests));
        stage("dispatch: serialize payloads (Jackson)", index -> serialize(requests));
        stage("job body + dispatch in memory, all of the above", index -> outboxTasks(at).size());
        stage("OutboxWriter.insert alone, " + statements(n) + " statements, 1 commit", outboxInsert());
        try (RawSession raw = new RawSession(database, batchSize)) {
            stage("raw multi-row insert, " + statements(n) + " statements, 1 commit", index -> raw.insert()
                    .insert("fan-out-raw-once", instants.get(), n, Commit.ONCE));
        }
        PeriodicJob empty = Jobs.periodic("empty", Schedule.every(Duration.ofSeconds(1))).execute(ctx -> { });
        Rates fires = Rounds.time(options.warmups(), options.rounds(), index -> {
            instance.fire(empty, instants.get());
            return 1;
        });
        System.out.printf(Locale.ROOT, "  %-58s %8.2f ms%n", "a fire that dispatches nothing (lock, ledger, unlock)",
                1000 / fires.median());
    }

    private int statements(int tasks) {
        return (tasks + batchSize - 1) / batchSize;
    }

    private void stage(String label, Rounds.Round round) {
        print(label, Rounds.time(options.warmups(), options.rounds(), round));
    }

    private void print(String label, Rates rates) {
        System.out.printf(Locale.ROOT, "  %-58s %8.2f ms %12s rows/s%n", label,
                rates.medianMillis(options.entities()), Rates.grouped(rates.median()));
    }

    private Rounds.Round outboxInsert() {
        OutboxWriter writer = instance.bean(OutboxWriter.class);
        TransactionTemplate transactions = instance.bean(TransactionTemplate.class);
        List<Instant> scheduled = new ArrayList<>();
        List<List<OutboxTask>> prepared = new ArrayList<>();
        for (int i = 0; i < options.warmups() + options.rounds(); i++) {
            scheduled.add(instants.get());
            prepared.add(outboxTasks(scheduled.get(i)));
        }
        return index -> transactions.execute(status -> {
            List<OutboxTask> tasks = prepared.get(index);
            int inserted = 0;
            for (int from = 0; from < tasks.size(); from += batchSize) {
                inserted += writer.insert(JOB, scheduled.get(index),
                        tasks.subList(from, Math.min(tasks.size(), from + batchSize)));
            }
            return inserted;
        });
    }

    private List<TaskRequest> requests(int count) {
        List<TaskRequest> requests = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            requests.add(ReminderTasks.request(i));
        }
        return requests;
    }

    private static int keys(List<TaskRequest> requests, Instant at) {
        int length = 0;
        for (TaskRequest request : requests) {
            length += IdempotencyKey.of(JOB, at, request.task(), request.entity()).value().length();
        }
        return length > 0 ? requests.size() : 0;
    }

    private static int validate(List<TaskRequest> requests) {
        for (TaskRequest request : requests) {
            JsonValues.requireJson("args", request.args());
            JsonValues.requireJson("kwargs", request.kwargs());
        }
        return requests.size();
    }

    private int serialize(List<TaskRequest> requests) {
        int length = 0;
        for (TaskRequest request : requests) {
            length += json.writeValueAsString(payload(request)).length();
        }
        return length > 0 ? requests.size() : 0;
    }

    /** What {@code FireContext.dispatch} builds for each request before the insert. */
    private List<OutboxTask> outboxTasks(Instant at) {
        List<OutboxTask> tasks = new ArrayList<>(options.entities());
        for (TaskRequest request : requests(options.entities())) {
            JsonValues.requireJson("args", request.args());
            JsonValues.requireJson("kwargs", request.kwargs());
            IdempotencyKey key = IdempotencyKey.of(JOB, at, request.task(), request.entity());
            tasks.add(new OutboxTask(key, request.task(), request.queue(), request.entity(),
                    json.writeValueAsString(payload(request)), request.notBefore()));
        }
        return tasks;
    }

    private static Map<String, Object> payload(TaskRequest request) {
        Map<String, Object> payload = new LinkedHashMap<>(2);
        payload.put("args", request.args());
        payload.put("kwargs", request.kwargs());
        return payload;
    }
}
