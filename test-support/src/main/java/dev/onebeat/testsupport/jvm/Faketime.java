package dev.onebeat.testsupport.jvm;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A child JVM whose wall clock is off, through libfaketime (Debian package {@code faketime}), and nothing else: its
 * timers and timed waits keep the real pace.
 *
 * <p>The JVM times its waits on {@code CLOCK_MONOTONIC}. Faked, that clock makes the waits stall when the offset
 * changes, so {@code FAKETIME_DONT_FAKE_MONOTONIC=1} leaves it alone. But libfaketime 0.9.10 (Debian 12) still moves
 * the deadline of a {@code pthread_cond_timedwait} on the monotonic clock by the offset (fixed upstream in
 * libfaketime pull request 503), so every wait shorter than the offset returned at once: each parked thread of the
 * JVM spun, and one skewed replica took both cores of the machine for as long as it ran. Its "monotonic fix" is that
 * conversion; {@code FAKETIME_FORCE_MONOTONIC_FIX=0} turns it off, and the waits wait again.
 */
public final class Faketime {

    /** Where Debian and other distributions put the library. */
    private static final List<Path> LIBRARIES = List.of(
            Path.of("/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1"),
            Path.of("/usr/lib/aarch64-linux-gnu/faketime/libfaketime.so.1"),
            Path.of("/usr/lib/faketime/libfaketime.so.1"));

    /** The {@code faketime} command, which sets {@code LD_PRELOAD} and {@code FAKETIME} itself. */
    public static final Path COMMAND = Path.of("/usr/bin/faketime");

    /** What keeps the monotonic clock, and so every timed wait, real; add it to any libfaketime JVM's environment. */
    public static final Map<String, String> WALL_CLOCK_ONLY = Map.of(
            "FAKETIME_DONT_FAKE_MONOTONIC", "1",
            "FAKETIME_FORCE_MONOTONIC_FIX", "0");

    private Faketime() {
    }

    /** @return the library, if this machine has it */
    public static Optional<Path> library() {
        return LIBRARIES.stream().filter(Files::isReadable).findFirst();
    }

    /** @return whether both the library and the {@code faketime} command are installed */
    public static boolean installed() {
        return library().isPresent() && Files.isExecutable(COMMAND);
    }

    /**
     * The environment of a JVM whose wall clock is ahead or behind by what {@code offsetFile} says (such as
     * {@code +3s}), read again at most every second, so a test moves the clock by rewriting the file.
     *
     * @param offsetFile libfaketime's timestamp file
     * @return {@code LD_PRELOAD}, the file, its one-second cache and {@link #WALL_CLOCK_ONLY}
     * @throws IllegalStateException if libfaketime is not installed
     */
    public static Map<String, String> offsetFrom(Path offsetFile) {
        Path library = library().orElseThrow(() -> new IllegalStateException(
                "libfaketime is not installed (Debian package faketime)"));
        Map<String, String> environment = new LinkedHashMap<>(WALL_CLOCK_ONLY);
        environment.put("LD_PRELOAD", library.toString());
        environment.put("FAKETIME_TIMESTAMP_FILE", offsetFile.toAbsolutePath().toString());
        environment.put("FAKETIME_CACHE_DURATION", "1");
        return environment;
    }
}
