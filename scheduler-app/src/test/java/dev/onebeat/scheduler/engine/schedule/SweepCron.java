package dev.onebeat.scheduler.engine.schedule;

import dev.onebeat.job.DstPolicy;
import dev.onebeat.job.Schedule;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.function.Predicate;
import java.util.stream.IntStream;

/**
 * A cron written twice: as onebeat reads it ({@code expression}) and as a hand-written test of
 * wall-clock minutes, so that {@link ReferenceTimetable} depends neither on Quartz nor on the model.
 *
 * @param expression the Unix (5 fields) or Quartz (6 or 7 fields) expression
 * @param minutes whether a wall-clock minute (given with second 0) matches the minute, hour and day fields
 * @param seconds the seconds of a matching minute that fire, ascending: the second field, written out
 * @param elapsedTime whether the minute or the hour field takes every value, decided by reading the
 *     expression, not by calling the model
 */
record SweepCron(String expression, Predicate<LocalDateTime> minutes, int[] seconds, boolean elapsedTime) {

    private static final LocalTime[] MINUTES_OF_DAY =
            IntStream.range(0, 1440).mapToObj(m -> LocalTime.of(m / 60, m % 60)).toArray(LocalTime[]::new);

    static SweepCron of(String expression, Predicate<LocalDateTime> minutes) {
        return new SweepCron(expression, minutes, new int[] {0}, false);
    }

    SweepCron countingElapsedTime() {
        return new SweepCron(expression, minutes, seconds, true);
    }

    SweepCron atSeconds(int... secondsOfMinute) {
        return new SweepCron(expression, minutes, secondsOfMinute.clone(), elapsedTime);
    }

    Schedule.Cron schedule(ZoneId zone, DstPolicy policy) {
        Schedule.Cron cron = expression.trim().split("\\s+").length == 5
                ? Schedule.unixCron(expression, zone)
                : Schedule.cron(expression, zone);
        return cron.withDst(policy);
    }

    /**
     * Walks the wall clock minute by minute, day by day.
     *
     * @return the wall-clock times in {@code [from, to)} that match
     */
    WallClockTimes wallClockTimes(LocalDateTime from, LocalDateTime to) {
        long start = from.toEpochSecond(ZoneOffset.UTC);
        long stop = to.toEpochSecond(ZoneOffset.UTC);
        long[] times = new long[1024];
        int count = 0;
        for (LocalDate day = from.toLocalDate(); !day.isAfter(to.toLocalDate()); day = day.plusDays(1)) {
            long midnight = day.toEpochDay() * 86_400;
            for (int minute = 0; minute < MINUTES_OF_DAY.length; minute++) {
                if (!minutes.test(LocalDateTime.of(day, MINUTES_OF_DAY[minute]))) {
                    continue;
                }
                for (int second : seconds) {
                    long time = midnight + minute * 60L + second;
                    if (time >= start && time < stop) {
                        if (count == times.length) {
                            times = Arrays.copyOf(times, count * 2);
                        }
                        times[count++] = time;
                    }
                }
            }
        }
        return new WallClockTimes(start, stop, Arrays.copyOf(times, count));
    }

    /**
     * The wall-clock times a cron matches in a stretch of the wall clock, each as the epoch second of the
     * date-time read as if it were UTC.
     *
     * @param start first second walked
     * @param stop first second not walked
     * @param times ascending
     */
    record WallClockTimes(long start, long stop, long[] times) {

        /** @return the times in {@code [from, to)}, which must lie inside the stretch walked */
        long[] within(long from, long to) {
            if (from < start || to > stop) {
                throw new IllegalArgumentException("wall-clock times were walked in [" + start + ", " + stop
                        + "), not over [" + from + ", " + to + ")");
            }
            return Arrays.copyOfRange(times, insertionPoint(from), insertionPoint(to));
        }

        private int insertionPoint(long time) {
            int index = Arrays.binarySearch(times, time);
            return index >= 0 ? index : -index - 1;
        }
    }

    @Override
    public String toString() {
        return "'" + expression + "'";
    }
}
