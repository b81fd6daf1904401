package dev.onebeat.scheduler.engine.registry;

import dev.onebeat.job.Schedule;
import java.util.Arrays;
import java.util.List;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Remembers the schedules already parsed and checked, and the trigger keys of shared schedules. Ten thousand jobs often share a few hundred schedules
 * (per-tenant jobs, crons on round hours), and parsing a cron and finding its next instant, twice per job, was
 * most of what loading them cost in a replica's still-cold JVM. Only schedules that parsed and passed are kept
 * (a bad one is refused with the path of each definition that has it); past {@link #LIMIT} entries each map
 * starts again.
 */
final class ScheduleMemo {

    static final int LIMIT = 4096;
    private static final Map<List<String>, Schedule> PARSED = new ConcurrentHashMap<>();
    private static final Set<Schedule.Cron> CHECKED = ConcurrentHashMap.newKeySet();
    private static final Map<Schedule, Optional<Duration>> GAPS = new ConcurrentHashMap<>();
    private static final Map<String, String> KEYS = new ConcurrentHashMap<>();

    private ScheduleMemo() {
    }

    /** @return the schedule parsed from exactly these fields before, or null */
    static Schedule parsed(String... fields) {
        return PARSED.get(Arrays.asList(fields));
    }

    static void remember(Schedule schedule, String... fields) {
        if (PARSED.size() >= LIMIT) {
            PARSED.clear();
        }
        PARSED.put(Arrays.asList(fields), schedule);
    }

    /** @return whether this cron passed its checks before (its syntax, and that it fires again) */
    static boolean checked(Schedule.Cron cron) {
        return CHECKED.contains(cron);
    }

    static void remember(Schedule.Cron cron) {
        if (CHECKED.size() >= LIMIT) {
            CHECKED.clear();
        }
        CHECKED.add(cron);
    }

    /**
     * @param compute works the key out when it is not remembered
     * @return the trigger key of the schedules that share {@code signature} ({@link ScheduleKeys}), as {@code compute}
     *     gave it once: a start-up works out each job's key twice, a SHA-256 each time
     */
    static String sharedKey(String signature, Supplier<String> compute) {
        String key = KEYS.get(signature);
        if (key == null) {
            if (KEYS.size() >= LIMIT) {
                KEYS.clear();
            }
            key = compute.get();
            KEYS.put(signature, key);
        }
        return key;
    }

    /**
     * @param compute works the gap out when it is not remembered
     * @return the schedule's shortest gap between two instants, as {@code compute} gave it once; null for none
     */
    static Duration shortestGap(Schedule schedule, Supplier<Duration> compute) {
        Optional<Duration> known = GAPS.get(schedule);
        if (known == null) {
            if (GAPS.size() >= LIMIT) {
                GAPS.clear();
            }
            known = Optional.ofNullable(compute.get());
            GAPS.put(schedule, known);
        }
        return known.orElse(null);
    }
}
