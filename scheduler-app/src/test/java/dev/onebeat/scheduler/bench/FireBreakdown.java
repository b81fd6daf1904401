package dev.onebeat.scheduler.bench;

import dev.onebeat.job.Jobs;
import dev.onebeat.job.PeriodicJob;
import dev.onebeat.job.Schedule;
import dev.onebeat.scheduler.bench.RawMultiRowInsert.Commit;
import dev.onebeat.scheduler.engine.outbox.OutboxTask;
import dev.onebeat.scheduler.engine.outbox.OutboxWriter;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.databind.json.JsonMapper;

/**
 * Times the stages of a fire apart, each over the same number of tasks, to show where a fire's
 * time goes: the in-memory steps ({@link DispatchSteps}), building the JDBC arrays the outbox
 * statement binds, the outbox insert on its own, the raw insert in the same single transaction,
 * and the fixed cost of a fire that dispatches nothing (lock, ledger, commit, unlock).
 */
final class FireBreakdown {

    private static final String JOB = "fan-out-stages";
    // the in-memory steps take milliseconds: many more rounds cost little and steady the JIT
    private static final int CHEAP_WARMUPS = 20;
    private static final int CHEAP_ROUNDS = 30;

    private final BenchOptions options;
    private final BenchDatabase database;
    private final OnebeatInstance instance;
    private final Supplier<Instant> instants;
    private final DispatchSteps steps;
    private final int batchSize;

    FireBreakdown(BenchOptions options, BenchDatabase database, OnebeatInstance instance, Supplier<Instant> instants) {
        this.options = options;
        this.database = database;
        this.instance = instance;
        this.instants = instants;
        this.steps = new DispatchSteps(instance.bean(JsonMapper.class), options.entities());
        this.batchSize = options.batchSizes().get(0);
    }

    /** @param fire the fires timed in turn with the raw baseline, for reference */
    void run(Comparison fire) throws SQLException {
        System.out.printf(Locale.ROOT, "stages of a fire of %,d tasks (batch-size %d), timed apart, in turn, median:%n",
                options.entities(), batchSize);
        print("whole fire (in turn with raw, above)", fire.onebeat());
        print("raw multi-row insert, 1 commit per statement (in turn, above)", fire.raw());
        Instant at = instants.get();
        try (Connection connection = database.connect()) {
            inTurn(CHEAP_WARMUPS, CHEAP_ROUNDS, new Stage("job body: build the TaskRequests", steps.buildRequests()),
                    new Stage("dispatch: derive idempotency keys", steps.deriveKeys(JOB, at)),
                    new Stage("dispatch: check args/kwargs are JSON values", steps.checkJson()),
                    new Stage("dispatch: serialize payloads (Jackson)", steps.serialize()),
                    new Stage("job body + dispatch in memory, all of the above", steps.all(JOB, at)),
                    new Stage("OutboxWriter: build the 7 JDBC arrays per statement",
                            arrays(connection, steps.outboxTasks(JOB, at))));
        }
        try (RawSession raw = new RawSession(database, batchSize)) {
            inTurn(options.warmups(), options.rounds(),
                    new Stage("OutboxWriter.insert alone, " + statements() + " statements, 1 commit", outboxInsert()),
                    new Stage("raw multi-row insert, " + statements() + " statements, 1 commit", index -> raw.insert()
                            .insert("fan-out-raw-once", instants.get(), options.entities(), Commit.ONCE)));
        }
        PeriodicJob empty = Jobs.periodic("empty", Schedule.every(Duration.ofSeconds(1))).execute(ctx -> { });
        Rates fires = Rounds.time(options.warmups(), options.rounds(), index -> {
            instance.fire(empty, instants.get());
            return 1;
        });
        System.out.printf(Locale.ROOT, "  %-62s %8.2f ms%n", "a fire that dispatches nothing (lock, ledger, unlock)",
                1000 / fires.median());
    }

    private record Stage(String label, Rounds.Round round) {
    }

    private void inTurn(int warmups, int rounds, Stage... stages) {
        List<Rates> rates = Rounds.inTurn(warmups, rounds, Stream.of(stages).map(Stage::round).toList());
        for (int i = 0; i < stages.length; i++) {
            print(stages[i].label(), rates.get(i));
        }
    }

    private void print(String label, Rates rates) {
        System.out.printf(Locale.ROOT, "  %-62s %8.2f ms %12s rows/s%n", label,
                rates.medianMillis(options.entities()), Rates.grouped(rates.median()));
    }

    private int statements() {
        return (options.entities() + batchSize - 1) / batchSize;
    }

    /** The arrays {@code OutboxWriter.insert} builds and binds, built the same way and dropped. */
    private Rounds.Round arrays(Connection connection, List<OutboxTask> tasks) {
        return index -> {
            for (int from = 0; from < tasks.size(); from += batchSize) {
                List<OutboxTask> batch = tasks.subList(from, Math.min(tasks.size(), from + batchSize));
                int n = batch.size();
                String[] keys = new String[n], names = new String[n], queues = new String[n], types = new String[n],
                        ids = new String[n], payloads = new String[n], notBefore = new String[n];
                for (int i = 0; i < n; i++) {
                    OutboxTask task = batch.get(i);
                    keys[i] = task.key().value();
                    names[i] = task.task();
                    queues[i] = task.queue();
                    types[i] = task.entity().type();
                    ids[i] = task.entity().id();
                    payloads[i] = task.payload().toJson();
                }
                for (String[] column : List.of(keys, names, queues, types, ids)) {
                    connection.createArrayOf("varchar", column).free();
                }
                connection.createArrayOf("text", payloads).free();
                connection.createArrayOf("text", notBefore).free();
            }
            return tasks.size();
        };
    }

    /** {@code OutboxWriter.insert} on rows built beforehand, in batches, in one transaction as in a fire. */
    private Rounds.Round outboxInsert() {
        OutboxWriter writer = instance.bean(OutboxWriter.class);
        TransactionTemplate transactions = instance.bean(TransactionTemplate.class);
        List<Instant> scheduled = new ArrayList<>();
        List<List<OutboxTask>> prepared = new ArrayList<>();
        for (int i = 0; i < options.warmups() + options.rounds(); i++) {
            scheduled.add(instants.get());
            prepared.add(steps.outboxTasks(JOB, scheduled.get(i)));
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
}
