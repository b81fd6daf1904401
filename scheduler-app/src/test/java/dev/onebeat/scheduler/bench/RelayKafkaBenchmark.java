package dev.onebeat.scheduler.bench;

import dev.onebeat.scheduler.engine.relay.RelayProperties;
import dev.onebeat.transport.OutboundTask;
import dev.onebeat.transport.kafka.KafkaTransportProvider;
import dev.onebeat.transport.testing.KafkaTestBroker;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.utils.AppInfoParser;

/**
 * Relay throughput to Kafka, against a hand-written {@code KafkaProducer} loop of the same records
 * on the same broker. Prints the figure of {@code PERFORMANCE.md}'s "relay to Kafka" target; run it
 * with {@code bench/relay-kafka.sh} (see {@link RelayKafkaOptions#USAGE}).
 *
 * <p>The broker is {@code ONEBEAT_BENCH_KAFKA}, or else a single-node broker of the benchmark's own
 * ({@link KafkaTestBroker}, a child JVM), started for the run and removed after it. For each node
 * count and batch size, rounds of three sides (the relay, the raw producer, the raw database loop)
 * take turns ({@link RelayCycles}) on one topic of the benchmark's own. A onebeat round drains a freshly filled outbox routed to the {@code kafka}
 * transport (claim, publish and wait for every acknowledgement, mark, as the relay thread does) and
 * is checked afterwards: every row {@code published}, the topic's end offsets grown by one record
 * per row. A raw round sends the same records, built beforehand by the transport's own code, with
 * the transport's producer settings, a batch per flush, and is checked the same way.
 */
public final class RelayKafkaBenchmark {

    /** The broker's name in the relay settings. */
    static final String BROKER = "kafka";

    private final RelayKafkaOptions options;
    private final BenchDatabase database;
    private final RelayOutbox outbox;
    private final BenchTopic topic;
    private final String servers;
    private final String brokerOrigin;

    private RelayKafkaBenchmark(RelayKafkaOptions options, BenchDatabase database, RelayOutbox outbox, BenchTopic topic,
                                String servers, String brokerOrigin) {
        this.options = options;
        this.database = database;
        this.outbox = outbox;
        this.topic = topic;
        this.servers = servers;
        this.brokerOrigin = brokerOrigin;
    }

    public static void main(String[] args) throws Exception {
        RelayKafkaOptions options = BenchOptions.parseOrExit(args, RelayKafkaOptions.USAGE, RelayKafkaOptions::parse);
        if (options == null) {
            return;
        }
        boolean own = options.kafka().isEmpty();
        long start = System.nanoTime();
        try (KafkaTestBroker broker = own ? KafkaTestBroker.start() : null) {
            String servers = own ? broker.bootstrapServers() : options.kafka();
            String origin = own
                    ? String.format(Locale.ROOT, "Kafka %s (KafkaTestBroker: one KRaft node in a child JVM, started in"
                            + " %.1f s)", AppInfoParser.getVersion(), (System.nanoTime() - start) / 1e9)
                    : "Kafka of " + RelayKafkaOptions.KAFKA_VARIABLE;
            try (BenchTopic topic = BenchTopic.create(servers, options.partitions(), !own);
                 BenchDatabase database = BenchDatabase.create(options.adminUrl());
                 RelayOutbox outbox = RelayOutbox.create(database, topic.name())) {
                new RelayKafkaBenchmark(options, database, outbox, topic, servers, origin).run();
            }
        }
    }

    private void run() throws Exception {
        outbox.refill(options.messages());
        List<OutboundTask> tasks = outbox.tasks();
        printHeader(tasks);
        long idleCommits = outbox.settledCommits();
        idleCommits = outbox.settledCommits() - idleCommits;
        List<RelayFigures> figures = new ArrayList<>();
        for (int nodes : options.nodes()) {
            for (int batchSize : options.batchSizes()) {
                figures.add(measure(nodes, batchSize, tasks, idleCommits));
            }
        }
        System.out.println();
        RelayFigures.printTable(figures, options.messages());
    }

