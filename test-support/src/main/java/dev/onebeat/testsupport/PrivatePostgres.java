package dev.onebeat.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One PostgreSQL server of this test's own, run from the operating system's PostgreSQL binaries
 * ({@code initdb}, {@code pg_ctl}, {@code pg_basebackup}) on a free port, so that a test can do to it what it must
 * never do to a shared server: kill its postmaster, freeze it, promote a standby of it, restart it read-only.
 *
 * <p>The binaries are looked for in {@value #BIN_VARIABLE} if set, else the newest {@code /usr/lib/postgresql/N/bin}
 * (Debian's layout). Run as root, the server runs as the {@code postgres} operating system user through
 * {@code runuser}, because PostgreSQL refuses to run as root. Data directories live under one temporary folder per
 * node, deleted by {@link #close()}.
 *
 * <p>Every node trusts local TCP connections for the {@code postgres} role, for queries and for replication, and is
 * set up for streaming replication ({@code wal_level=replica}). {@code fsync} is off: the faults these tests make are
 * process crashes, which lose nothing the kernel has, not machine crashes.
 */
public final class PrivatePostgres implements AutoCloseable {

    /** The environment variable naming a PostgreSQL {@code bin} directory to use instead of Debian's. */
    public static final String BIN_VARIABLE = "ONEBEAT_PG_BIN";
    /** The superuser role every node trusts. */
    public static final String SUPERUSER = "postgres";

    private static final Logger LOG = LoggerFactory.getLogger(PrivatePostgres.class);
    private static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(60);

    private final String name;
    private final Path root;
    private final Path data;
    private final int port;

    private PrivatePostgres(String name, Path root, int port) {
        this.name = name;
        this.root = root;
        this.data = root.resolve("data");
        this.port = port;
    }

    /** @return whether the PostgreSQL binaries these nodes need are on this machine */
    public static boolean available() {
        return binDirectory().isPresent();
    }

    /**
     * Creates a new primary ({@code initdb}) and starts it.
     *
     * @param name a short name for logs, folders and {@code application_name} (letters, digits, {@code _})
     */
    public static PrivatePostgres startPrimary(String name) {
        PrivatePostgres node = new PrivatePostgres(requireName(name), newRoot(name), freePort());
        node.run("initdb", "-D", node.data.toString(), "-U", SUPERUSER, "--auth=trust", "-E", "UTF8", "--no-sync");
        node.appendConfiguration(List.of(
                "listen_addresses = '127.0.0.1'",
                "port = " + node.port,
                "unix_socket_directories = '" + node.root + "'",
                "max_connections = 200",
                "shared_buffers = 32MB",
                "fsync = off",
                "full_page_writes = off",
                "wal_level = replica",
                "max_wal_senders = 10",
                "max_replication_slots = 10",
                "wal_keep_size = '256MB'",
                "hot_standby = on",
                "autovacuum = off",
                "logging_collector = off"));
        try {
            Files.writeString(node.data.resolve("pg_hba.conf"), """
                    local all all trust
                    host all all 127.0.0.1/32 trust
                    host replication all 127.0.0.1/32 trust
                    """, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        node.start();
        return node;
    }

    /**
     * Copies this running node with {@code pg_basebackup} into a new streaming standby of it, on its own port, and
     * starts the standby. The standby names itself {@code name} to this node ({@code application_name}), which is what
     * {@link #requireSynchronousStandby(String)} refers to.
     */
    public PrivatePostgres startStandby(String standbyName) {
        return startStandby(standbyName, freePort());
    }

    /**
     * As {@link #startStandby(String)}, on {@code port}: a test that names in a multi-host URL, before it starts them,
     * the standbys it will promote later takes their ports from {@link #freePort()}.
     */
    public PrivatePostgres startStandby(String standbyName, int standbyPort) {
        PrivatePostgres standby = new PrivatePostgres(requireName(standbyName), newRoot(standbyName), standbyPort);
        standby.run("pg_basebackup", "-h", "127.0.0.1", "-p", Integer.toString(port), "-U", SUPERUSER,
                "-D", standby.data.toString(), "-X", "stream", "--no-sync",
                // a spread checkpoint paces its writes over minutes once a database has been created
                "--checkpoint=fast");
        standby.appendConfiguration(List.of(
                "port = " + standby.port,
                "unix_socket_directories = '" + standby.root + "'",
                "primary_conninfo = 'host=127.0.0.1 port=" + port + " user=" + SUPERUSER + " application_name="
                        + standbyName + "'"));
        standby.touch("standby.signal");
        standby.start();
        return standby;
    }

    /**
     * Makes every commit on this primary wait until {@code standbyName} has flushed it
     * ({@code synchronous_standby_names}, {@code synchronous_commit=on}); waits until the standby reports itself
     * synchronous.
     */
    public void requireSynchronousStandby(String standbyName) {
        execute("ALTER SYSTEM SET synchronous_standby_names = '" + requireName(standbyName) + "'");
        execute("SELECT pg_reload_conf()");
        awaitTrue("SELECT count(*) = 1 FROM pg_stat_replication WHERE application_name = '" + standbyName
                + "' AND sync_state = 'sync'", Duration.ofSeconds(30));
    }

    /** Waits until a standby of this primary named {@code standbyName} streams and has replayed everything. */
    public void awaitStandbyCaughtUp(String standbyName, Duration timeout) {
        awaitTrue("SELECT count(*) = 1 FROM pg_stat_replication WHERE application_name = '" + requireName(standbyName)
                + "' AND state = 'streaming' AND replay_lsn >= pg_current_wal_lsn()", timeout);
    }

    /** Starts the stopped server and waits until it accepts connections. */
    public void start() {
        run("pg_ctl", "-D", data.toString(), "-l", root.resolve("server.log").toString(), "-w", "-t", "60", "start");
        LOG.info("private postgres started name={} port={} pid={}", name, port, postmasterPid().orElse(-1L));
    }

    /** Stops the server cleanly ({@code pg_ctl stop -m fast}): sessions are ended, nothing committed is lost. */
    public void stop() {
        run("pg_ctl", "-D", data.toString(), "-w", "-t", "60", "-m", "fast", "stop");
    }

    /** Promotes this standby to a primary and waits until it accepts writes. */
    public void promote() {
        run("pg_ctl", "-D", data.toString(), "-w", "-t", "60", "promote");
        awaitTrue("SELECT NOT pg_is_in_recovery()", Duration.ofSeconds(30));
        LOG.info("private postgres promoted name={} port={}", name, port);
    }

    /**
     * SIGKILL of the postmaster, as a crashed machine's process would end: no shutdown checkpoint, no message to
     * clients. Its backends notice the dead postmaster and exit; their clients see their connections reset.
     */
    public void killPostmaster() {
        long pid = postmasterPid().orElseThrow(() -> new IllegalStateException(name + " is not running"));
        signal("KILL", List.of(pid));
        LOG.info("private postgres postmaster killed name={} pid={}", name, pid);
    }

    /**
     * SIGSTOP of the postmaster and every process under it: the server stops answering while every socket stays open,
     * as behind a network partition or in a frozen virtual machine. Clients wait until their own timeouts.
     *
     * @return the stopped processes, for {@link #killFrozen(List)}
     */
    public List<Long> freeze() {
        long pid = postmasterPid().orElseThrow(() -> new IllegalStateException(name + " is not running"));
        List<Long> processes = new ArrayList<>();
        processes.add(pid);
        ProcessHandle.of(pid).ifPresent(postmaster -> postmaster.descendants()
                .forEach(child -> processes.add(child.pid())));
        signal("STOP", processes);
        LOG.info("private postgres frozen name={} processes={}", name, processes.size());
        return processes;
    }

    /**
     * SIGKILL of frozen processes: ends a frozen server without it ever answering again (a SIGCONT would revive a
     * second writable primary).
     */
    public void killFrozen(List<Long> processes) {
        signal("KILL", processes);
        awaitStopped();
    }

    /**
     * Starts this stopped (or killed) former primary again as a read-only standby that follows nobody: every
     * connection to it succeeds and every write fails with SQLState 25006, as a demoted writer answers.
     */
    public void restartAsReadOnlyStandby() {
        awaitStopped();
        // a primary killed while running leaves its pid file; pg_ctl refuses to start over a live one only
        touch("standby.signal");
        start();
    }

    /** @return whether the server is in recovery (a standby), asked of the server itself */
    public boolean inRecovery() {
        return queryBoolean("SELECT pg_is_in_recovery()");
    }

    /** Creates a database on this primary. */
    public void createDatabase(String database) {
        execute("CREATE DATABASE " + requireName(database));
    }

    /** Runs one statement as the superuser on the {@code postgres} database. */
    public void execute(String sql) {
        try (Connection connection = connect("postgres"); Statement statement = connection.createStatement()) {
            statement.execute(sql);
        } catch (SQLException e) {
            throw new IllegalStateException(name + ": " + sql + ": " + e.getMessage(), e);
        }
    }

    /** @return a new connection to {@code database} on this node, with a 5 s connect and 30 s socket timeout */
    public Connection connect(String database) throws SQLException {
        return DriverManager.getConnection(jdbcUrl(database) + "&socketTimeout=30", SUPERUSER, "");
    }

    /** @return a JDBC URL of {@code database} on this node alone */
    public String jdbcUrl(String database) {
        return "jdbc:postgresql://127.0.0.1:" + port + "/" + database + "?connectTimeout=5";
    }

    /**
     * @return a multi-host JDBC URL of {@code database} over {@code nodes} in order, with
     *     {@code targetServerType=primary}: the driver connects to whichever of them accepts writes
     */
    public static String multiHostUrl(String database, List<PrivatePostgres> nodes) {
        return multiHostUrlOfPorts(database, nodes.stream().map(PrivatePostgres::port).toList());
    }

    /**
     * @return as {@link #multiHostUrl(String, List)}, over nodes given by their ports, some of which may be started
     *     later (see {@link #startStandby(String, int)})
     */
    public static String multiHostUrlOfPorts(String database, List<Integer> ports) {
        return "jdbc:postgresql://" + ports.stream().map(port -> "127.0.0.1:" + port)
                .collect(Collectors.joining(",")) + "/" + database + "?targetServerType=primary";
    }

    public String name() {
        return name;
    }

    public int port() {
        return port;
    }

    /** @return the server's log, for a failing test's message */
    public Path log() {
        return root.resolve("server.log");
    }

    /** Kills whatever runs of this node (frozen or not) and deletes its folder. */
    @Override
    public void close() {
        postmasterPid().ifPresent(pid -> {
            List<Long> processes = new ArrayList<>();
            processes.add(pid);
            ProcessHandle.of(pid).ifPresent(postmaster -> postmaster.descendants()
                    .forEach(child -> processes.add(child.pid())));
            signal("KILL", processes);
        });
        try (Stream<Path> paths = Files.walk(root)) {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException e) {
            LOG.warn("could not delete private postgres folder {}", root, e);
        }
    }

    @Override
    public String toString() {
        return name + "@127.0.0.1:" + port;
    }

    private Optional<Long> postmasterPid() {
        Path pidFile = data.resolve("postmaster.pid");
        try {
            if (!Files.exists(pidFile)) {
                return Optional.empty();
            }
            long pid = Long.parseLong(Files.readAllLines(pidFile).get(0).strip());
            return ProcessHandle.of(pid).filter(ProcessHandle::isAlive).map(ProcessHandle::pid);
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    private void awaitStopped() {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (postmasterPid().isPresent()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(name + " did not stop within 30 s");
            }
            pause(Duration.ofMillis(50));
        }
    }

    private void awaitTrue(String sql, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            try {
                if (queryBoolean(sql)) {
                    return;
                }
            } catch (IllegalStateException e) {
                // not yet accepting connections: try again until the deadline
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(name + ": not true within " + timeout + ": " + sql + " (log "
                        + log() + ")");
            }
            pause(Duration.ofMillis(100));
        }
    }

    private boolean queryBoolean(String sql) {
        try (Connection connection = connect("postgres"); Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery(sql)) {
            rows.next();
            return rows.getBoolean(1);
        } catch (SQLException e) {
            throw new IllegalStateException(name + ": " + sql + ": " + e.getMessage(), e);
        }
    }

    private void appendConfiguration(List<String> lines) {
        try {
            Files.writeString(data.resolve("postgresql.conf"), "\n" + String.join("\n", lines) + "\n",
                    StandardCharsets.UTF_8, java.nio.file.StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void touch(String file) {
        try {
            Path path = data.resolve(file);
            if (!Files.exists(path)) {
                Files.createFile(path);
            }
            chownToServerUser(path);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void run(String program, String... arguments) {
        Path bin = binDirectory().orElseThrow(() -> new IllegalStateException(
                "no PostgreSQL binaries: set " + BIN_VARIABLE + " or install Debian's postgresql package"));
        List<String> command = new ArrayList<>();
        if (runningAsRoot()) {
            command.addAll(List.of("runuser", "-u", SUPERUSER, "--"));
        }
        command.add(bin.resolve(program).toString());
        command.addAll(Arrays.asList(arguments));
        Path output = root.resolve(program + ".out");
        try {
            Process process = new ProcessBuilder(command).directory(root.toFile()).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(output.toFile())).start();
            if (!process.waitFor(COMMAND_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException(name + ": " + program + " did not finish within " + COMMAND_TIMEOUT);
            }
            if (process.exitValue() != 0) {
                throw new IllegalStateException(name + ": " + String.join(" ", command) + " exited with "
                        + process.exitValue() + ":\n" + Files.readString(output));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(name + ": could not run " + program, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(name + ": interrupted while running " + program, e);
        }
    }

    private static void signal(String signal, List<Long> processes) {
        List<String> command = new ArrayList<>(List.of("kill", "-" + signal));
        processes.forEach(pid -> command.add(Long.toString(pid)));
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            process.getInputStream().transferTo(java.io.OutputStream.nullOutputStream());
            process.waitFor(10, TimeUnit.SECONDS);
        } catch (IOException e) {
            throw new UncheckedIOException("could not send SIG" + signal, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static Optional<Path> binDirectory() {
        String configured = System.getenv(BIN_VARIABLE);
        if (configured != null && !configured.isBlank()) {
            Path bin = Path.of(configured.strip());
            return Files.isExecutable(bin.resolve("initdb")) ? Optional.of(bin) : Optional.empty();
        }
        Path debian = Path.of("/usr/lib/postgresql");
        if (!Files.isDirectory(debian)) {
            return Optional.empty();
        }
        try (Stream<Path> versions = Files.list(debian)) {
            return versions.filter(version -> version.getFileName().toString().matches("\\d+"))
                    .max(Comparator.comparingInt(version -> Integer.parseInt(version.getFileName().toString())))
                    .map(version -> version.resolve("bin"))
                    .filter(bin -> Files.isExecutable(bin.resolve("initdb"))
                            && Files.isExecutable(bin.resolve("pg_basebackup")));
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    private static boolean runningAsRoot() {
        return "root".equals(System.getProperty("user.name"));
    }

    private static Path newRoot(String name) {
        try {
            Path root = Files.createTempDirectory("onebeat-pg-" + name + "-");
            chownToServerUser(root);
            return root;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void chownToServerUser(Path path) throws IOException {
        if (runningAsRoot()) {
            Files.setOwner(path, path.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName(SUPERUSER));
        }
    }

    /** @return a port nothing is bound to now, for {@link #startStandby(String, int)} ({@link FreePorts}) */
    public static int freePort() {
        return FreePorts.take();
    }

    private static String requireName(String name) {
        if (name == null || !name.matches("[a-z][a-z0-9_]{0,40}")) {
            throw new IllegalArgumentException("name: '" + name + "' is not lower-case letters, digits and _");
        }
        return name;
    }

    private static void pause(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
