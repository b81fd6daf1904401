package dev.onebeat.transport.testing;

import dev.onebeat.testsupport.jvm.JavaLauncher;
import dev.onebeat.testsupport.jvm.JavaProcess;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.lang.reflect.InvocationTargetException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.errors.TopicExistsException;

/**
 * A real, single-node Apache Kafka broker for tests, run in a child JVM.
 *
 * <p>Why: the transport tests need a real broker's behaviour (idempotent producers, consumer groups,
 * committed offsets that survive a broker restart, a broker that dies mid-run), and the CI machine
 * has no Docker, so Testcontainers cannot run there. This broker is the one published on Maven
 * Central ({@code org.apache.kafka:kafka_2.13}, a test-scoped dependency), run in KRaft mode as one
 * combined broker+controller node: no ZooKeeper, no container, nothing downloaded at run time.
 *
 * <p>Why a child JVM and not a broker inside the test JVM: a test can stop, SIGKILL and restart it
 * the way an operator would; its threads, Scala runtime and logging stay out of the test JVM; and a
 * broker that hangs cannot hang the test JVM.
 *
 * <p>How: {@link #start()} picks two free loopback ports (client listener and controller listener),
 * writes {@code server.properties} into a new temp directory and launches {@code java} on the
 * Maven-repository jars of this JVM's class path (the test class path, which holds Kafka) with
 * {@link ChildMain} as entry point. On the first launch that entry point formats the storage
 * ({@code kafka.tools.StorageTool format}, which is what {@code kafka-storage.sh format} runs) and
 * then runs {@code kafka.Kafka server.properties} in the same JVM, which saves starting a second
 * JVM. {@link #start()} returns once an admin client sees the broker, unfenced, in the cluster
 * metadata; it gives up after 60 s.
 *
 * <p>Startup time: the child runs with a small heap, the serial collector and the C1 compiler
 * only, and with an application class-data-sharing archive of the Kafka classes, which roughly
 * halves the JVM's part of a start. The archive is made once per JVM and class path (the first
 * broker JVM dumps it when it is stopped cleanly) and kept under {@code java.io.tmpdir} in
 * {@code kafka-test-broker-cache/}; {@code -Dkafka.test.broker.cds=false} turns it off.
 *
 * <p>The child's stdout and stderr go to {@code broker.log} in the temp directory; a start that
 * fails throws with the last 50 lines of it. {@link #stop()}, {@link #kill()} and
 * {@link #restart()} keep the data directory, so a restarted broker has every record and committed
 * offset it had. {@link #close()} stops the broker and deletes the temp directory. A JVM shutdown
 * hook kills the child if a test never closes it, and the child halts by itself when the test JVM
 * is gone even if that JVM was SIGKILLed and ran no hooks.
 *
 * <p>Not thread-safe: one test, or one test class, drives one instance.
 */
public final class KafkaTestBroker implements AutoCloseable {

    /** Node id of the single combined broker+controller node. */
    private static final int NODE_ID = 1;
    private static final String HOST = "127.0.0.1";
    private static final long READY_TIMEOUT_MS = 60_000;
    private static final Duration STOP_GRACE = Duration.ofSeconds(10);
    private static final int LOG_TAIL_LINES = 50;
    private static final int START_ATTEMPTS = 3;
    /** Exit status of a JVM ended by SIGKILL (128 + 9). */
    private static final int EXIT_SIGKILL = 137;

    /** Besides the launcher's {@link JavaLauncher#FAST_START} options. */
    private static final List<String> CHILD_JVM_OPTIONS = List.of(
            "-Xms128m",
            "-Xmx512m",
            "-XX:+ExitOnOutOfMemoryError",
            "-XX:-UsePerfData",
            "-Djava.awt.headless=true");

    private static final boolean CDS_ENABLED =
            !"false".equalsIgnoreCase(System.getProperty("kafka.test.broker.cds"));
    /** Survives test runs: the launcher jar and the class-data archives. */
    private static final Path CACHE_DIRECTORY =
            Path.of(System.getProperty("java.io.tmpdir"), "kafka-test-broker-cache");
    private static final int CDS_ARCHIVES_KEPT = 4;

