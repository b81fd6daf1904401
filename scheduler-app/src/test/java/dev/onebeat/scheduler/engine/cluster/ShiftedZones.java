package dev.onebeat.scheduler.engine.cluster;

import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.zone.ZoneOffsetTransition;
import java.time.zone.ZoneRules;
import java.time.zone.ZoneRulesProvider;
import java.util.List;
import java.util.NavigableMap;
import java.util.Set;
import java.util.TreeMap;

/**
 * Two made-up zones, registered in a replica's JVM, whose clocks change at a chosen instant T, so that
 * a real scheduler can be watched crossing a gap and an overlap within a test. In
 * {@value #GAP} the clocks jump from +01:00 to +01:00:20 at T (20 s of wall-clock time never happen);
 * in {@value #OVERLAP} they go back from +01:00:20 to +01:00 (20 s happen twice). Either way the
 * wall-clock time at T under +01:00 is T + 1 h, the start of the affected 20 seconds.
 */
final class ShiftedZones extends ZoneRulesProvider {

    static final String GAP = "Onebeat/Gap";
    static final String OVERLAP = "Onebeat/Overlap";
    /** System property of a replica: T, in epoch seconds. */
    static final String TRANSITION_PROPERTY = "replica.zone-transition";
    static final ZoneOffset BEFORE_GAP = ZoneOffset.ofHours(1);
    static final ZoneOffset AFTER_GAP = ZoneOffset.ofTotalSeconds(3600 + 20);

    private final long transition;

    private ShiftedZones(long transition) {
        this.transition = transition;
    }

    /** Registers the zones if the replica was given a transition instant. */
    static void registerIfAsked() {
        String at = System.getProperty(TRANSITION_PROPERTY);
        if (at != null) {
            ZoneRulesProvider.registerProvider(new ShiftedZones(Long.parseLong(at)));
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
        ZoneOffsetTransition change = ZoneOffsetTransition.of(LocalDateTime.ofEpochSecond(transition, 0, before),
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
