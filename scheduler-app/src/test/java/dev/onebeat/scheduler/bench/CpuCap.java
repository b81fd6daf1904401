package dev.onebeat.scheduler.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * A replica JVM limited to a share of the host's cores, as if it ran on a small host of its own:
 * {@value #VARIABLE}{@code =0.5} gives each replica half a core. The limit is a Linux CPU quota on a cgroup of the
 * replica's own (cgroup v1's {@code cpu} controller, or v2's {@code cpu.max}), so it needs root. Written here, not taken
 * from a library: the JDK has no API for it, and the benchmark's replicas are plain child processes.
 *
 * <p>It shows what one host cannot: whether replicas that each bring their own CPU fire a large instant faster
 * together. PostgreSQL stays uncapped on the same host, so it is still the database of every replica's work.
 */
final class CpuCap {

    static final String VARIABLE = "ONEBEAT_BENCH_REPLICA_CPU";
    private static final Path V1 = Path.of("/sys/fs/cgroup/cpu");
    private static final Path V2 = Path.of("/sys/fs/cgroup");
    private static final long PERIOD_MICROS = 100_000;

    private CpuCap() {
    }

    /** @return the cores each replica may use, from {@value #VARIABLE}; null when it is not set */
    static Double cores() {
        String value = System.getenv(VARIABLE);
        if (value == null || value.isBlank()) {
            return null;
        }
        double cores;
        try {
            cores = Double.parseDouble(value.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(VARIABLE + "=" + value + ": not a number of cores, such as 0.5");
        }
        if (!(cores >= 0.01)) {
            throw new IllegalArgumentException(VARIABLE + "=" + value + ": at least 0.01 cores");
        }
        return cores;
    }

    /** @return how the replicas are capped, for a benchmark's header: "uncapped" or "0.50 cores each (cgroup quota)" */
    static String describe() {
        Double cores = cores();
        return cores == null ? "uncapped" : String.format(Locale.ROOT, "%.2f cores each (cgroup CPU quota)", cores);
    }

    /**
     * Moves the process, every thread of it, into a cgroup of its own limited to {@code cores}.
     *
     * @return the cgroup's directory, to {@link #remove} once the process has exited
     */
    static Path cap(long pid, double cores) {
        long quota = Math.round(cores * PERIOD_MICROS);
        String name = "onebeat-bench-" + pid;
        try {
            if (Files.exists(V1.resolve("cpu.cfs_quota_us"))) {
                Path dir = Files.createDirectories(V1.resolve(name));
                Files.writeString(dir.resolve("cpu.cfs_period_us"), String.valueOf(PERIOD_MICROS));
                Files.writeString(dir.resolve("cpu.cfs_quota_us"), String.valueOf(quota));
                Files.writeString(dir.resolve("cgroup.procs"), String.valueOf(pid));
                return dir;
            }
            Path dir = Files.createDirectories(V2.resolve(name));
            Files.writeString(dir.resolve("cpu.max"), quota + " " + PERIOD_MICROS);
            Files.writeString(dir.resolve("cgroup.procs"), String.valueOf(pid));
            return dir;
        } catch (IOException e) {
            throw new IllegalStateException(VARIABLE + "=" + cores + ": the replica's CPU could not be capped (it needs "
                    + "root and the cgroup cpu controller mounted at " + V1 + " or enabled in " + V2 + ")", e);
        }
    }

    /** Removes the cgroup of a process that has exited; one still in use stays. */
    static void remove(Path dir) {
        if (dir == null) {
            return;
        }
        try {
            Files.deleteIfExists(dir);
        } catch (IOException e) {
            // a task is still in it: the kernel keeps it until it is empty
        }
    }
}