    private RelayFigures measure(int nodes, int batchSize, List<OutboundTask> tasks, long idleCommits) throws Exception {
        RelayCycles.announce(nodes, options.concurrency(), batchSize);
        RelayStages stages = new RelayStages();
        RelayProperties properties = RelayNodes.properties(topic.name(), "kafka", BROKER,
                new RelayProperties.Broker("kafka", servers, options.producer()), batchSize, RelayNodes.POLL_INTERVAL);
        try (RelayNodes relay = RelayNodes.open(outbox.pool(), properties, new KafkaTransportProvider(), nodes,
                options.concurrency(), stages);
             RawKafkaProducer raw = RawKafkaProducer.open(servers, options.producer(), nodes)) {
            RelayFigures result = new RelayCycles(outbox, options.messages(), options.warmups(), options.rounds())
                    .measure(nodes, batchSize, relay, stages, kafka(raw), tasks, idleCommits);
            result.print(options.messages());
            return result;
        }
    }

    /** The topic, counted by its end offsets from before each round, and the raw producers of the transport's records. */
    private RelayCycles.Broker<ProducerRecord<byte[], byte[]>> kafka(RawKafkaProducer raw) {
        return new RelayCycles.Broker<>() {
            private long mark;

            @Override
            public void reset() throws Exception {
                mark = topic.endOffsets();
            }

            @Override
            public void requireReceived(long expected, String after) throws Exception {
                long added = topic.endOffsets() - mark;
                if (added != expected) {
                    throw new IllegalStateException("after " + after + " the topic's end offsets grew by " + added
                            + " records, expected " + expected);
                }
            }

            @Override
            public List<ProducerRecord<byte[], byte[]>> encode(List<OutboundTask> tasks) {
                return RawKafkaProducer.encode(tasks, topic.name());
            }

            @Override
            public int publish(List<ProducerRecord<byte[], byte[]>> records, int batchSize) throws Exception {
                return raw.publish(records, batchSize);
            }
        };
    }

    private void printHeader(List<OutboundTask> tasks) throws Exception {
        List<ProducerRecord<byte[], byte[]>> records = RawKafkaProducer.encode(tasks, topic.name());
        double value = records.stream().mapToInt(record -> record.value().length).average().orElse(0);
        double key = records.stream().mapToInt(record -> record.key().length).average().orElse(0);
        ProducerRecord<byte[], byte[]> sample = records.get(records.size() / 2);
        int headerBytes = 0;
        for (var header : sample.headers()) {
            headerBytes += header.key().length() + header.value().length;
        }
        System.out.printf(Locale.ROOT, "relay to Kafka benchmark %s%n  database: %s%n  settings: %s%n"
                        + "  broker: %s; %s%n  topic %s, %d partitions%n"
                        + "  producer, both sides (the kafka transport's settings): %s%n"
                        + "  client: %d cores, Java %s, kafka-clients %s, load average %.2f at start%n"
                        + "  database %s; %,d messages per round; %d warm-up + %d measured cycles per setting%n"
                        + "  record: value (TaskJson) %.0f bytes on average, key %.0f bytes, %d headers of %d bytes%n",
                Instant.now().truncatedTo(ChronoUnit.SECONDS), database.serverVersion(), database.settings(),
                brokerOrigin, topic.cluster(), topic.name(), topic.partitions(), producerSettings(),
                Runtime.getRuntime().availableProcessors(), System.getProperty("java.version"),
                AppInfoParser.getVersion(), RelayCycles.loadAverage(), database.name(), options.messages(),
                options.warmups(), options.rounds(), value, key, sample.headers().toArray().length, headerBytes);
    }

    /** @return the transport's producer settings, without those that only name things */
    private String producerSettings() {
        Map<String, Object> config = new TreeMap<>(RawKafkaProducer.config(servers, options.producer(),
                "onebeat-bench"));
        config.remove(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG);
        config.remove(ProducerConfig.CLIENT_ID_CONFIG);
        config.remove(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG);
        config.remove(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG);
        return config.entrySet().stream().map(entry -> entry.getKey() + "=" + entry.getValue())
                .collect(Collectors.joining(", ")) + ", otherwise Kafka's defaults";
    }
}
