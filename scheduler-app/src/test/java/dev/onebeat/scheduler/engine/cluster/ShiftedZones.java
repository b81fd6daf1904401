package dev.onebeat.scheduler.engine.cluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.zone.ZoneOffsetTransition;
import java.time.zone.ZoneRules;
import java.time.zone.ZoneRulesProvider;
import java.util.List;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * Two made-up zones, registered in a replica's JVM, whose clocks change at a chosen instant T, so that
 * a real scheduler can be watched crossing a gap and an overlap within a test. In
 * {@value #GAP} the clocks jump from +01:00 to +01:00:20 at T (20 s of wall-clock time never happen);
 * in {@value #OVERLAP} they go back from +01:00:20 to +01:00 (20 s happen twice). Either way the
 * wall-clock time at T under +01:00 is T + 1 h, the start of the affected 20 seconds.
 *
 * <p>T is chosen in the replica, as late as its start allows: when the jobs or a zone's rules first need it
 * (the job beans are built well into the start), {@value #LEAD_SECONDS} s or more ahead, then written to the file
 * the test named, which reads it from there. Chosen before the start, T had to be far enough ahead for the slowest
 * start seen (71.5 s on a loaded machine), and every other run waited for that.
 */
final class ShiftedZones extends ZoneRulesProvider {

    static final String GAP = "Onebeat/Gap";
    static final String OVERLAP = "Onebeat/Overlap";
    /** System property of a replica: the file it writes T to (epoch seconds) once it has chosen T. */
    static final String TRANSITION_PROPERTY = "replica.zone-transition-file";
    /**
     * The least time from choosing T to T: the rest of the replica's start, then the 30 s of instants before T. The
     * rest of a start after the job beans took 1.0-2.2 s in the suite's runs of 6 December (a whole start 4-11 s); a
     * whole start took 71.5 s on a loaded VM, and this leaves 60 s for its rest. The test's failure message says how
     * long it took.
     */
    static final long LEAD_SECONDS = 90;
    static final ZoneOffset BEFORE_GAP = ZoneOffset.ofHours(1);
    static final ZoneOffset AFTER_GAP = ZoneOffset.ofTotalSeconds(3600 + 20);

    private static Long transition;

    private ShiftedZones() {
    }

    /** Registers the zones if the replica was given a file for T. */
    static void registerIfAsked() {
        if (System.getProperty(TRANSITION_PROPERTY) != null) {
            ZoneRulesProvider.registerProvider(new ShiftedZones());
        }
    }

    /** @return T in epoch seconds, chosen at the first call and written to the file of {@link #TRANSITION_PROPERTY} */
    static synchronized long transition() {
        if (transition == null) {
            Instant now = Instant.now();
            long chosen = transitionFrom(now.plusSeconds(LEAD_SECONDS).getEpochSecond());
            Path file = Path.of(System.getProperty(TRANSITION_PROPERTY));
            try {
                Path written = Files.writeString(file.resolveSibling(file.getFileName() + ".part"),
                        chosen + " " + now, StandardCharsets.US_ASCII);
                Files.move(written, file, StandardCopyOption.ATOMIC_MOVE);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            transition = chosen;
        }
        return transition;
    }

    /**
     * @return the first second from {@code earliest} on that is a multiple of 5 and 10 to 40 s into its minute, so
     *         the instants of the jobs around it stay in that minute
     */
    static long transitionFrom(long earliest) {
        long t = earliest + Math.floorMod(-earliest, 5);
        while (Math.floorMod(t, 60) < 10 || Math.floorMod(t, 60) > 40) {
            t += 5;
        }
        return t;
    }

    /** T in epoch seconds, and when the replica chose it. */
    record Transition(long epochSecond, Instant chosenAt) {
    }

    /** @return T as the test reads it from {@code file}, once the replica has chosen it; empty before */
    static Optional<Transition> readTransition(Path file) {
        try {
            if (!Files.exists(file)) {
                return Optional.empty();
            }
            String[] parts = Files.readString(file).strip().split(" ");
            return Optional.of(new Transition(Long.parseLong(parts[0]), Instant.parse(parts[1])));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** @return the wall-clock time the affected 20 seconds start at, for a transition at {@code epochSecond} */
    static LocalDateTime affectedFrom(long epochSecond) {
        return LocalDateTime.ofEpochSecond(epochSecond, 0, BEFORE_GAP);
    }

    @Override
    protected Set<String> provideZoneIds() {
        return Set.of(GAP, OVERLAP);
    }

    @Override
    protected ZoneRules provideRules(String zoneId, boolean forCaching) {
        boolean gap = zoneId.equals(GAP);
        ZoneOffset before = gap ? BEFORE_GAP : AFTER_GAP;
        ZoneOffset after = gap ? AFTER_GAP : BEFORE_GAP;
        ZoneOffsetTransition change = ZoneOffsetTransition.of(LocalDateTime.ofEpochSecond(transition(), 0, before),
                before, after);
        return ZoneRules.of(before, before, List.of(), List.of(change), List.of());
    }

    @Override
    protected NavigableMap<String, ZoneRules> provideVersions(String zoneId) {
        NavigableMap<String, ZoneRules> versions = new TreeMap<>();
        versions.put("test", provideRules(zoneId, false));
        return versions;
    }
}
