package dev.onebeat.scheduler.web.ui;

import dev.onebeat.job.DstPolicy;
import dev.onebeat.job.MisfirePolicy;
import dev.onebeat.job.PeriodicJob;
import dev.onebeat.job.Schedule;
import dev.onebeat.scheduler.operate.admin.ScheduleFields;
import dev.onebeat.scheduler.engine.registry.JobDefinitionException;
import dev.onebeat.scheduler.engine.registry.JobsProperties.Definition;
import dev.onebeat.scheduler.engine.registry.JobsProperties;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.springframework.stereotype.Component;
import tools.jackson.core.JacksonException;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

/** The console's job forms, as typed into the browser, and their translation into job definitions. */
@Component
class JobForms {

    /** The misfire policies as configuration writes them: {@code fire-once-now}, ... */
    static final List<String> MISFIRES = Arrays.stream(MisfirePolicy.values()).map(JobForms::written).toList();
    /** The daylight-saving rules the forms offer. */
    static final DstChoices DST_CHOICES = new DstChoices(DstPolicy.DEFAULT.gap().text(),
            Arrays.stream(DstPolicy.Gap.values()).filter(gap -> gap != DstPolicy.DEFAULT.gap())
                    .map(DstPolicy.Gap::text).toList(),
            DstPolicy.DEFAULT.overlap().text(),
            Arrays.stream(DstPolicy.Overlap.values()).filter(overlap -> overlap != DstPolicy.DEFAULT.overlap())
                    .map(DstPolicy.Overlap::text).toList());

    /**
     * The choices of the {@code gap} and {@code overlap} selects: an empty choice standing for the default
     * rule, then the others. The empty choice is also what an interval needs, so a form switched to
     * {@code every} never sends a rule the interval would refuse.
     *
     * @param defaultGap the gap rule the empty choice stands for ({@code shift})
     * @param gaps the other gap rules
     * @param defaultOverlap the overlap rule the empty choice stands for ({@code first})
     * @param overlaps the other overlap rules
     */
    record DstChoices(String defaultGap, List<String> gaps, String defaultOverlap, List<String> overlaps) {
    }

    private final JsonMapper json;

    JobForms(JsonMapper json) {
        this.json = json;
    }

    /**
     * The schedule of a job, as the reschedule form edits it: {@code cron} or {@code every}.
     *
     * @param cron Unix (5 fields) or Quartz (6 or 7 fields) cron, or a macro such as {@code @daily}
     * @param every an interval ({@code 10s}, {@code PT5M})
     * @param zone IANA zone, blank for UTC
     * @param misfire misfire policy, blank to keep the job's
     * @param gap {@code skip}, or blank for the default ({@code shift}); for a cron only
     * @param overlap {@code last} or {@code both}, or blank for the default ({@code first}); for a cron only
     */
    record ScheduleForm(String cron, String every, String zone, String misfire, String gap, String overlap) {

        /** @return the form filled with the job's current schedule, or empty when the job is not registered here */
        static ScheduleForm of(PeriodicJob job) {
            if (job == null) {
                return new ScheduleForm("", "", "", "", "", "");
            }
            Schedule schedule = job.schedule();
            String zone = schedule.zone().getId();
            String misfire = written(job.misfirePolicy());
            if (schedule instanceof Schedule.Cron cron) {
                DstPolicy dst = cron.dst();
                return new ScheduleForm(cron.source(), "", zone, misfire,
                        dst.gap() == DstPolicy.DEFAULT.gap() ? "" : dst.gap().text(),
                        dst.overlap() == DstPolicy.DEFAULT.overlap() ? "" : dst.overlap().text());
            }
            return new ScheduleForm("", ((Schedule.Interval) schedule).interval().getSeconds() + "s", zone, misfire,
                    "", "");
        }

        /** @return the schedule the form describes, blank fields unset */
        ScheduleFields fields() {
            return new ScheduleFields(blankToNull(cron), blankToNull(every), blankToNull(zone), blankToNull(gap),
                    blankToNull(overlap));
        }
    }

