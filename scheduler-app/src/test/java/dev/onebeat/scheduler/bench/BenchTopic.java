package dev.onebeat.scheduler.bench;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeClusterResult;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.TopicPartition;

/**
 * The benchmark's Kafka topic: a unique name, created with the broker's default replication,
 * counted by its partitions' end offsets (a topic cannot be emptied, so each round counts what it
 * added), and deleted at the end, on Ctrl-C too if the cluster outlives the run.
 */
final class BenchTopic implements AutoCloseable {

    private static final Duration READY_TIMEOUT = Duration.ofSeconds(30);
    private static final long ADMIN_TIMEOUT_SECONDS = 30;

    private final Admin admin;
    private final String servers;
    private final String name;
    private final Map<TopicPartition, OffsetSpec> latest;
    private boolean closed;

    private BenchTopic(Admin admin, String servers, String name, int partitions) {
        this.admin = admin;
        this.servers = servers;
        this.name = name;
        this.latest = IntStream.range(0, partitions).mapToObj(p -> new TopicPartition(name, p))
                .collect(Collectors.toMap(Function.identity(), p -> OffsetSpec.latest()));
    }

    /**
     * Creates the topic and waits until each partition has a leader.
     *
     * @param onInterrupt whether a JVM shutdown deletes the topic too: for a cluster that outlives the run
     * @throws IllegalStateException if the cluster is not there, saying where it was looked for
     */
    static BenchTopic create(String servers, int partitions, boolean onInterrupt) {
        String name = "onebeat-bench-relay-" + UUID.randomUUID().toString().substring(0, 8);
        Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, servers,
                AdminClientConfig.CLIENT_ID_CONFIG, "onebeat-bench-topic",
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) TimeUnit.SECONDS.toMillis(ADMIN_TIMEOUT_SECONDS)));
        BenchTopic topic = new BenchTopic(admin, servers, name, partitions);
        try {
            admin.createTopics(Set.of(new NewTopic(name, Optional.of(partitions), Optional.empty())))
                    .all().get(ADMIN_TIMEOUT_SECONDS, TimeUnit.SECONDS);
            if (onInterrupt) {
                Runtime.getRuntime().addShutdownHook(new Thread(topic::close, "delete-" + name));
            }
            topic.awaitLeaders();
            return topic;
        } catch (Exception e) {
            admin.close(Duration.ZERO);
            throw new IllegalStateException("could not create topic " + name + " on Kafka at " + servers
                    + " (" + RelayKafkaOptions.KAFKA_VARIABLE + "): " + e, e);
        }
    }

    String name() {
        return name;
    }

    /** @return the cluster as its metadata describes it: id and broker count */
    String cluster() throws Exception {
        DescribeClusterResult cluster = admin.describeCluster();
        return "cluster " + cluster.clusterId().get(ADMIN_TIMEOUT_SECONDS, TimeUnit.SECONDS) + ", "
                + cluster.nodes().get(ADMIN_TIMEOUT_SECONDS, TimeUnit.SECONDS).size() + " broker(s) at " + servers;
    }

    int partitions() {
        return latest.size();
    }

    /** @return the records the topic holds, or ever held: the sum of its partitions' end offsets */
    long endOffsets() throws Exception {
        ListOffsetsResult offsets = admin.listOffsets(latest);
        long sum = 0;
        for (ListOffsetsResult.ListOffsetsResultInfo info
                : offsets.all().get(ADMIN_TIMEOUT_SECONDS, TimeUnit.SECONDS).values()) {
            sum += info.offset();
        }
        return sum;
    }

    /** A new topic's partitions answer for their offsets once they have leaders. */
    private void awaitLeaders() throws Exception {
        long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
        while (true) {
            try {
                endOffsets();
                return;
            } catch (ExecutionException e) {
                if (System.nanoTime() > deadline) {
                    throw e;
                }
                BenchDatabase.sleep(Duration.ofMillis(100));
            }
        }
    }

    /** Deletes the topic. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            admin.deleteTopics(Set.of(name)).all().get(ADMIN_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (Exception e) {
            System.err.println("could not delete topic " + name + ": " + e);
        } finally {
            admin.close(Duration.ofSeconds(5));
        }
    }
}