    private static String childClassPath;

    private final Path directory;
    private final Path dataDirectory;
    private final Path configFile;
    private final Path logbackFile;
    private final Path logFile;
    private final int brokerPort;
    private final int controllerPort;
    private final String clusterId;
    private final Thread shutdownHook;

    /** Read by the shutdown hook's thread too. */
    private volatile JavaProcess process;
    /** The archive the running child dumps when it exits, and where to publish it; or null. */
    private Path archiveBeingDumped;
    private Path archiveTarget;

    private KafkaTestBroker(Path directory, int brokerPort, int controllerPort) {
        this.directory = directory;
        this.dataDirectory = directory.resolve("data");
        this.configFile = directory.resolve("server.properties");
        this.logbackFile = directory.resolve("logback-broker.xml");
        this.logFile = directory.resolve("broker.log");
        this.brokerPort = brokerPort;
        this.controllerPort = controllerPort;
        this.clusterId = Uuid.randomUuid().toString();
        this.shutdownHook = new Thread(this::destroyForciblyQuietly, "kafka-test-broker-reaper");
    }

    /**
     * Starts a new broker (new temp directory, new ports) and waits until it serves clients.
     *
     * @throws IllegalStateException if the broker is not ready within 60 s or its JVM exits; the
     *     message carries the last lines of the broker's log
     */
    public static KafkaTestBroker start() {
        IllegalStateException portClash = null;
        for (int attempt = 1; attempt <= START_ATTEMPTS; attempt++) {
            int[] ports = freePorts(2);
            Path directory;
            try {
                directory = Files.createTempDirectory("kafka-test-broker-");
            } catch (IOException e) {
                throw new UncheckedIOException("Cannot create a temp directory for the Kafka broker", e);
            }
            KafkaTestBroker broker = new KafkaTestBroker(directory, ports[0], ports[1]);
            try {
                broker.writeConfig();
                Runtime.getRuntime().addShutdownHook(broker.shutdownHook);
                broker.launchAndAwaitReady();
                return broker;
            } catch (IllegalStateException e) {
                // Another process may have bound a port between freePorts() and the broker's bind.
                boolean portTaken = broker.logTail().contains("Address already in use");
                broker.close();
                if (!portTaken) {
                    throw e;
                }
                portClash = e;
            } catch (RuntimeException e) {
                broker.close();
                throw e;
            }
        }
        throw new IllegalStateException("The Kafka broker lost its ports to another process "
                + START_ATTEMPTS + " times in a row", portClash);
    }

    /** The {@code bootstrap.servers} value for clients, such as {@code 127.0.0.1:40123}. */
    public String bootstrapServers() {
        return HOST + ":" + brokerPort;
    }

    /** The temp directory: {@code server.properties}, {@code broker.log} and {@code data/}. */
    public Path directory() {
        return directory;
    }

    /** The broker JVM's stdout and stderr, appended to across restarts. */
    public Path logFile() {
        return logFile;
    }

    /** Whether the broker JVM is running. */
    public boolean isRunning() {
        return process != null && process.isAlive();
    }

    /**
     * Stops the broker as an operator would: SIGTERM, so Kafka shuts down cleanly; SIGKILL if it
     * has not exited within 10 s. Keeps the data. Does nothing if the broker is not running.
     */
    public void stop() {
        JavaProcess running = process;
        if (running == null) {
            return;
        }
        process = null;
        settleArchive(running, running.stop(STOP_GRACE));
    }

    /**
     * SIGKILLs the broker: no clean shutdown, as in a crash or an OOM kill. Keeps the data; the next
     * {@link #restart()} runs Kafka's log recovery. Does nothing if the broker is not running.
     */
    public void kill() {
        JavaProcess running = process;
        if (running == null) {
            return;
        }
        process = null;
        running.kill();
        settleArchive(running, false);
    }

