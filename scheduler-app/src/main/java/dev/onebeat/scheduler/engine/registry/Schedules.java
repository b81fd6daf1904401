package dev.onebeat.scheduler.engine.registry;

import dev.onebeat.job.DstPolicy;
import dev.onebeat.job.Durations;
import dev.onebeat.job.Schedule;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.function.Supplier;

/**
 * Parses a schedule written as text ({@code cron} or {@code every}, with a {@code zone} and, for a cron,
 * its daylight-saving {@code gap} and {@code overlap} rules) the one way configuration, runtime jobs
 * and the schedule preview all use, so each reports the same problem in the same words. Messages are
 * prefixed with the path of the field ({@code onebeat.jobs[2] (job 'x').cron: ...}, or just
 * {@code cron: ...} when the path is empty).
 */
public final class Schedules {

    private Schedules() {
    }

    /**
     * Parses a schedule with the default daylight-saving policy ({@link DstPolicy#DEFAULT}).
     *
     * @see #parse(String, String, String, String, String, String)
     */
    public static Schedule parse(String where, String cron, String every, String zone) {
        return parse(where, cron, every, zone, null, null);
    }

    /**
     * @param where path of the definition holding the fields, or empty for top-level fields
     * @param cron 5 fields (Unix), 6 or 7 fields (Quartz) or a {@code @daily}-style macro; or null
     * @param every an interval such as {@code 10s} or {@code PT5M}; or null
     * @param zone an IANA zone id, null for UTC
     * @param gap {@code shift} or {@code skip}, what a cron time that a daylight-saving gap removes does;
     *     null or blank for {@code shift}; refused with {@code every}
     * @param overlap {@code first}, {@code last} or {@code both}, what a cron time that an overlap
     *     repeats does; null or blank for {@code first}; refused with {@code every}
     * @return the schedule; whether it still fires is checked with the job ({@link #requireFiresAgain}), against
     *     the caller's clock
     * @throws JobDefinitionException naming the field at fault and what is wrong with it
     */
    public static Schedule parse(String where, String cron, String every, String zone, String gap, String overlap) {
        Schedule known = ScheduleMemo.parsed(cron, every, zone, gap, overlap);
        if (known != null) {
            return known;
        }
        Schedule parsed = parseAndCheck(where, cron, every, zone, gap, overlap);
        ScheduleMemo.remember(parsed, cron, every, zone, gap, overlap);
        return parsed;
    }

    /**
     * @param where path of the definition holding the schedule, or empty for top-level fields
     * @param now the time after which the schedule must still fire, from the caller's clock
     * @throws JobDefinitionException if a cron has no instant after {@code now} (an interval always has one)
     */
    public static void requireFiresAgain(String where, Schedule schedule, Instant now) {
        if (schedule instanceof Schedule.Cron cron) {
            JobValidation.checkFiresAgain(path(where, "cron"), cron, now);
        }
    }

    private static Schedule parseAndCheck(String where, String cron, String every, String zone, String gap,
                                          String overlap) {
        boolean hasCron = cron != null && !cron.isBlank();
        boolean hasEvery = every != null && !every.isBlank();
        if (hasCron == hasEvery) {
            throw new JobDefinitionException((where.isEmpty() ? "cron, every" : where)
                    + ": set exactly one of cron and every (cron='" + cron + "', every='" + every + "')");
        }
        ZoneId zoneId = zone == null ? Schedule.UTC : field(where, "zone", () -> zone(zone));
        if (hasEvery) {
            Duration interval = field(where, "every", () -> Durations.parse(every));
            Schedule.Interval parsed = field(where, "every", () -> Schedule.every(interval).in(zoneId));
            cronOnly(where, "gap", gap);
            cronOnly(where, "overlap", overlap);
            return parsed;
        }
        String expression = cron.trim();
        Schedule.Cron parsed = field(where, "cron", () -> expression.split("\\s+").length == 5
                || expression.startsWith("@")
                ? Schedule.unixCron(expression, zoneId)
                : Schedule.cron(expression, zoneId));
        JobValidation.checkSyntax(path(where, "cron"), parsed);
        if (!isBlank(gap)) {
            parsed = parsed.onGap(field(where, "gap", () -> DstPolicy.Gap.parse(gap)));
        }
        if (!isBlank(overlap)) {
            parsed = parsed.onOverlap(field(where, "overlap", () -> DstPolicy.Overlap.parse(overlap)));
        }
        return parsed;
    }

    /** Refuses a daylight-saving rule on an interval, which counts elapsed seconds and meets no gap or overlap. */
    private static void cronOnly(String where, String field, String value) {
        if (!isBlank(value)) {
            throw new JobDefinitionException(path(where, field) + ": '" + value.strip() + "' applies to cron "
                    + "schedules only; an every schedule counts elapsed seconds and never meets a daylight-saving "
                    + field + " (remove " + field + ", or use cron)");
        }
    }

    private static boolean isBlank(String text) {
        return text == null || text.isBlank();
    }

    /** @return {@code where.field}, or {@code field} alone when {@code where} is empty */
    static String path(String where, String field) {
        return where.isEmpty() ? field : where + "." + field;
    }

    /** Runs {@code parse}, turning its failure into a {@link JobDefinitionException} naming the field. */
    static <T> T field(String where, String field, Supplier<T> parse) {
        try {
            return parse.get();
        } catch (JobDefinitionException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new JobDefinitionException(path(where, field) + ": " + e.getMessage(), e);
        }
    }

    private static ZoneId zone(String id) {
        try {
            return ZoneId.of(id.trim());
        } catch (DateTimeException e) {
            throw new IllegalArgumentException("'" + id + "' is not a known IANA time zone (e.g. Europe/Paris, UTC)");
        }
    }
}