    /**
     * A new runtime job, every field as text; {@code args} and {@code kwargs} are JSON; a blank field keeps its
     * default.
     */
    record JobForm(String name, String cron, String every, String zone, String gap, String overlap, String task,
                   String queue, String args, String kwargs, String misfire, String lockAtMostFor,
                   String retryAttempts, String catchUpWindow, String maxCatchUp, String overlapPolicy, String jitter,
                   String spread, String calendarsInclude, String calendarsExclude, String activeFrom,
                   String activeUntil, String namespace) {

        static final JobForm EMPTY = new JobForm("", "", "", "UTC", "", "", "", "", "[]", "{}", "", "", "", "", "", "",
                "", "", "", "", "", "", "");
    }

    /** @throws JobDefinitionException naming {@code args} or {@code kwargs} when either is not JSON of its kind */
    Definition toDefinition(JobForm form) {
        List<Object> args = parse("args", form.args(), new TypeReference<List<Object>>() { }, "a JSON array");
        Map<String, Object> kwargs = parse("kwargs", form.kwargs(), new TypeReference<Map<String, Object>>() { },
                "a JSON object");
        return Definition.builder(blankToNull(form.name()))
                .schedule(blankToNull(form.cron()), blankToNull(form.every()), blankToNull(form.zone()),
                        blankToNull(form.gap()), blankToNull(form.overlap()))
                .task(blankToNull(form.task()))
                .queue(blankToNull(form.queue()))
                .args(args)
                .kwargs(kwargs)
                .misfire(blankToNull(form.misfire()))
                .lockAtMostFor(blankToNull(form.lockAtMostFor()))
                .retry(retry(form.retryAttempts()))
                .catchUpWindow(blankToNull(form.catchUpWindow()))
                .maxCatchUp(number("max-catch-up", form.maxCatchUp()))
                .overlapPolicy(blankToNull(form.overlapPolicy()))
                .jitter(blankToNull(form.jitter()))
                .spread(blankToNull(form.spread()))
                .calendars(calendars(form.calendarsInclude(), form.calendarsExclude()))
                .activeFrom(blankToNull(form.activeFrom()))
                .activeUntil(blankToNull(form.activeUntil()))
                .namespace(blankToNull(form.namespace()))
                .build();
    }

    /** @return the calendars named in two comma-separated fields, or null when both are blank */
    private static JobsProperties.JobCalendars calendars(String include, String exclude) {
        List<String> included = names(include);
        List<String> excluded = names(exclude);
        return included.isEmpty() && excluded.isEmpty() ? null
                : new JobsProperties.JobCalendars(included, excluded, null);
    }

    private static List<String> names(String text) {
        String given = blankToNull(text);
        return given == null ? List.of() : Arrays.stream(given.split(",")).map(String::strip)
                .filter(name -> !name.isEmpty()).toList();
    }

    private static JobsProperties.Retry retry(String attempts) {
        Integer tries = number("retry.attempts", attempts);
        return tries == null ? null : new JobsProperties.Retry(tries, null, null);
    }

    private static Integer number(String field, String text) {
        String given = blankToNull(text);
        try {
            return given == null ? null : Integer.valueOf(given);
        } catch (NumberFormatException e) {
            throw new JobDefinitionException(field + ": '" + given + "' is not a whole number");
        }
    }

    private <T> T parse(String field, String text, TypeReference<T> type, String expected) {
        if (text == null || text.isBlank()) {
            return null;
        }
        try {
            return json.readValue(text, type);
        } catch (JacksonException e) {
            throw new JobDefinitionException(field + ": must be " + expected + ", was '" + text.strip() + "' ("
                    + e.getOriginalMessage() + ")");
        }
    }

    private static String written(MisfirePolicy policy) {
        return policy.name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    static String blankToNull(String text) {
        return text == null || text.isBlank() ? null : text.strip();
    }
}
