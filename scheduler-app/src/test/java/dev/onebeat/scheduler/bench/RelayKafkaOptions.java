package dev.onebeat.scheduler.bench;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What {@link RelayKafkaBenchmark} runs. Arguments are {@code --name=value}; the servers come from
 * the environment.
 *
 * @param adminUrl JDBC URL of a database on the server the benchmark database is created on
 * @param kafka bootstrap servers of the Kafka cluster both sides publish to; empty to start a
 *     single-node broker of the benchmark's own
 * @param messages outbox rows per round, and records per raw round
 * @param warmups unmeasured cycles (one round of each side) before the measured ones
 * @param rounds measured cycles
 * @param batchSizes {@code onebeat.relay.batch-size} values, also the raw producer's records per flush
 * @param nodes relay nodes to measure (one producer each), also the raw producers
 * @param concurrency relay loops per node sharing its producer, as {@code onebeat.relay.concurrency}
 * @param partitions partitions of the benchmark's topic
 * @param producer producer properties given to both sides: the relay's broker {@code properties}, and the raw
 *     producer's, over the transport's defaults (to measure a setting before it becomes one)
 */
record RelayKafkaOptions(String adminUrl, String kafka, int messages, int warmups, int rounds,
                         List<Integer> batchSizes, List<Integer> nodes, int concurrency, int partitions,
                         Map<String, String> producer) {

    static final String KAFKA_VARIABLE = "ONEBEAT_BENCH_KAFKA";

    static final String USAGE = """
            usage: relay-kafka.sh [--messages=100000] [--warmups=1] [--rounds=3] [--batch-sizes=500] [--nodes=1,2]
                                  [--concurrency=2] [--partitions=3] [--producer=name=value,name=value] [--help]
            --producer may be given more than once; a value holding a comma needs an --producer of its own
            environment: %s (default %s), %s (host:port[,host:port]; default: a broker of its own, started for the run)
            """.formatted(BenchOptions.URL_VARIABLE, BenchOptions.DEFAULT_ADMIN_URL, KAFKA_VARIABLE);

    RelayKafkaOptions {
        BenchOptions.requireAtLeast("messages", messages, 1);
        BenchOptions.requireAtLeast("warmups", warmups, 0);
        BenchOptions.requireAtLeast("rounds", rounds, 1);
        BenchOptions.requireAtLeast("concurrency", concurrency, 1);
        BenchOptions.requireAtLeast("partitions", partitions, 1);
        if (!adminUrl.startsWith("jdbc:postgresql:")) {
            throw new IllegalArgumentException(BenchOptions.URL_VARIABLE + " must be a jdbc:postgresql: URL");
        }
        if (!kafka.isEmpty() && !kafka.matches("[^,\\s]+:[0-9]{1,5}(,[^,\\s]+:[0-9]{1,5})*")) {
            throw new IllegalArgumentException(KAFKA_VARIABLE + " must be host:port[,host:port], was '" + kafka + "'");
        }
        batchSizes.forEach(size -> BenchOptions.requireAtLeast("batch-sizes", size, 1));
        nodes.forEach(count -> BenchOptions.requireAtLeast("nodes", count, 1));
        if (batchSizes.isEmpty() || nodes.isEmpty()) {
            throw new IllegalArgumentException("batch-sizes and nodes must each name at least one value");
        }
        batchSizes = List.copyOf(batchSizes);
        nodes = List.copyOf(nodes);
        producer = Collections.unmodifiableMap(new LinkedHashMap<>(producer));
    }

    /** @throws IllegalArgumentException naming the argument that is unknown or malformed */
    static RelayKafkaOptions parse(String[] args, Map<String, String> environment) {
        String adminUrl = environment.getOrDefault(BenchOptions.URL_VARIABLE, BenchOptions.DEFAULT_ADMIN_URL).strip();
        String kafka = environment.getOrDefault(KAFKA_VARIABLE, "").strip();
        // not RabbitMQ's 20,000: a raw round of 20,000 records lasts about 0.2 s, too short to time on a shared machine
        int messages = 100_000;
        int warmups = 1;
        int rounds = 3;
        String batchSizes = "500";
        String nodes = "1,2";
        int concurrency = 2;
        int partitions = 3;
        Map<String, String> producer = new LinkedHashMap<>();
        for (String arg : args) {
            String name = BenchOptions.argName(arg);
            String value = BenchOptions.argValue(arg);
            switch (name) {
                case "--messages" -> messages = BenchOptions.number(name, value);
                case "--warmups" -> warmups = BenchOptions.number(name, value);
                case "--rounds" -> rounds = BenchOptions.number(name, value);
                case "--batch-sizes" -> batchSizes = value;
                case "--nodes" -> nodes = value;
                case "--concurrency" -> concurrency = BenchOptions.number(name, value);
                case "--partitions" -> partitions = BenchOptions.number(name, value);
                case "--producer" -> properties(name, value, producer);
                default -> throw new IllegalArgumentException("unknown argument " + arg);
            }
        }
        return new RelayKafkaOptions(adminUrl, kafka, messages, warmups, rounds,
                BenchOptions.numbers("--batch-sizes", batchSizes), BenchOptions.numbers("--nodes", nodes), concurrency,
                partitions, producer);
    }

    /** Adds the {@code name=value} pairs of {@code list} to {@code into}; a value without a comma in it. */
    private static void properties(String option, String list, Map<String, String> into) {
        String[] pairs = list.contains("=") && list.indexOf('=') == list.lastIndexOf('=') ? new String[] {list}
                : list.split(",");
        for (String pair : pairs) {
            int equals = pair.indexOf('=');
            String name = equals < 0 ? "" : pair.substring(0, equals).strip();
            if (name.isEmpty()) {
                throw new IllegalArgumentException(option + " takes name=value pairs separated by commas, was '"
                        + list + "'");
            }
            into.put(name, pair.substring(equals + 1).strip());
        }
    }
}
