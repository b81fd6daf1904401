package dev.onebeat.scheduler.engine.schedule;

import dev.onebeat.job.PeriodicJob;
import dev.onebeat.job.Schedule;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * When a job's fire of an instant begins: the instant plus the job's offset, its place in its schedule's
 * {@linkplain PeriodicJob#spread() spread} (from its name alone, the same at every instant) plus its
 * {@linkplain PeriodicJob#jitter() jitter} at that instant (from its name and the instant). Both come from SHA-256, so
 * every replica, every version and every restart computes the same moment: a recovery on another replica waits for
 * the same moment the dead one would have, and the instants API shows it. Whole milliseconds: a job moves by
 * {@code 0} to {@code spread + jitter - 1 ms}. The instant itself never moves: keys, ledger rows and outcomes are the
 * instant's.
 */
public final class FireMoments {

    /** How many instants ahead {@link #shortestGap} looks. */
    public static final int GAP_INSTANTS = 1000;
    /** How far ahead {@link #shortestGap} looks. */
    public static final Duration GAP_HORIZON = Duration.ofDays(400);

    private FireMoments() {
    }

    /** @return how far past {@code instant} the job's fire of it begins */
    public static Duration offset(PeriodicJob job, Instant instant) {
        return offset(job.name(), job.jitter(), job.spread(), instant);
    }

    /** @return the moment the job's fire of {@code instant} begins */
    public static Instant plannedAt(PeriodicJob job, Instant instant) {
        return moves(job) ? instant.plus(offset(job, instant)) : instant;
    }

    /** @return whether the job's fires begin later than their instants (a jitter or a spread) */
    public static boolean moves(PeriodicJob job) {
        return job.jitter().toMillis() > 0 || job.spread().toMillis() > 0;
    }

    /**
     * @param name the job's name
     * @param jitter its jitter, zero for none
     * @param spread its schedule's spread, zero for none
     * @param instant the scheduled instant
     * @return its offset: in {@code [0, spread)} by the name, plus in {@code [0, jitter)} by the name and the instant
     */
    public static Duration offset(String name, Duration jitter, Duration spread, Instant instant) {
        long millis = 0;
        if (spread.toMillis() > 0) {
            millis += Math.floorMod(hash("spread\n" + name), spread.toMillis());
        }
        if (jitter.toMillis() > 0) {
            millis += Math.floorMod(hash("jitter\n" + name + "\n" + instant), jitter.toMillis());
        }
        return Duration.ofMillis(millis);
    }

    /**
     * The shortest time between two instants of a schedule, over its next {@link #GAP_INSTANTS} instants within
     * {@link #GAP_HORIZON}: a fire moved by as much or more would begin after the next instant's.
     *
     * @return the shortest gap, or null if fewer than two instants come in that time
     */
    public static Duration shortestGap(Schedule schedule, Instant from) {
        if (schedule instanceof Schedule.Interval interval) {
            return interval.interval();
        }
        List<ScheduledInstant> instants = Timetable.of(schedule).between(from, from.plus(GAP_HORIZON), GAP_INSTANTS);
        Duration shortest = null;
        for (int i = 1; i < instants.size(); i++) {
            Duration gap = Duration.between(instants.get(i - 1).at(), instants.get(i).at());
            if (shortest == null || gap.compareTo(shortest) < 0) {
                shortest = gap;
            }
        }
        return shortest;
    }

    private static long hash(String text) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
            long value = 0;
            for (int i = 0; i < Long.BYTES; i++) {
                value = (value << 8) | (digest[i] & 0xff);
            }
            return value;
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }
}
