package dev.onebeat.scheduler.interop;

import static org.awaitility.Awaitility.await;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A real, unmodified Python worker (Celery or RQ, from Debian's {@code /usr/bin/python3}) consuming
 * one queue, running the task modules under {@code src/test/resources/interop}. Each task run is
 * appended by the worker as one JSON line to {@code target/interop/<name>.jsonl}, read by
 * {@link #records()}; the worker's own output goes to {@code target/interop/<name>.log}.
 * {@link #close()} stops the whole process tree (RQ forks a child per job).
 *
 * <p>A worker that is not installed fails the test, naming the Debian packages to install: these
 * tests are required, never skipped.
 */
final class PythonWorker implements AutoCloseable {

    /** Debian's interpreter; the first {@code python3} on PATH may be another one without the workers. */
    static final Path PYTHON = Path.of("/usr/bin/python3");
    /** The variable naming the file the task modules append their runs to. */
    static final String RECORD_FILE_VARIABLE = "ONEBEAT_INTEROP_RECORD";
    /** The Celery task every Celery interop test publishes to, see {@code onebeat_interop_celery.py}. */
    static final String CELERY_TASK = "interop.record";
    /** The RQ function every RQ interop test publishes to, see {@code onebeat_interop_rq.py}. */
    static final String RQ_FUNCTION = "onebeat_interop_rq.record";
    /** The module of the Celery app most interop tests start, see {@code onebeat_interop_celery.py}. */
    static final String CELERY_APP = "onebeat_interop_celery";
    /**
     * onebeat's own Python package, {@code python/} of the repository, on every worker's
     * {@code PYTHONPATH}: resolved from the module's directory ({@code scheduler-app}), where Maven
     * runs the tests.
     */
    static final Path ONEBEAT_PACKAGE_ROOT = Path.of("..", "python").toAbsolutePath().normalize();

    // what a worker writes when it rejects a message, cannot decode it or a task raised
    private static final Pattern ERROR_LINE = Pattern.compile(
            "Traceback|Received unregistered task|KeyError|ValueError|TypeError|DecodeError|UnpicklingError"
                    + "|Unrecoverable error|ERROR/|CRITICAL/|Exception|Could not|invalid");
    private static final Duration START_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(20);
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final String name;
    private final Process process;
    private final Path logFile;
    private final Path recordFile;
    private final String readyMarker;

    private PythonWorker(String name, Process process, Path logFile, Path recordFile, String readyMarker) {
        this.name = name;
        this.process = process;
        this.logFile = logFile;
        this.recordFile = recordFile;
        this.readyMarker = readyMarker;
    }

    /**
     * Starts {@code celery worker} for the app in {@code onebeat_interop_celery}, solo pool, consuming
     * only {@code queue}, with no gossip, mingle, events or remote control: nothing on the broker but
     * the queue itself.
     *
     * @param name names the log and record files under {@code target/interop}
     * @param brokerUrl {@code amqp://…} or {@code redis://…}
     * @param queue the queue to consume
     * @return the started worker, ready to consume
     */
    static PythonWorker celery(String name, String brokerUrl, String queue) {
        return celery(name, brokerUrl, Map.of(), queue);
    }

    /**
     * As {@link #celery(String, String, String)}, consuming several queues, with extra environment for
     * the app (such as {@code ONEBEAT_INTEROP_QUEUES}, the queues' declarations).
     */
    static PythonWorker celery(String name, String brokerUrl, Map<String, String> environment, String... queues) {
        return celery(name, CELERY_APP, brokerUrl, environment, queues);
    }

    /**
     * As {@link #celery(String, String, Map, String...)}, with the Celery app of another module of
     * {@code src/test/resources/interop}, such as {@code onebeat_interop_celery_once}.
     */
    static PythonWorker celery(String name, String app, String brokerUrl, Map<String, String> environment,
                               String... queues) {
        requireModule("celery", "python3-celery celery");
        return start(name, "ready.", environment, List.of(PYTHON.toString(), "-m", "celery", "-A", app,
                "-b", brokerUrl, "worker", "-Q", String.join(",", queues), "-n", name + "@%h", "--pool=solo", "--concurrency=1",
                // not --without-heartbeat: its 2 s timer is what wakes Celery 5.2's event loop on AMQP, which
                // otherwise leaves deliveries py-amqp already read sitting in its buffer for 10 s and more
                "--without-gossip", "--without-mingle", "-l", "INFO"));
    }

    /**
     * Starts {@code rq worker} (the default, forking worker) on {@code queue} of the Redis at {@code redisUrl}.
     *
     * @param name the worker's name in Redis, also names the log and record files
     * @param redisUrl {@code redis://host:port/db}
     * @param queue the queue to consume
     * @return the started worker, ready to consume
     */
    static PythonWorker rq(String name, String redisUrl, String queue) {
        return rq(name, redisUrl, Map.of(), queue);
    }

    /** As {@link #rq(String, String, String)}, with extra environment for the jobs' modules. */
    static PythonWorker rq(String name, String redisUrl, Map<String, String> environment, String queue) {
        requireModule("rq", "python3-rq");
        return start(name, "Listening on", environment, List.of(PYTHON.toString(), "-m", "rq.cli", "worker", "--url", redisUrl,
                "--name", name, "--logging_level", "INFO", queue));
    }

    private static PythonWorker start(String name, String readyMarker, Map<String, String> environment,
                                      List<String> command) {
        Path dir = Path.of("target", "interop");
        Path logFile = dir.resolve(name + ".log");
        Path recordFile = dir.resolve(name + ".jsonl").toAbsolutePath();
        try {
            Files.createDirectories(dir);
            Files.deleteIfExists(recordFile);
            Files.createFile(recordFile);
            ProcessBuilder builder = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(logFile.toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
            builder.environment().put("PYTHONPATH", pythonPath());
            builder.environment().put("PYTHONDONTWRITEBYTECODE", "1");
            builder.environment().put("PYTHONUNBUFFERED", "1");
            builder.environment().put("PYTHONIOENCODING", "utf-8");
            builder.environment().put("LANG", "C.UTF-8");
            builder.environment().put(RECORD_FILE_VARIABLE, recordFile.toString());
            builder.environment().putAll(environment);
            PythonWorker worker = new PythonWorker(name, builder.start(), logFile, recordFile, readyMarker);
            worker.awaitReady();
            return worker;
        } catch (IOException e) {
            throw new UncheckedIOException("could not start worker " + name + ": " + command, e);
        }
    }

    private void awaitReady() {
        try {
            await("worker " + name + " ready").atMost(START_TIMEOUT).pollInterval(Duration.ofMillis(200))
                    .until(() -> {
                        // alive first, then the log: a worker may be ready and then crash at once in its first task
                        boolean alive = process.isAlive();
                        if (log().contains(readyMarker)) {
                            return true;
                        }
                        if (!alive) {
                            throw new IllegalStateException("worker " + name + " exited with " + process.exitValue()
                                    + " before it was ready; its output:\n" + log());
                        }
                        return false;
                    });
        } catch (RuntimeException e) {
            close();
            throw new IllegalStateException("worker " + name + " did not start; its output:\n" + log(), e);
        }
    }

    private static Path modulesDir() {
        URL module = PythonWorker.class.getResource("/interop/onebeat_interop_record.py");
        if (module == null || !"file".equals(module.getProtocol())) {
            throw new IllegalStateException("the Python task modules are not on the test classpath as files: " + module);
        }
        try {
            return Path.of(module.toURI()).getParent();
        } catch (URISyntaxException e) {
            throw new IllegalStateException("bad module location " + module, e);
        }
    }

    /** @return the task modules' directory, then onebeat's package: what a worker's {@code PYTHONPATH} holds */
    static String pythonPath() {
        return modulesDir() + File.pathSeparator + ONEBEAT_PACKAGE_ROOT;
    }

    /**
     * Fails unless onebeat's Python package is where {@link #ONEBEAT_PACKAGE_ROOT} says and Debian's
     * python3 imports it from there, with psycopg2 (the tests of {@code process_once} on PostgreSQL).
     */
    static void requireOnebeatPackage() {
        if (!Files.isRegularFile(ONEBEAT_PACKAGE_ROOT.resolve("onebeat").resolve("__init__.py"))) {
            throw new IllegalStateException("onebeat's Python package is not at " + ONEBEAT_PACKAGE_ROOT
                    + "/onebeat (the tests run from scheduler-app/ and take it from ../python)");
        }
        requireModule("psycopg2", "python3-psycopg2");
        try {
            ProcessBuilder builder = new ProcessBuilder(PYTHON.toString(), "-c", "import onebeat").redirectErrorStream(true);
            builder.environment().put("PYTHONPATH", pythonPath());
            builder.environment().put("PYTHONDONTWRITEBYTECODE", "1");
            Process probe = builder.start();
            String output = new String(probe.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!probe.waitFor(60, TimeUnit.SECONDS) || probe.exitValue() != 0) {
                throw new IllegalStateException(PYTHON + " cannot import onebeat from " + ONEBEAT_PACKAGE_ROOT + ": "
                        + output.strip());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted probing onebeat", e);
        }
    }

    /** Fails, naming the packages, if Debian's python3 cannot import {@code module}. */
    static void requireModule(String module, String debianPackages) {
        String hint = module + " is required by the interop tests and must be importable by " + PYTHON
                + ": install the Debian packages (apt-get install " + debianPackages + "; .ci/run does it)";
        if (!Files.isExecutable(PYTHON)) {
            throw new IllegalStateException(PYTHON + " is missing; " + hint);
        }
        try {
            Process probe = new ProcessBuilder(PYTHON.toString(), "-c", "import " + module).redirectErrorStream(true).start();
            String output = new String(probe.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!probe.waitFor(60, TimeUnit.SECONDS) || probe.exitValue() != 0) {
                throw new IllegalStateException(hint + "; import said: " + output.strip());
            }
        } catch (IOException e) {
            throw new IllegalStateException(hint, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted probing " + module, e);
        }
    }

    /** @return every task run recorded so far, in order; a line still being written is left out */
    List<JsonNode> records() {
        String text = read(recordFile);
        List<JsonNode> records = new ArrayList<>();
        int start = 0;
        for (int end = text.indexOf('\n'); end >= 0; start = end + 1, end = text.indexOf('\n', start)) {
            records.add(JSON.readTree(text.substring(start, end)));
        }
        return records;
    }

    /** @return the lines of the worker's output that report an error, a rejected message or a crash */
    List<String> errorLines() {
        return log().lines().filter(line -> ERROR_LINE.matcher(line).find()).toList();
    }

    /** @return the worker's output so far */
    String log() {
        return read(logFile);
    }

    /** @return whether the worker process is still running */
    boolean isAlive() {
        return process.isAlive();
    }

    /** @return the worker's exit status, 137 (128 + 9) after a SIGKILL; the worker must have exited */
    int exitValue() {
        return process.exitValue();
    }

    /** @return the file the worker's task runs are appended to */
    Path recordFile() {
        return recordFile;
    }

    /** Asks the worker to shut down warmly (SIGTERM), then kills what is left of its process tree. */
    @Override
    public void close() {
        List<ProcessHandle> tree = new ArrayList<>(process.descendants().toList());
        tree.add(process.toHandle());
        process.destroy();
        try {
            process.waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        tree.addAll(process.descendants().toList());
        tree.forEach(ProcessHandle::destroyForcibly);
    }

    // lenient: the worker may be half-way through writing a multi-byte character
    private static String read(Path file) {
        try {
            return new String(Files.readAllBytes(file), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public String toString() {
        return "worker " + name + " (log " + logFile.toAbsolutePath() + ")";
    }
}
