package dev.onebeat.scheduler.bench;

import dev.onebeat.transport.OutboundTask;
import dev.onebeat.transport.celery.CeleryTransportParts;
import dev.onebeat.transport.internal.amqp.AmqpMessage;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Relay throughput to RabbitMQ with publisher confirms, against a hand-written amqp-client
 * publisher of the same messages on the same broker, and the wake-up latency of an idle relay.
 * Prints the figures of {@code PERFORMANCE.md}; run it with {@code bench/relay.sh} (see
 * {@link RelayOptions#USAGE}).
 *
 * <p>For each node count and batch size, rounds of the relay, the raw publisher and the raw database
 * loop take turns ({@link RelayCycles}), each on a freshly filled outbox and an emptied queue. A onebeat round drains the committed rows (claim,
 * publish with confirms, mark, as the relay thread does) and is checked afterwards: every row
 * {@code published}, every message in the queue. A raw round publishes the same messages, encoded
 * beforehand, in batches of the same size. Then one more onebeat round counts the database's commits.
 */
public final class RelayBenchmark {

    private static final int UNWOKEN_SAMPLES = 5;

    private final RelayOptions options;
    private final BenchDatabase database;
    private final RelayOutbox outbox;
    private final BenchQueue queue;

    private RelayBenchmark(RelayOptions options, BenchDatabase database, RelayOutbox outbox, BenchQueue queue) {
        this.options = options;
        this.database = database;
        this.outbox = outbox;
        this.queue = queue;
    }

    public static void main(String[] args) throws Exception {
        RelayOptions options = BenchOptions.parseOrExit(args, RelayOptions.USAGE, RelayOptions::parse);
        if (options == null) {
            return;
        }
        try (BenchQueue queue = BenchQueue.create(options.amqpUrl());
             BenchDatabase database = BenchDatabase.create(options.adminUrl());
             RelayOutbox outbox = RelayOutbox.create(database, queue.name())) {
            new RelayBenchmark(options, database, outbox, queue).run();
        }
    }

    private void run() throws Exception {
        outbox.refill(options.messages());
        List<OutboundTask> tasks = outbox.tasks();
        printHeader(tasks);
        queue.declareAsCelery(tasks.get(0).queue());
        long idleCommits = outbox.settledCommits();
        idleCommits = outbox.settledCommits() - idleCommits;
        List<RelayFigures> figures = new ArrayList<>();
        for (int nodes : options.nodes()) {
            for (int batchSize : options.batchSizes()) {
                figures.add(measure(nodes, batchSize, tasks, idleCommits));
            }
        }
        List<List<Double>> latency = List.of();
        if (options.latencySamples() > 0) {
            latency = new WakeLatency(outbox, queue, options.amqpUrl()).measure(options.latencySamples(), UNWOKEN_SAMPLES);
        }
        printSummary(figures, latency);
    }

    private RelayFigures measure(int nodes, int batchSize, List<OutboundTask> tasks, long idleCommits) throws Exception {
        RelayCycles.announce(nodes, options.concurrency(), batchSize);
        RelayStages stages = new RelayStages();
        try (RelayNodes relay = RelayNodes.open(outbox.pool(), queue.name(), options.amqpUrl(), nodes,
                options.concurrency(), batchSize, stages);
             RawConfirmPublisher raw = RawConfirmPublisher.open(options.amqpUrl(), nodes)) {
            RelayFigures result = new RelayCycles(outbox, options.messages(), options.warmups(), options.rounds())
                    .measure(nodes, batchSize, relay, stages, rabbit(raw), tasks, idleCommits);
            result.print(options.messages());
            return result;
        }
    }

    /** The queue, emptied before every round, and the raw confirm publisher of the celery transport's messages. */
    private RelayCycles.Broker<AmqpMessage> rabbit(RawConfirmPublisher raw) {
        return new RelayCycles.Broker<>() {
            @Override
            public void reset() throws Exception {
                queue.purge();
            }

            @Override
            public void requireReceived(long expected, String after) throws Exception {
                queue.requireCount(expected, after);
            }

            @Override
            public List<AmqpMessage> encode(List<OutboundTask> tasks) {
                return RawConfirmPublisher.encode(tasks, RelayNodes.origin(0));
            }

            @Override
            public int publish(List<AmqpMessage> messages, int batchSize) throws Exception {
                return raw.publish(messages, batchSize);
            }
        };
    }

    private void printHeader(List<OutboundTask> tasks) {
        AmqpMessage sample = CeleryTransportParts.amqpMessage(tasks.get(tasks.size() / 2), RelayNodes.origin(0));
        double payload = tasks.stream().mapToInt(task -> task.payload().toJson().length()).average().orElse(0);
        System.out.printf(Locale.ROOT, "relay benchmark %s%n  database: %s%n  settings: %s%n  broker: RabbitMQ %s,"
                        + " queue %s%n  client: %d cores, Java %s, load average %.2f at start%n"
                        + "  database %s; %,d messages per round; %d warm-up + %d measured cycles per setting%n"
                        + "  message: celery protocol 2, payload JSON %.0f bytes on average, body %d bytes, %d headers,"
                        + " persistent, mandatory%n", Instant.now().truncatedTo(ChronoUnit.SECONDS),
                database.serverVersion(), database.settings(), queue.version(), queue.name(),
                Runtime.getRuntime().availableProcessors(), System.getProperty("java.version"), RelayCycles.loadAverage(),
                database.name(), options.messages(), options.warmups(), options.rounds(), payload,
                sample.body().length, sample.properties().getHeaders().size());
    }

    private void printSummary(List<RelayFigures> figures, List<List<Double>> latency) {
        System.out.println();
        RelayFigures.printTable(figures, options.messages());
        if (!latency.isEmpty()) {
            System.out.println("wake-up latency, row commit to delivery, idle relay polling every 1 s:");
            System.out.println("  commit + wake(): " + WakeLatency.describe(latency.get(0)));
            System.out.println("  commit, no wake (poll only): " + WakeLatency.describe(latency.get(1)));
        }
    }
}
