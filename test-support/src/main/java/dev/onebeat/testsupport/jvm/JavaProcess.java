package dev.onebeat.testsupport.jvm;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * A JVM a {@link JavaLauncher} started: what a test does to it (stop it as an orchestrator does, SIGKILL it, wait for
 * it to exit or to print a line) and what it printed. A command {@link JavaLauncher#prefix prefix} such as
 * {@code faketime} is a process of its own whose JVM is its child: {@link #stop} and {@link #kill} reach both.
 *
 * <p>Waits that time out fail with the end of the log, so a failed start says why.
 */
public final class JavaProcess implements AutoCloseable {

    /** How long {@link #kill()} waits for the kernel to reap a SIGKILLed JVM before it gives up. */
    private static final Duration KILL_WAIT = Duration.ofSeconds(10);
    private static final Duration POLL = Duration.ofMillis(100);
    private static final int TAIL_LINES = 60;

    private final String name;
    private final Process process;
    private final Path log;

    JavaProcess(String name, Process process, Path log) {
        this.name = name;
        this.process = process;
        this.log = log;
    }

    public String name() {
        return name;
    }

    public long pid() {
        return process.pid();
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /**
     * @return the process itself, for what this class does not offer; its stdin is a pipe nothing writes to (unless
     *     the launcher said {@link JavaLauncher#noInput()}), which the child sees end when the test JVM dies
     */
    public Process process() {
        return process;
    }

    /** @return the file its output goes to, if the launcher named one */
    public Optional<Path> log() {
        return Optional.ofNullable(log);
    }

    /**
     * SIGKILL: no shutdown hook runs, no transaction ends but by its socket closing. Waits for the JVM to be gone.
     *
     * @return its exit status, 137 (128 + 9) for a JVM killed so
     * @throws IllegalStateException if it survived the signal
     */
    public int kill() {
        List<ProcessHandle> descendants = process.descendants().toList();
        descendants.forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
        if (!waitFor(KILL_WAIT) || !gone(descendants, KILL_WAIT)) {
            throw new IllegalStateException(this + " survived SIGKILL for " + KILL_WAIT);
        }
        return process.exitValue();
    }

    /**
     * SIGTERM, as an orchestrator stops a JVM, so its shutdown hooks run; SIGKILL if it has not exited within
     * {@code grace}.
     *
     * @return whether it exited within the grace period
     */
    public boolean stop(Duration grace) {
        if (!process.isAlive()) {
            return true;
        }
        // a prefix such as faketime does not pass SIGTERM on to the JVM it started
        List<ProcessHandle> descendants = process.descendants().toList();
        descendants.forEach(ProcessHandle::destroy);
        process.destroy();
        if (waitFor(grace) && gone(descendants, grace)) {
            return true;
        }
        kill();
        return false;
    }

    private static boolean gone(List<ProcessHandle> processes, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        for (ProcessHandle handle : processes) {
            try {
                handle.onExit().get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            } catch (ExecutionException | TimeoutException e) {
                return false;
            }
        }
        return true;
    }

    /**
     * Waits for it to exit by itself.
     *
     * @return its exit status
     * @throws AssertionError if it still runs after {@code timeout}, with the end of its log
     */
    public int awaitExit(Duration timeout) {
        if (!waitFor(timeout)) {
            throw new AssertionError(this + " still runs after " + timeout + tail());
        }
        return process.exitValue();
    }

    /** @return whether it exited within {@code timeout} (false if interrupted, with the interrupt kept) */
    public boolean waitFor(Duration timeout) {
        try {
            return process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** @return its exit status, once it has exited */
    public int exitValue() {
        return process.exitValue();
    }

    /**
     * Waits until its log has a line containing {@code text}.
     *
     * @return the first such line
     * @throws AssertionError if none came within {@code timeout} or the JVM exited first, with the end of its log
     */
    public String awaitLine(String text, Duration timeout) {
        return awaitLog(lines -> lines.stream().filter(line -> line.contains(text)).findFirst(),
                "a line containing '" + text + "'", timeout);
    }

    /**
     * Waits until {@code found} finds something in its log's lines.
     *
     * @param what what is waited for, for the failure's message
     * @throws AssertionError if nothing was found within {@code timeout} or the JVM exited first
     */
    public <T> T awaitLog(Function<List<String>, Optional<T>> found, String what, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            boolean alive = process.isAlive();
            Optional<T> result = found.apply(lines());
            if (result.isPresent()) {
                return result.get();
            }
            if (!alive) {
                throw new AssertionError(this + " exited with " + process.exitValue() + " before " + what + tail());
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError(this + " printed no " + what + " within " + timeout + tail());
            }
            try {
                Thread.sleep(POLL.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted waiting for " + what + " of " + this, e);
            }
        }
    }

    /** @return whether its log has a line containing {@code text} */
    public boolean logged(String text) {
        return lines().stream().anyMatch(line -> line.contains(text));
    }

    /** @return the lines of its log that {@code filter} accepts */
    public List<String> logLines(Predicate<String> filter) {
        return lines().stream().filter(filter).toList();
    }

    /** @return its log's lines so far; none if it has no log (yet) */
    public List<String> lines() {
        if (log == null || !Files.exists(log)) {
            return List.of();
        }
        try {
            // decoded leniently: the last line may end in the middle of a character being written
            return new String(Files.readAllBytes(log), StandardCharsets.UTF_8).lines().toList();
        } catch (IOException e) {
            throw new UncheckedIOException("could not read " + name + "'s log " + log, e);
        }
    }

    /** @return the last {@code count} lines of its log */
    public String logTail(int count) {
        if (log == null) {
            return "(its output was not kept in a file)";
        }
        List<String> lines = lines();
        return String.join("\n", lines.subList(Math.max(0, lines.size() - count), lines.size()));
    }

    private String tail() {
        return "\n--- the end of " + (log == null ? "its output" : log.toAbsolutePath()) + " ---\n" + logTail(TAIL_LINES);
    }

    /** SIGKILL if it still runs: a test that wants a clean stop calls {@link #stop} first. */
    @Override
    public void close() {
        if (process.isAlive()) {
            kill();
        }
    }

    @Override
    public String toString() {
        return name + " (pid " + process.pid() + (log == null ? "" : ", log " + log.toAbsolutePath()) + ")";
    }
}