    /**
     * Starts the broker again on the same ports and data directory, stopping it first if it runs,
     * and waits until it serves clients. Clients made before the restart reconnect by themselves.
     *
     * <p>After a {@link #kill()} this takes a few seconds longer than after a {@link #stop()}: the
     * restarted controller only takes a new registration of the broker once the old, never
     * closed, broker session has timed out ({@code broker.session.timeout.ms}, set to 3 s here).
     *
     * @throws IllegalStateException if the broker is not ready within 60 s or its JVM exits
     */
    public void restart() {
        stop();
        launchAndAwaitReady();
    }

    /**
     * Creates a topic with the given number of partitions (replication factor 1) and waits until
     * the broker has created it. A topic of that name that already exists is left as it is.
     */
    public void createTopic(String name, int partitions) {
        try (Admin admin = Admin.create(adminConfig())) {
            admin.createTopics(List.of(new NewTopic(name, partitions, (short) 1)))
                    .all()
                    .get(30, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof TopicExistsException)) {
                throw new IllegalStateException(
                        "Cannot create topic " + name + " on " + bootstrapServers() + ": " + e.getCause(), e.getCause());
            }
        } catch (TimeoutException e) {
            throw new IllegalStateException(
                    "Creating topic " + name + " on " + bootstrapServers() + " took more than 30 s", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while creating topic " + name, e);
        }
    }

