package dev.onebeat.scheduler.bench;

import dev.onebeat.transport.OutboundTask;
import dev.onebeat.transport.amqp.AmqpMessage;
import dev.onebeat.transport.celery.CeleryAmqpMessage;
import dev.onebeat.transport.celery.CeleryMessage;
import java.lang.management.ManagementFactory;
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
 * <p>For each node count and batch size, rounds of both sides alternate (onebeat first in even
 * cycles, raw first in odd ones), each on a freshly filled outbox and an emptied queue. A onebeat
 * round drains the committed rows (claim, publish with confirms, mark, as the relay thread does)
 * and is checked afterwards: every row {@code published}, every message in the queue. A raw round
 * publishes the same messages, encoded beforehand, in batches of the same size. Then one more
 * onebeat round counts the database's commits.
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
        queue.declare(CeleryAmqpMessage.of(CeleryMessage.of(tasks.get(0), RelayNodes.origin(0))).declaration());
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
        System.out.printf(Locale.ROOT, "%d node(s) x %d loop(s), batch-size %d: load average %.2f%n", nodes,
                options.concurrency(), batchSize, loadAverage());
        RelayStages stages = new RelayStages();
        try (RelayNodes relay = RelayNodes.open(outbox.pool(), queue.name(), options.amqpUrl(), nodes,
                options.concurrency(), batchSize, stages);
             RawConfirmPublisher raw = RawConfirmPublisher.open(options.amqpUrl(), nodes)) {
            List<Double> onebeat = new ArrayList<>();
            List<Double> baseline = new ArrayList<>();
            List<double[]> stageTimes = new ArrayList<>();
            List<Double> encodeTimes = new ArrayList<>();
            for (int cycle = 0; cycle < options.warmups() + options.rounds(); cycle++) {
                boolean measured = cycle >= options.warmups();
                for (int turn = 0; turn < 2; turn++) {
                    if ((cycle + turn) % 2 == 0) {
                        double rate = onebeatRound(relay, stages);
                        if (measured) {
                            onebeat.add(rate);
                            stageTimes.add(stages.millisPerThousand(options.messages()));
                        }
                    } else {
                        long encodeStart = System.nanoTime();
                        List<AmqpMessage> messages = RawConfirmPublisher.encode(tasks, RelayNodes.origin(0));
                        double encodeMillis = (System.nanoTime() - encodeStart) / 1e6 * 1000 / tasks.size();
                        double rate = rawRound(raw, messages, batchSize);
                        if (measured) {
                            baseline.add(rate);
                            encodeTimes.add(encodeMillis);
                        }
                    }
                }
            }
            Comparison inTurn = new Comparison(new Rates(onebeat), new Rates(baseline));
            outbox.refill(options.messages());
            queue.purge();
            long before = outbox.settledCommits();
            relay.drain();
            long commits = outbox.settledCommits() - before;
            RelayFigures result = new RelayFigures(nodes, batchSize, inTurn, commits, idleCommits, medians(stageTimes),
                    Rates.median(encodeTimes));
            result.print(options.messages());
            return result;
        }
    }

    /** @return messages/s of one drain of a freshly filled outbox */
    private double onebeatRound(RelayNodes relay, RelayStages stages) throws Exception {
        outbox.refill(options.messages());
        queue.purge();
        stages.reset();
        long start = System.nanoTime();
        int claimed = relay.drain();
        long elapsed = System.nanoTime() - start;
        String left = outbox.unpublished();
        if (claimed != options.messages() || !left.isEmpty()) {
            throw new IllegalStateException("the relay claimed " + claimed + " of " + options.messages()
                    + " rows; not published: " + left);
        }
        queue.requireCount(options.messages(), "a relay round");
        return options.messages() * 1e9 / elapsed;
    }

    /** @return messages/s of one raw publish of {@code messages} */
    private double rawRound(RawConfirmPublisher raw, List<AmqpMessage> messages, int batchSize) throws Exception {
        queue.purge();
        long start = System.nanoTime();
        int published = raw.publish(messages, batchSize);
        long elapsed = System.nanoTime() - start;
        queue.requireCount(messages.size(), "a raw round");
        return published * 1e9 / elapsed;
    }

    private static double[] medians(List<double[]> perRound) {
        double[] medians = new double[perRound.get(0).length];
        for (int stage = 0; stage < medians.length; stage++) {
            int s = stage;
            medians[stage] = Rates.median(perRound.stream().map(times -> times[s]).toList());
        }
        return medians;
    }

    private static double loadAverage() {
        return ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
    }

    private void printHeader(List<OutboundTask> tasks) {
        CeleryAmqpMessage sample = CeleryAmqpMessage.of(CeleryMessage.of(tasks.get(tasks.size() / 2),
                RelayNodes.origin(0)));
        double payload = tasks.stream().mapToInt(task -> task.payloadJson().length()).average().orElse(0);
        System.out.printf(Locale.ROOT, "relay benchmark %s%n  database: %s%n  settings: %s%n  broker: RabbitMQ %s,"
                        + " queue %s%n  client: %d cores, Java %s, load average %.2f at start%n"
                        + "  database %s; %,d messages per round; %d warm-up + %d measured cycles per setting%n"
                        + "  message: celery protocol 2, payload JSON %.0f bytes on average, body %d bytes, %d headers,"
                        + " persistent, mandatory%n", Instant.now().truncatedTo(ChronoUnit.SECONDS),
                database.serverVersion(), database.settings(), queue.version(), queue.name(),
                Runtime.getRuntime().availableProcessors(), System.getProperty("java.version"), loadAverage(),
                database.name(), options.messages(), options.warmups(), options.rounds(), payload,
                sample.body().length, sample.headers().size());
    }

    private void printSummary(List<RelayFigures> figures, List<List<Double>> latency) {
        System.out.println();
        System.out.println("| nodes | batch | onebeat msgs/s median (best) | raw msgs/s median (best) | ratio"
                + " | median per-cycle ratio | commits per message (net) |");
        System.out.println("|---|---|---|---|---|---|---|");
        figures.forEach(figure -> System.out.println(figure.row(options.messages())));
        if (!latency.isEmpty()) {
            System.out.println("wake-up latency, row commit to delivery, idle relay polling every 1 s:");
            System.out.println("  commit + wake(): " + WakeLatency.describe(latency.get(0)));
            System.out.println("  commit, no wake (poll only): " + WakeLatency.describe(latency.get(1)));
        }
    }
}
