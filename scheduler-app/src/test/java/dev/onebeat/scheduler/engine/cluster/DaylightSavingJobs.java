package dev.onebeat.scheduler.engine.cluster;

import dev.onebeat.job.DstPolicy;
import dev.onebeat.job.Jobs;
import dev.onebeat.job.PeriodicJob;
import dev.onebeat.job.Schedule;
import dev.onebeat.job.TaskRequest;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.Map;
import org.springframework.context.annotation.Bean;

/**
 * The jobs of a replica crossing the clock changes of {@link ShiftedZones}, which happen at a second S of
 * a minute M (10 to 40, a multiple of 5): every 5 s of wall-clock time from 10 s before the change to
 * the end of the affected 20 s ({@code S-10 - S+15 / 5 M H * * ?}), under each daylight-saving policy,
 * and one cron counting elapsed time ({@code 0/5 * * * * ?}).
 */
// deliberately not @Configuration: component scanning of in-JVM tests must not pick these jobs up
class DaylightSavingJobs {

    static final String TASK = "dst.tick";

    /** @return job name → schedule, for a clock change at {@code transition} (epoch seconds) */
    static Map<String, Schedule.Cron> schedules(long transition) {
        LocalDateTime from = ShiftedZones.affectedFrom(transition);
        String minute = (from.getSecond() - 10) + "-" + (from.getSecond() + 15) + "/5 " + from.getMinute() + " "
                + from.getHour() + " * * ?";
        String every = "0/5 * * * * ?";
        ZoneId gap = ZoneId.of(ShiftedZones.GAP);
        ZoneId overlap = ZoneId.of(ShiftedZones.OVERLAP);
        return Map.of(
                "gap-shift", Schedule.cron(minute, gap),
                "gap-skip", Schedule.cron(minute, gap).onGap(DstPolicy.Gap.SKIP),
                "overlap-first", Schedule.cron(minute, overlap),
                "overlap-last", Schedule.cron(minute, overlap).onOverlap(DstPolicy.Overlap.LAST),
                "overlap-both", Schedule.cron(minute, overlap).onOverlap(DstPolicy.Overlap.BOTH),
                "overlap-elapsed", Schedule.cron(every, overlap).onOverlap(DstPolicy.Overlap.LAST));
    }

    @Bean
    PeriodicJob gapShift() {
        return job("gap-shift");
    }

    @Bean
    PeriodicJob gapSkip() {
        return job("gap-skip");
    }

    @Bean
    PeriodicJob overlapFirst() {
        return job("overlap-first");
    }

    @Bean
    PeriodicJob overlapLast() {
        return job("overlap-last");
    }

    @Bean
    PeriodicJob overlapBoth() {
        return job("overlap-both");
    }

    @Bean
    PeriodicJob overlapElapsed() {
        return job("overlap-elapsed");
    }

    private static PeriodicJob job(String name) {
        return Jobs.periodic(name, schedules(ShiftedZones.transition()).get(name)).execute(ctx -> ctx.dispatch(TaskRequest.of(TASK, "dst")));
    }
}