    /** Stops the broker and deletes its temp directory. */
    @Override
    public void close() {
        stop();
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException | IllegalArgumentException e) {
            // The JVM is already shutting down, or the hook was never added: nothing to remove.
        }
        deleteRecursively(directory);
    }

    @Override
    public String toString() {
        return "KafkaTestBroker[" + bootstrapServers() + ", " + directory + "]";
    }

    private void writeConfig() {
        Properties config = new Properties();
        config.setProperty("process.roles", "broker,controller");
        config.setProperty("node.id", Integer.toString(NODE_ID));
        // A static quorum of this one node: nothing to bootstrap, and the format needs no flag.
        config.setProperty("controller.quorum.voters", NODE_ID + "@" + HOST + ":" + controllerPort);
        config.setProperty("listeners",
                "PLAINTEXT://" + HOST + ":" + brokerPort + ",CONTROLLER://" + HOST + ":" + controllerPort);
        config.setProperty("advertised.listeners", "PLAINTEXT://" + HOST + ":" + brokerPort);
        config.setProperty("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
        config.setProperty("controller.listener.names", "CONTROLLER");
        config.setProperty("inter.broker.listener.name", "PLAINTEXT");
        config.setProperty("log.dirs", dataDirectory.toString());
        // One node: replication factor 1 everywhere, and one partition per internal topic is plenty.
        config.setProperty("offsets.topic.replication.factor", "1");
        config.setProperty("offsets.topic.num.partitions", "1");
        config.setProperty("transaction.state.log.replication.factor", "1");
        config.setProperty("transaction.state.log.min.isr", "1");
        config.setProperty("transaction.state.log.num.partitions", "1");
        config.setProperty("share.coordinator.state.topic.replication.factor", "1");
        config.setProperty("share.coordinator.state.topic.min.isr", "1");
        config.setProperty("default.replication.factor", "1");
        config.setProperty("min.insync.replicas", "1");
        config.setProperty("auto.create.topics.enable", "true");
        config.setProperty("num.partitions", "1");
        config.setProperty("group.initial.rebalance.delay.ms", "0");
        // After a SIGKILL the restarted controller waits out the dead broker's session before it
        // lets the broker register again: 3 s instead of the default 9 s.
        config.setProperty("broker.session.timeout.ms", "3000");
        config.setProperty("broker.heartbeat.interval.ms", "500");
        // The log cleaner's dedupe buffer is 128 MiB of heap by default; a test broker needs little.
        config.setProperty("log.cleaner.dedupe.buffer.size", Integer.toString(8 * 1024 * 1024));
        // Two cores on CI: fewer threads than the production defaults.
        config.setProperty("num.network.threads", "2");
        config.setProperty("num.io.threads", "4");
        config.setProperty("num.recovery.threads.per.data.dir", "1");
        try (var out = Files.newBufferedWriter(configFile, StandardCharsets.UTF_8)) {
            config.store(out, "KafkaTestBroker: single-node KRaft broker+controller for tests");
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot write the Kafka broker's config " + configFile, e);
        }
        // The broker logs through SLF4J to Logback (Spring Boot's). Without a file of its own it
        // would pick up the tests' logback-test.xml, or Logback's DEBUG default with none.
        String logback = """
                <configuration>
                  <appender name="OUT" class="ch.qos.logback.core.ConsoleAppender">
                    <encoder><pattern>%d{HH:mm:ss.SSS} %-5level [%thread] %logger{36} %msg%n</pattern></encoder>
                  </appender>
                  <root level="INFO"><appender-ref ref="OUT"/></root>
                </configuration>
                """;
        try {
            Files.writeString(logbackFile, logback, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot write the Kafka broker's Logback config " + logbackFile, e);
        }
    }

    private void launchAndAwaitReady() {
        String classPath = childClassPath();
        JavaLauncher launcher = JavaLauncher.mainClass("kafka-broker", ChildMain.class.getName())
                .classPath(classPath)
                .jvmOptions(CHILD_JVM_OPTIONS)
                .jvmOptions(classDataSharingOptions(classPath))
                .systemProperty("logback.configurationFile", logbackFile.toString())
                .directory(directory)
                .appendLog(logFile);
        if (!Files.exists(dataDirectory.resolve("meta.properties"))) {
            launcher.arguments("--format", clusterId);
        }
        // Stdin stays a pipe that this JVM never writes to: ChildMain sees it close when we die.
        process = launcher.arguments(configFile.toString()).start();
        awaitReady();
    }

    private void awaitReady() {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(READY_TIMEOUT_MS);
        Object lastError = null;
        try {
            // First a plain TCP connect: an admin client would log a warning for every refusal.
            while (!accepts(brokerPort)) {
                checkAlive();
                if (System.nanoTime() > deadline) {
                    throw notReady("nothing listens on " + bootstrapServers());
                }
                Thread.sleep(50);
            }
            try (Admin admin = Admin.create(adminConfig())) {
                while (System.nanoTime() < deadline) {
                    checkAlive();
                    try {
                        var nodes = admin.describeCluster(new DescribeClusterOptions().timeoutMs(2_000))
                                .nodes()
                                .get(3, TimeUnit.SECONDS);
                        // The broker answers while still fenced; ready is when it lists itself.
                        if (nodes.stream().map(Node::id).anyMatch(id -> id == NODE_ID)) {
                            return;
                        }
                        lastError = "the broker is not in the cluster metadata yet: " + nodes;
                    } catch (ExecutionException e) {
                        lastError = e.getCause();
                    } catch (TimeoutException e) {
                        lastError = "describeCluster got no answer within 3 s";
                    }
                    Thread.sleep(50);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            kill();
            throw new IllegalStateException("Interrupted while waiting for the Kafka broker at " + bootstrapServers(), e);
        }
        throw notReady("last client error: " + lastError);
    }

    private void checkAlive() {
        JavaProcess running = process;
        if (!running.isAlive()) {
            process = null;
            settleArchive(running, false);
            throw new IllegalStateException("The Kafka broker JVM exited with code " + running.exitValue()
                    + " before it was ready at " + bootstrapServers() + logTailMessage());
        }
    }

    private IllegalStateException notReady(String detail) {
        kill();
        return new IllegalStateException("The Kafka broker at " + bootstrapServers() + " was not ready within "
                + READY_TIMEOUT_MS / 1000 + " s (" + detail + ")" + logTailMessage());
    }

    private static boolean accepts(int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(HOST, port), 500);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private Map<String, Object> adminConfig() {
        return Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers(),
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 5_000,
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 30_000,
                AdminClientConfig.RECONNECT_BACKOFF_MS_CONFIG, 50,
                AdminClientConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, 200,
                AdminClientConfig.RETRY_BACKOFF_MS_CONFIG, 50,
                AdminClientConfig.RETRY_BACKOFF_MAX_MS_CONFIG, 200);
    }

    /**
     * The broker JVM's class path: the jars of this JVM's class path that come from the local Maven
     * repository (Kafka, its dependencies, and every other third-party jar), then a small jar
     * holding {@link ChildMain}. The project's own classes and module jars are left out: the broker
     * needs none of them, they change with every build (which would void the class-data archive),
     * and the JVM refuses to dump an archive at all when the class path holds a non-empty
     * directory such as target/test-classes. The launcher jar is named after its content and
     * written once, so that the class path, and with it the archive, stays the same from one
     * broker and one test run to the next.
     */
    private static synchronized String childClassPath() {
        if (childClassPath == null) {
            Path repository = localRepositoryOf(kafkaJar());
            List<String> entries = new ArrayList<>();
            for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
                Path path = Path.of(entry).toAbsolutePath();
                if (entry.endsWith(".jar") && Files.isRegularFile(path)
                        && (repository == null || path.startsWith(repository))) {
                    entries.add(path.toString());
                }
            }
            if (!entries.contains(kafkaJar().toAbsolutePath().toString())) {
                throw new IllegalStateException("java.class.path does not list the Kafka jar " + kafkaJar()
                        + " (a manifest-only class path jar? set useManifestOnlyJar to false for the test plugin)");
            }
            entries.add(launcherJar().toString());
            childClassPath = String.join(File.pathSeparator, entries);
        }
        return childClassPath;
    }

    private static Path kafkaJar() {
        try {
            Class<?> kafkaMain = Class.forName("kafka.Kafka", false, KafkaTestBroker.class.getClassLoader());
            return Path.of(kafkaMain.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException("The Kafka broker (kafka.Kafka) is not on the test class path: add the"
                    + " test-scoped dependency org.apache.kafka:kafka_2.13 to this module's pom", e);
        } catch (URISyntaxException | RuntimeException e) {
            throw new IllegalStateException("Cannot tell which jar holds kafka.Kafka", e);
        }
    }

    /**
     * The root of the Maven repository that holds the Kafka jar ({@code
     * <root>/org/apache/kafka/kafka_2.13/<version>/<jar>}), or null if the jar is not laid out so.
     */
    private static Path localRepositoryOf(Path kafkaJar) {
        Path versionDirectory = kafkaJar.toAbsolutePath().getParent();
        Path groupDirectory = versionDirectory == null ? null : versionDirectory.getParent();
        if (groupDirectory == null || !groupDirectory.endsWith(Path.of("org", "apache", "kafka", "kafka_2.13"))) {
            return null;
        }
        return groupDirectory.getParent().getParent().getParent().getParent();
    }

    private static Path launcherJar() {
        String entry = ChildMain.class.getName().replace('.', '/') + ".class";
        try {
            byte[] bytes;
            try (InputStream in = ChildMain.class.getClassLoader().getResourceAsStream(entry)) {
                if (in == null) {
                    throw new IllegalStateException("Cannot find " + entry + " on the class path");
                }
                bytes = in.readAllBytes();
            }
            Files.createDirectories(CACHE_DIRECTORY);
            Path jar = CACHE_DIRECTORY.resolve("launcher-" + sha256(bytes) + ".jar");
            if (!Files.isRegularFile(jar)) {
                Path partial = CACHE_DIRECTORY.resolve(jar.getFileName() + "." + uniqueSuffix() + ".tmp");
                try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(partial))) {
                    out.putNextEntry(new JarEntry(entry));
                    out.write(bytes);
                    out.closeEntry();
                }
                Files.move(partial, jar, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            }
            return jar;
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot write the Kafka broker's launcher jar under " + CACHE_DIRECTORY, e);
        }
    }

    /**
     * The JVM options for an application class-data-sharing archive: use the archive for this JVM
     * and class path if one was written already, else have this child dump one when it exits.
     */
    private List<String> classDataSharingOptions(String classPath) {
        archiveBeingDumped = null;
        archiveTarget = null;
        if (!CDS_ENABLED) {
            return List.of();
        }
        Path archive = CACHE_DIRECTORY.resolve(archiveKey(classPath) + ".jsa");
        if (Files.isRegularFile(archive)) {
            // Should the archive not match after all, the JVM logs a warning and runs without it.
            return List.of("-XX:SharedArchiveFile=" + archive);
        }
        archiveTarget = archive;
        archiveBeingDumped = CACHE_DIRECTORY.resolve(archive.getFileName() + "." + uniqueSuffix() + ".tmp");
        return List.of("-XX:ArchiveClassesAtExit=" + archiveBeingDumped);
    }

    /** Publishes the archive a child dumped at a clean exit; drops a partial one. */
    private void settleArchive(JavaProcess exited, boolean cleanExit) {
        Path dumped = archiveBeingDumped;
        Path target = archiveTarget;
        archiveBeingDumped = null;
        archiveTarget = null;
        if (dumped == null) {
            return;
        }
        try {
            if (cleanExit && exited.exitValue() != EXIT_SIGKILL && Files.size(dumped) > 0) {
                Files.move(dumped, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
                pruneArchives();
            } else {
                Files.deleteIfExists(dumped);
            }
        } catch (IOException | RuntimeException e) {
            try {
                Files.deleteIfExists(dumped);
            } catch (IOException ignored) {
                // Left behind in the cache directory; pruneArchives() removes it later.
            }
        }
    }

    /** Keeps the few newest archives (class paths change as jars get rebuilt) and no old leftovers. */
    private static void pruneArchives() throws IOException {
        long hourAgo = System.currentTimeMillis() - TimeUnit.HOURS.toMillis(1);
        List<Path> archives = new ArrayList<>();
        try (Stream<Path> files = Files.list(CACHE_DIRECTORY)) {
            for (Path file : (Iterable<Path>) files::iterator) {
                String name = file.getFileName().toString();
                if (name.endsWith(".jsa")) {
                    archives.add(file);
                } else if (name.endsWith(".tmp") && Files.getLastModifiedTime(file).toMillis() < hourAgo) {
                    Files.deleteIfExists(file);
                }
            }
        }
        archives.sort(Comparator.comparingLong(KafkaTestBroker::lastModified).reversed());
        for (Path stale : archives.subList(Math.min(CDS_ARCHIVES_KEPT, archives.size()), archives.size())) {
            Files.deleteIfExists(stale);
        }
    }

    private static long lastModified(Path file) {
        try {
            return Files.getLastModifiedTime(file).toMillis();
        } catch (IOException e) {
            return 0;
        }
    }

    /** Names the archive after what it is only valid for: this JVM, these options, these jars. */
    private static String archiveKey(String classPath) {
        StringBuilder key = new StringBuilder()
                .append(System.getProperty("java.home")).append('\n')
                .append(System.getProperty("java.vm.version")).append('\n')
                .append(String.join(" ", JavaLauncher.FAST_START)).append(' ')
                .append(String.join(" ", CHILD_JVM_OPTIONS)).append('\n');
        for (String entry : classPath.split(File.pathSeparator)) {
            File file = new File(entry);
            key.append(entry).append(' ').append(file.length()).append(' ').append(file.lastModified()).append('\n');
        }
        return "kafka-" + sha256(key.toString().getBytes(StandardCharsets.UTF_8));
    }

    private static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes), 0, 12);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("This JVM has no SHA-256", e);
        }
    }

    private static String uniqueSuffix() {
        return ProcessHandle.current().pid() + "-" + System.nanoTime();
    }

    private String logTailMessage() {
        return "\n--- last " + LOG_TAIL_LINES + " lines of " + logFile + " ---\n" + logTail();
    }

    private String logTail() {
        if (!Files.exists(logFile)) {
            return "(the broker wrote no log)";
        }
        Deque<String> tail = new ArrayDeque<>(LOG_TAIL_LINES);
        try (Stream<String> lines = Files.lines(logFile, StandardCharsets.ISO_8859_1)) {
            lines.forEach(line -> {
                if (tail.size() == LOG_TAIL_LINES) {
                    tail.removeFirst();
                }
                tail.addLast(line);
            });
        } catch (IOException | UncheckedIOException e) {
            return "(cannot read the broker's log: " + e + ")";
        }
        return String.join("\n", tail);
    }

    private void destroyForciblyQuietly() {
        JavaProcess running = process;
        if (running != null) {
            running.process().destroyForcibly();
        }
    }

    private static int[] freePorts(int count) {
        // All sockets are open at once so that the ports differ; then they are freed for the broker.
        List<ServerSocket> sockets = new ArrayList<>();
        try {
            for (int i = 0; i < count; i++) {
                sockets.add(new ServerSocket(0, 1, InetAddress.getByName(HOST)));
            }
            return sockets.stream().mapToInt(ServerSocket::getLocalPort).toArray();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot find free loopback ports for the Kafka broker", e);
        } finally {
            for (ServerSocket socket : sockets) {
                try {
                    socket.close();
                } catch (IOException ignored) {
                    // The port is freed either way once the socket is gone.
                }
            }
        }
    }

    private static void deleteRecursively(Path root) {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> {
                try {
                    Files.deleteIfExists(path);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (IOException | UncheckedIOException e) {
            throw new IllegalStateException("Cannot delete the Kafka broker's temp directory " + root, e);
        }
    }

    /**
     * Entry point of the broker JVM: {@code [--format CLUSTER_ID] SERVER_PROPERTIES}. Formats the
     * storage when asked, then runs Kafka's own {@code kafka.Kafka} main, which returns only when
     * the broker has shut down. Halts the broker when the test JVM that started it is gone.
     */
    static final class ChildMain {

        private ChildMain() {
        }

        public static void main(String[] args) throws Throwable {
            ProcessHandle parent = ProcessHandle.current().parent().orElse(null);
            if (parent != null) {
                Thread parentWatch = new Thread(() -> haltWhenGone(parent), "kafka-test-broker-parent-watch");
                parentWatch.setDaemon(true);
                parentWatch.start();
            }
            String config = args[args.length - 1];
            if (args.length == 3 && args[0].equals("--format")) {
                String[] format = {"format", "--cluster-id", args[1], "--config", config};
                int exit = (Integer) invokeStatic("kafka.tools.StorageTool", "execute",
                        new Class<?>[] {String[].class, PrintStream.class}, format, System.out);
                if (exit != 0) {
                    System.err.println("KafkaTestBroker: kafka-storage format failed with exit code " + exit);
                    System.exit(exit);
                }
            }
            invokeStatic("kafka.Kafka", "main", new Class<?>[] {String[].class}, (Object) new String[] {config});
        }

        /**
         * Calls Kafka's entry points by name, so that this file compiles against kafka-clients
         * alone: kafka_2.13 is needed on the test class path at run time only.
         */
        private static Object invokeStatic(String className, String method, Class<?>[] types, Object... args)
                throws Throwable {
            try {
                return Class.forName(className).getMethod(method, types).invoke(null, args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        }

        private static void haltWhenGone(ProcessHandle parent) {
            try {
                while (System.in.read() != -1) {
                    // Nothing is ever written: this only waits for the end of the stream.
                }
            } catch (IOException e) {
                // A broken pipe means the same as the end of the stream.
            }
            // Stdin ends at once when the test JVM dies, even by SIGKILL. It also ends when the
            // test JVM calls Process.destroy(), which closes the pipe right after sending SIGTERM:
            // then the parent lives on and Kafka is already shutting down cleanly, so wait for the
            // parent itself to be gone before halting.
            parent.onExit().join();
            System.err.println("KafkaTestBroker: the test JVM (pid " + parent.pid() + ") is gone, halting the broker");
            Runtime.getRuntime().halt(3);
        }
    }
}
