package dev.onebeat.scheduler.bench;

import dev.onebeat.scheduler.engine.cluster.DatabaseFaults;
import dev.onebeat.testsupport.PrivatePostgres;
import dev.onebeat.testsupport.jvm.Faketime;
import dev.onebeat.transport.testing.PrivateRedis;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a chaos run inflicts its faults on: scheduler replicas as JVMs of their own (the last one under libfaketime
 * when a skew is asked for), a database on a private PostgreSQL server (or the user's), and a private Redis broker
 * that the relay publishes every task to as Celery messages. It restarts a replica that exits by itself and counts
 * it: a replica must survive faults, so such an exit is a finding, not noise.
 */
final class ChaosCluster implements AutoCloseable {

    static final String QUEUE = "chaos";
    static final String SINGLE_JOB = "chaos-single";
    private static final Pattern SKEW_LOGGED = Pattern.compile("database time minus replica time = (-?\\d+) ms");

    private final ChaosOptions options;
    private final PrivatePostgres postgres;
    private final BenchDatabase database;
    private final PrivateRedis redis;
    private final ReplicaProcesses replicas;
    private final List<String> arguments;
    private final List<String> ids = new ArrayList<>();
    private final List<String> exits = new ArrayList<>();
    private int kills;

    private ChaosCluster(ChaosOptions options, PrivatePostgres postgres, BenchDatabase database, PrivateRedis redis,
                         Path logDir) {
        this.options = options;
        this.postgres = postgres;
        this.database = database;
        this.redis = redis;
        ReplicaCommand command = new ReplicaCommand(ReplicaCommand.classPath().java(), options.replicaJvmOptions(),
                ReplicaCommand.classPath().jar());
        this.replicas = new ReplicaProcesses(database, logDir, command);
        this.arguments = replicaArguments(options.groupJobs(), redis.url());
        for (int i = 1; i <= options.replicas(); i++) {
            ids.add("replica-" + i);
        }
    }

    /** Starts the servers (the private PostgreSQL one unless the options name the user's), not yet the replicas. */
    static ChaosCluster start(ChaosOptions options, Path logDir) throws IOException {
        PrivatePostgres postgres = null;
        BenchDatabase database = null;
        PrivateRedis redis = null;
        try {
            String adminUrl = options.externalAdminUrl();
            if (adminUrl == null) {
                postgres = PrivatePostgres.startPrimary("chaos");
                adminUrl = postgres.jdbcUrl("postgres") + "&user=" + PrivatePostgres.SUPERUSER;
            }
            database = BenchDatabase.create(adminUrl);
            redis = PrivateRedis.start();
            return new ChaosCluster(options, postgres, database, redis, logDir);
        } catch (IOException | RuntimeException e) {
            closeQuietly(redis, database, postgres);
            throw e;
        }
    }

    /** The group's jobs, when the whole group is due, fire as one schedule in batches of 8 jobs per transaction. */
    static String groupJob(int index) {
        return String.format(Locale.ROOT, "chaos-group-%02d", index);
    }

    private static List<String> replicaArguments(int groupJobs, String brokerUrl) {
        List<String> arguments = new ArrayList<>(DatabaseFaults.tokens());
        arguments.addAll(job(0, SINGLE_JOB, "1s"));
        for (int i = 1; i <= groupJobs; i++) {
            arguments.addAll(job(i, groupJob(i), "2s"));
        }
        arguments.addAll(List.of("--onebeat.fire.batch.jobs=8", "--onebeat.fire.batch.max-jobs=8",
                "--onebeat.relay.brokers.chaos.type=redis", "--onebeat.relay.brokers.chaos.url=" + brokerUrl,
                "--onebeat.relay.queues." + QUEUE + ".transport=celery", "--onebeat.relay.queues." + QUEUE + ".broker=chaos",
                // a killed replica's claimed rows go to another relay after this lease; the calm must outlast it
                "--onebeat.relay.claim-lease=10s"));
        return arguments;
    }

    private static List<String> job(int index, String name, String every) {
        String prefix = "--onebeat.jobs[" + index + "].";
        return List.of(prefix + "name=" + name, prefix + "every=" + every, prefix + "task=chaos.tick",
                prefix + "queue=" + QUEUE);
    }

    /**
     * Launches every replica not launched yet and waits until each has started, launching again any that exits meanwhile.
     *
     * @throws IllegalStateException if they are not all up within {@code timeout}
     */
    void startReplicas(Duration timeout) throws InterruptedException {
        ids.stream().filter(id -> replicas.process(id) == null).forEach(this::launch);
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!ids.stream().allMatch(replicas::hasStarted)) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("replicas " + ids.stream().filter(id -> !replicas.hasStarted(id)).toList()
                        + " not started within " + timeout + ", see " + replicas.logs());
            }
            supervise();
            Thread.sleep(500);
        }
    }

    /** Waits until at least one replica's web server answers (one is enough to read the instants API). */
    void awaitAnyStarted(Duration timeout) throws InterruptedException {
        ids.stream().filter(id -> replicas.process(id) == null).forEach(this::launch);
        long deadline = System.nanoTime() + timeout.toNanos();
        while (ids.stream().noneMatch(replicas::hasStarted)) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("no replica started within " + timeout + ", see " + replicas.logs());
            }
            supervise();
            Thread.sleep(500);
        }
    }

    /**
     * @return how far ahead of this JVM's clock the skewed replica dates its HTTP answers ({@code Date}, whole
     *     seconds, so up to 1 s below its skew), the most of five answers; empty without a skewed replica
     */
    Optional<Long> skewSeen() throws InterruptedException {
        if (options.skew().isZero()) {
            return Optional.empty();
        }
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        URI health = URI.create(replicas.baseUrl(ids.get(ids.size() - 1)) + "/actuator/health");
        long most = Long.MIN_VALUE;
        for (int i = 0; i < 5; i++) {
            try {
                HttpResponse<Void> response = http.send(HttpRequest.newBuilder(health).timeout(Duration.ofSeconds(5))
                        .build(), HttpResponse.BodyHandlers.discarding());
                long received = System.currentTimeMillis();
                Optional<String> date = response.headers().firstValue("Date");
                if (date.isPresent()) {
                    long dated = ZonedDateTime.parse(date.get(), DateTimeFormatter.RFC_1123_DATE_TIME).toInstant()
                            .toEpochMilli();
                    most = Math.max(most, dated - received);
                }
            } catch (IOException e) {
                // a replica restarting: the other answers will do
            }
            Thread.sleep(230);
        }
        return most == Long.MIN_VALUE ? Optional.empty() : Optional.of(most);
    }

    List<String> ids() {
        return List.copyOf(ids);
    }

    boolean skewed(String id) {
        return !options.skew().isZero() && id.equals(ids.get(ids.size() - 1));
    }

    private void launch(String id) {
        if (!skewed(id)) {
            replicas.launch(id, arguments);
            return;
        }
        // only the wall clock is meant to move: the JVM's timers and timed waits keep the real pace
        String offset = "+" + options.skew().toMillis() / 1000.0 + "s";
        replicas.launch(id, arguments, List.of(Faketime.COMMAND.toString(), "-f", offset), Faketime.WALL_CLOCK_ONLY);
    }

    /** {@code kill -9} of the replica, launched again at once on the same instance id. */
    void killReplica(String id) {
        replicas.kill(id);
        kills++;
        launch(id);
    }

    /** Launches again every replica that exited without being killed, noting its id and exit status. */
    void supervise() {
        for (String id : ids) {
            Process process = replicas.process(id);
            if (process != null && !process.isAlive()) {
                exits.add(id + " exited with status " + process.exitValue() + " (" + replicas.log(id).getFileName() + ")");
                launch(id);
            }
        }
    }

    int kills() {
        return kills;
    }

    /** @return the replicas that exited by themselves, one line each */
    List<String> exits() {
        return List.copyOf(exits);
    }

    /** Terminates every session of the database, a round every 0.3 s for {@code during}. */
    int killSessions(Duration during) throws InterruptedException {
        return DatabaseFaults.killSessions(database::connect, during, Duration.ofMillis(300));
    }

    void stopPostgres() {
        postgres.stop();
    }

    void startPostgres() {
        postgres.start();
    }

    void killBroker() throws InterruptedException {
        redis.killServer();
    }

    void startBroker() throws IOException {
        redis.startServer();
    }

    BenchDatabase database() {
        return database;
    }

    PrivateRedis broker() {
        return redis;
    }

    /** @return the base URLs of the replicas running now, in id order */
    List<String> baseUrls() {
        return ids.stream().filter(id -> replicas.process(id) != null && replicas.process(id).isAlive())
                .map(replicas::baseUrl).toList();
    }

    /** @return database time minus the skewed replica's time, as its clock check logged it at its last start */
    Optional<Long> skewLogged() {
        if (options.skew().isZero()) {
            return Optional.empty();
        }
        String id = ids.get(ids.size() - 1);
        try {
            Matcher logged = SKEW_LOGGED.matcher(Files.readString(replicas.log(id)));
            return logged.find() ? Optional.of(Long.parseLong(logged.group(1))) : Optional.empty();
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    @Override
    public void close() {
        // the run is over and read: a graceful stop, one replica after another, would only add to its time
        ids.forEach(replicas::kill);
        replicas.close();
        closeQuietly(redis, database, postgres);
    }

    private static void closeQuietly(AutoCloseable... resources) {
        for (AutoCloseable resource : resources) {
            if (resource == null) {
                continue;
            }
            try {
                resource.close();
            } catch (Exception e) {
                System.err.println("could not close " + resource + ": " + e);
            }
        }
    }
}
