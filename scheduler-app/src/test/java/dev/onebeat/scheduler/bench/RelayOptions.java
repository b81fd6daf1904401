package dev.onebeat.scheduler.bench;

import java.util.List;
import java.util.Map;

/**
 * What {@link RelayBenchmark} runs. Arguments are {@code --name=value}; the servers come from the
 * environment.
 *
 * @param adminUrl JDBC URL of a database on the server the benchmark database is created on
 * @param amqpUrl the RabbitMQ both sides publish to
 * @param messages outbox rows per round, and messages per raw round
 * @param warmups unmeasured cycles (one round of each side) before the measured ones
 * @param rounds measured cycles
 * @param batchSizes {@code onebeat.relay.batch-size} values, also the raw publisher's confirm batch
 * @param nodes relay nodes to measure (one broker connection each), also the raw publishers
 * @param concurrency relay loops per node sharing its connection, as {@code onebeat.relay.concurrency}
 * @param latencySamples wake-up latency samples; 0 skips the latency part
 */
record RelayOptions(String adminUrl, String amqpUrl, int messages, int warmups, int rounds, List<Integer> batchSizes,
                    List<Integer> nodes, int concurrency, int latencySamples) {

    static final String AMQP_URL_VARIABLE = "ONEBEAT_BENCH_AMQP_URL";
    static final String DEFAULT_AMQP_URL = "amqp://guest:guest@127.0.0.1:5672/%2F";

    static final String USAGE = """
            usage: relay.sh [--messages=20000] [--warmups=1] [--rounds=3] [--batch-sizes=500] [--nodes=1,2]
                            [--concurrency=2] [--latency-samples=50] [--help]
            environment: %s (default %s), %s (default %s)
            """.formatted(BenchOptions.URL_VARIABLE, BenchOptions.DEFAULT_ADMIN_URL, AMQP_URL_VARIABLE, DEFAULT_AMQP_URL);

    RelayOptions {
        BenchOptions.requireAtLeast("messages", messages, 1);
        BenchOptions.requireAtLeast("warmups", warmups, 0);
        BenchOptions.requireAtLeast("rounds", rounds, 1);
        BenchOptions.requireAtLeast("latency-samples", latencySamples, 0);
        BenchOptions.requireAtLeast("concurrency", concurrency, 1);
        if (!adminUrl.startsWith("jdbc:postgresql:")) {
            throw new IllegalArgumentException(BenchOptions.URL_VARIABLE + " must be a jdbc:postgresql: URL");
        }
        if (!amqpUrl.startsWith("amqp://") && !amqpUrl.startsWith("amqps://")) {
            throw new IllegalArgumentException(AMQP_URL_VARIABLE + " must be an amqp:// or amqps:// URL");
        }
        batchSizes.forEach(size -> BenchOptions.requireAtLeast("batch-sizes", size, 1));
        nodes.forEach(count -> BenchOptions.requireAtLeast("nodes", count, 1));
        if (batchSizes.isEmpty() || nodes.isEmpty()) {
            throw new IllegalArgumentException("batch-sizes and nodes must each name at least one value");
        }
        batchSizes = List.copyOf(batchSizes);
        nodes = List.copyOf(nodes);
    }

    /** @throws IllegalArgumentException naming the argument that is unknown or malformed */
    static RelayOptions parse(String[] args, Map<String, String> environment) {
        String adminUrl = environment.getOrDefault(BenchOptions.URL_VARIABLE, BenchOptions.DEFAULT_ADMIN_URL).strip();
        String amqpUrl = environment.getOrDefault(AMQP_URL_VARIABLE, DEFAULT_AMQP_URL).strip();
        int messages = 20_000;
        int warmups = 1;
        int rounds = 3;
        String batchSizes = "500";
        String nodes = "1,2";
        int latencySamples = 50;
        int concurrency = 2;
        for (String arg : args) {
            String name = BenchOptions.argName(arg);
            String value = BenchOptions.argValue(arg);
            switch (name) {
                case "--messages" -> messages = BenchOptions.number(name, value);
                case "--warmups" -> warmups = BenchOptions.number(name, value);
                case "--rounds" -> rounds = BenchOptions.number(name, value);
                case "--batch-sizes" -> batchSizes = value;
                case "--nodes" -> nodes = value;
                case "--latency-samples" -> latencySamples = BenchOptions.number(name, value);
                case "--concurrency" -> concurrency = BenchOptions.number(name, value);
                default -> throw new IllegalArgumentException("unknown argument " + arg);
            }
        }
        return new RelayOptions(adminUrl, amqpUrl, messages, warmups, rounds,
                BenchOptions.numbers("--batch-sizes", batchSizes), BenchOptions.numbers("--nodes", nodes), concurrency,
                latencySamples);
    }
}
