package dev.onebeat.scheduler.web.api;

import dev.onebeat.job.CalendarPolicy;
import dev.onebeat.scheduler.engine.calendar.Calendars;
import dev.onebeat.scheduler.engine.registry.JobDefinitionException;
import dev.onebeat.scheduler.operate.admin.ScheduleFields;
import dev.onebeat.scheduler.operate.admin.SchedulePreview;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /api/schedules/preview}: the coming instants of a cron (with its zone and daylight-saving
 * policy) or an interval, in UTC and local time, each with how daylight saving placed it and, given a job's
 * {@code name} with its {@code jitter} and {@code spread}, the moment its fire is planned for; given calendars to
 * {@code include} and {@code exclude} (comma-separated or repeated), whether they leave each instant out.
 */
@RestController
class PreviewController {

    private final Clock clock;
    private final Calendars calendars;

    PreviewController(Clock clock, Calendars calendars) {
        this.clock = clock;
        this.calendars = calendars;
    }

    @GetMapping("/api/schedules/preview")
    SchedulePreview.Preview preview(@RequestParam(required = false) String cron,
                                    @RequestParam(required = false) String every,
                                    @RequestParam(required = false) String zone,
                                    @RequestParam(required = false) String gap,
                                    @RequestParam(required = false) String overlap,
                                    @RequestParam(defaultValue = "10") @Min(1) @Max(100) int count,
                                    @RequestParam(required = false) Instant from,
                                    @RequestParam(required = false) String name,
                                    @RequestParam(required = false) String jitter,
                                    @RequestParam(required = false) String spread,
                                    @RequestParam(required = false) List<String> include,
                                    @RequestParam(required = false) List<String> exclude) {
        InstantParameters.check("from", from);
        CalendarPolicy policy;
        try {
            policy = new CalendarPolicy(include == null ? List.of() : include, exclude == null ? List.of() : exclude,
                    null, null);
        } catch (IllegalArgumentException e) {
            throw new JobDefinitionException(e.getMessage(), e);
        }
        calendars.requireDefined(policy);
        return SchedulePreview.of(new ScheduleFields(cron, every, zone, gap, overlap),
                from == null ? clock.instant() : from, count, SchedulePreview.Moves.parse(name, jitter, spread),
                calendars.exclusions(policy));
    }
}
