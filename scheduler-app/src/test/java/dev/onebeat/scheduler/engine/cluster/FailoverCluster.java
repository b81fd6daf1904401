package dev.onebeat.scheduler.engine.cluster;

import static org.awaitility.Awaitility.await;

import dev.onebeat.testsupport.PrivatePostgres;
import dev.onebeat.testsupport.TestDatabase;
import dev.onebeat.transport.testing.RabbitTestBroker;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Stream;
import javax.sql.DataSource;
import org.postgresql.ds.PGSimpleDataSource;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * The fixture of {@link FailoverIT}: a private primary with a streaming standby, three scheduler JVMs on a multi-host
 * URL ({@code targetServerType=primary}) naming the primary, the standby and the ports of the standbys later failovers
 * promote, a job written in code due every second ({@link ReplicaMain#JOB}, 100 tasks) and a group of jobs defined by
 * data on one shared schedule, fired in batches; every task relayed to a uniquely named RabbitMQ queue
 * ({@link BrokerKeys}).
 */
final class FailoverCluster implements AutoCloseable {

    static final String DATABASE = "onebeat";
    static final int GROUP_JOBS = 10;
    /** Nodes the replicas' URL names: the first primary and the standbys of four failovers. */
    private static final int NODES = 5;

    private final List<PrivatePostgres> nodes = new ArrayList<>();
    private final List<Integer> ports = new ArrayList<>();
    private PrivatePostgres primary;
    private PrivatePostgres standby;
    private BrokerKeys broker;
    private Replicas replicas;
    private Instant runStart;

    /** Starts the database nodes, the broker's queue and the replicas, and waits until every job has fired. */
    static FailoverCluster start() throws Exception {
        FailoverCluster cluster = new FailoverCluster();
        try {
            cluster.startNodesAndReplicas();
        } catch (Exception | AssertionError e) {
            cluster.close();
            throw e;
        }
        return cluster;
    }

    private void startNodesAndReplicas() throws Exception {
        primary = node(PrivatePostgres.startPrimary("failover_0"));
        primary.createDatabase(DATABASE);
        ports.add(primary.port());
        while (ports.size() < NODES) {
            int port = PrivatePostgres.freePort();
            if (!ports.contains(port)) {
                ports.add(port);
            }
        }
        standby = node(primary.startStandby("failover_1", ports.get(1)));
        broker = new BrokerKeys("failover");
        String url = PrivatePostgres.multiHostUrlOfPorts(DATABASE, ports);
        replicas = new Replicas(new TestDatabase(DATABASE, url, PrivatePostgres.SUPERUSER, ""), "failover");
        replicas.startThreeAndAwaitCluster("fanout", new Ledger(dataSource(primary)), arguments());
        await().atMost(Duration.ofMinutes(1)).pollInterval(Duration.ofMillis(500))
                .until(() -> committed(ReplicaMain.JOB) >= 2 && committed(group(0)) >= 2);
        runStart = Instant.now().truncatedTo(java.time.temporal.ChronoUnit.SECONDS).plusSeconds(1);
    }

    private String[] arguments() {
        List<String> arguments = new ArrayList<>(List.of(
                "--onebeat.relay.brokers.rabbit.type=rabbitmq",
                "--onebeat.relay.brokers.rabbit.url=" + RabbitTestBroker.URL,
                "--onebeat.relay.queues.fanout.transport=amqp",
                "--onebeat.relay.queues.fanout.broker=rabbit",
                "--onebeat.relay.queues.fanout.options.routing-key=" + broker.queue(),
                // several batches per instant, so that a failover can fall between two of them
                "--onebeat.fire.batch.jobs=4"));
        for (int i = 0; i < GROUP_JOBS; i++) {
            String job = "--onebeat.jobs[" + i + "].";
            arguments.addAll(List.of(job + "name=" + group(i), job + "every=1s", job + "task=group.tick",
                    job + "queue=fanout", job + "alerts.grace=5s"));
        }
        arguments.addAll(DatabaseFaults.tokens());
        return arguments.toArray(String[]::new);
    }

    static String group(int index) {
        return String.format(Locale.ROOT, "group-%02d", index);
    }

    /** @return every job the replicas fire */
    static List<String> jobs() {
        return Stream.concat(Stream.of(ReplicaMain.JOB),
                java.util.stream.IntStream.range(0, GROUP_JOBS).mapToObj(FailoverCluster::group)).toList();
    }

    PrivatePostgres primary() {
        return primary;
    }

    PrivatePostgres standby() {
        return standby;
    }

    Replicas replicas() {
        return replicas;
    }

    BrokerKeys broker() {
        return broker;
    }

    /** @return the first whole second after every job had fired on the cluster */
    Instant runStart() {
        return runStart;
    }

    /**
     * Starts a streaming standby of the primary on the next port of the replicas' URL and waits until it has caught
     * up; with {@code synchronous}, every commit on the primary then waits for it.
     */
    PrivatePostgres newStandby(boolean synchronous) {
        int index = nodes.size();
        standby = node(primary.startStandby("failover_" + index, ports.get(index)));
        primary.awaitStandbyCaughtUp(standby.name(), Duration.ofSeconds(30));
        if (synchronous) {
            primary.requireSynchronousStandby(standby.name());
        }
        return standby;
    }

    /**
     * Promotes the standby, which becomes the primary the checks read.
     *
     * @return the fires committed on it when it began to accept writes
     */
    long promoteStandby() {
        standby.promote();
        primary = standby;
        standby = null;
        return fires();
    }

    /** @return fires of every job committed on the primary */
    long fires() {
        return jdbc().sql("SELECT count(*) FROM onebeat_fire").query(Long.class).single();
    }

    long committed(String job) {
        return jdbc().sql("SELECT count(*) FROM onebeat_fire WHERE job_name = ?").param(job).query(Long.class)
                .single();
    }

    /** @return fires of {@code job} for instants after {@code after} */
    long committedAfter(String job, Instant after) {
        return jdbc().sql("SELECT count(*) FROM onebeat_fire WHERE job_name = ? AND scheduled_at > ?")
                .params(job, Timestamp.from(after)).query(Long.class).single();
    }

    /**
     * Polls the primary until it holds more than {@code baseline} fires.
     *
     * @return when it first did, or empty if not within {@code atMost}
     */
    Optional<Instant> awaitNewCommit(long baseline, Duration atMost) {
        long deadline = System.nanoTime() + atMost.toNanos();
        while (System.nanoTime() < deadline) {
            try {
                if (fires() > baseline) {
                    return Optional.of(Instant.now());
                }
            } catch (RuntimeException e) {
                // the new primary briefly refusing a connection is not a commit: ask again
            }
            pause(Duration.ofMillis(100));
        }
        return Optional.empty();
    }

    /** @return tasks of instants up to {@code upTo} that no relay has yet published */
    long unpublished(Instant upTo) {
        return jdbc().sql("SELECT count(*) FROM onebeat_task WHERE status <> 'published' AND scheduled_at <= ?")
                .param(Timestamp.from(upTo)).query(Long.class).single();
    }

    /** @return tasks the primary records as published (a broker confirmed them) */
    long published() {
        return jdbc().sql("SELECT count(*) FROM onebeat_task WHERE status = 'published'").query(Long.class).single();
    }

    long tasks() {
        return jdbc().sql("SELECT count(*) FROM onebeat_task").query(Long.class).single();
    }

    /** @return the (job, instant) pairs committed more than once on the primary */
    long duplicateCommits() {
        return DatabaseFaults.duplicateCommits(jdbc());
    }

    JdbcClient jdbc() {
        return JdbcClient.create(dataSource(primary));
    }

    private static DataSource dataSource(PrivatePostgres node) {
        PGSimpleDataSource dataSource = new PGSimpleDataSource();
        // the test's own reads must not hang on a frozen node
        dataSource.setURL(node.jdbcUrl(DATABASE) + "&socketTimeout=10");
        dataSource.setUser(PrivatePostgres.SUPERUSER);
        return dataSource;
    }

    private PrivatePostgres node(PrivatePostgres node) {
        nodes.add(node);
        return node;
    }

    static void pause(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    @Override
    public void close() throws Exception {
        if (replicas != null) {
            replicas.close();
        }
        if (broker != null) {
            broker.close();
        }
        nodes.forEach(PrivatePostgres::close);
    }
}
