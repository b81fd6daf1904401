package dev.onebeat.scheduler.engine.calendar;

import dev.onebeat.job.CalendarPolicy;
import dev.onebeat.job.PeriodicJob;
import dev.onebeat.scheduler.engine.registry.JobDefinitionException;
import dev.onebeat.scheduler.engine.registry.JobRegistry;
import dev.onebeat.scheduler.engine.registry.JobsProperties;
import dev.onebeat.scheduler.engine.registry.RegisteredJob;
import dev.onebeat.scheduler.engine.schedule.ScheduledInstant;
import dev.onebeat.scheduler.engine.schedule.Timetable;
import java.time.Clock;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.MonthDay;
import java.time.ZoneId;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * The calendars of the cluster, those of configuration and those made through the admin API, and what they leave out
 * of a job's instants. A configured calendar is parsed at start-up, a bad one stopping it with the calendar and the
 * field named; the stored ones are read again when {@code onebeat.runtime-jobs-poll} has passed since they last were,
 * or at once after this replica changed one. A name is either configuration's or the API's, never both.
 */
@Component
public class Calendars {

    private static final Logger log = LoggerFactory.getLogger(Calendars.class);
    private static final int MAX_REASON = 300;
    /** The most instants of a month a pick looks at: a pick is for a schedule of a few instants a day. */
    static final int MAX_PICKED = 1000;

    private final Map<String, Calendar> configured;
    private final CalendarStore store;
    private final Clock clock;
    private final Duration maxAge;
    private volatile Snapshot snapshot;

    /** The calendars as last read, and when. */
    private record Snapshot(Map<String, Calendar> all, Instant readAt) {
    }

    /**
     * @param registry the jobs of code and configuration, whose calendars must be of configuration: those made through
     *     the API may come and go, and a job of code or configuration cannot wait for one
     * @throws JobDefinitionException naming the calendar and the field at fault, or the job naming an unknown calendar
     */
    Calendars(CalendarsProperties properties, JobsProperties jobs, CalendarStore store, Clock clock,
              JobRegistry registry) {
        this.configured = configured(properties);
        this.store = store;
        this.clock = clock;
        this.maxAge = jobs.runtimeJobsPoll();
        for (RegisteredJob job : registry.definedJobs()) {
            requireDefined(job.job().calendars(), configured.keySet(), job.origin() + " (job '" + job.name() + "')");
        }
    }

    /** @return the calendars of configuration, parsed: a bad one is refused naming it and its field */
    static Map<String, Calendar> configured(CalendarsProperties properties) {
        Map<String, Calendar> calendars = new LinkedHashMap<>();
        properties.calendars().forEach((name, definition) ->
                calendars.put(name, parse("onebeat.calendars." + name, name, definition)));
        return Collections.unmodifiableMap(calendars);
    }

    /** @return the names of the calendars defined in configuration */
    public Set<String> configuredNames() {
        return configured.keySet();
    }

    /** @return whether the calendar of that name is defined in configuration (and so cannot be changed here) */
    public boolean isConfigured(String name) {
        return configured.containsKey(name);
    }

    /** @return every calendar, configuration's first, each group in name order */
    public Map<String, Calendar> all() {
        return current().all();
    }

    /** @return the calendar of that name, if there is one */
    public Optional<Calendar> find(String name) {
        return Optional.ofNullable(current().all().get(name));
    }

    /** Reads the stored calendars again now: after this replica changed one. */
    public void refresh() {
        snapshot = read();
    }

    /**
     * @throws JobDefinitionException naming {@code calendars.include[i]} or {@code calendars.exclude[i]} when the policy
     *     names a calendar that is not defined
     */
    public void requireDefined(CalendarPolicy policy) {
        requireDefined(policy, all().keySet(), "");
    }

    /**
     * @param known the calendar names that may be named
     * @param where where the job was defined, leading the message; empty for an API request
     * @throws JobDefinitionException naming the field of the first calendar that is not among {@code known}
     */
    public static void requireDefined(CalendarPolicy policy, Set<String> known, String where) {
        for (String list : List.of("include", "exclude")) {
            List<String> names = list.equals("include") ? policy.include() : policy.exclude();
            for (int i = 0; i < names.size(); i++) {
                if (!known.contains(names.get(i))) {
                    throw new JobDefinitionException((where.isEmpty() ? "" : where + ".") + "calendars." + list + "["
                            + i + "]: no calendar is named '" + names.get(i) + "'; defined: "
                            + (known.isEmpty() ? "none" : String.join(", ", known.stream().sorted().toList())));
                }
            }
        }
    }

    /**
     * @return why the job's instant does not fire ({@code excluded by calendar 'fr-holidays'}, {@code outside calendar
     *     'business-hours'}, {@code before its active period (from …)}), or null when it fires
     */
    public String exclusion(PeriodicJob job, Instant instant) {
        return job.calendars().none() ? null : exclusion(job, instant, current().all());
    }

    /** @return a function giving the job's exclusion of each instant, over one reading of the calendars */
    public Function<Instant, String> exclusions(PeriodicJob job) {
        CalendarPolicy policy = job.calendars();
        if (policy.none()) {
            return instant -> null;
        }
        Map<String, Calendar> all = current().all();
        return instant -> exclusion(job, instant, all);
    }

    /** @return a function giving the exclusion of each instant under {@code policy}, as of now */
    public Function<Instant, String> exclusions(CalendarPolicy policy) {
        Map<String, Calendar> all = current().all();
        return instant -> policy.none() ? null : exclusion(policy, instant, all);
    }

    /** @return the jobs the calendars leave out at the instant, by reason; empty when all fire */
    public Map<String, List<String>> excluded(List<PeriodicJob> jobs, Instant instant) {
        Map<String, List<String>> excluded = new LinkedHashMap<>();
        Map<String, Calendar> all = null;
        for (PeriodicJob job : jobs) {
            if (job.calendars().none()) {
                continue;
            }
            all = all == null ? current().all() : all;
            String reason = exclusion(job, instant, all);
            if (reason != null) {
                excluded.computeIfAbsent(reason, key -> new ArrayList<>()).add(job.name());
            }
        }
        return excluded;
    }

    /**
     * @return why the job's instant does not fire: its calendars and active period ({@link #exclusion(CalendarPolicy,
     *     Instant, Map)}), then its pick of the month's instants they let through; null when it fires
     */
    static String exclusion(PeriodicJob job, Instant instant, Map<String, Calendar> all) {
        CalendarPolicy policy = job.calendars();
        String reason = exclusion(policy, instant, all);
        if (reason != null || policy.pick() == CalendarPolicy.Pick.ALL) {
            return reason;
        }
        Timetable timetable = Timetable.of(job.schedule());
        ZoneId zone = job.schedule().zone();
        YearMonth month = YearMonth.from(instant.atZone(zone));
        if (policy.pick() == CalendarPolicy.Pick.LAST_IN_MONTH) {
            ScheduledInstant next = timetable.next(instant);
            for (int seen = 0; next != null && seen < MAX_PICKED && YearMonth.from(next.at().atZone(zone)).equals(month);
                 seen++, next = timetable.next(next.at())) {
                if (next.fires() && exclusion(policy, next.at(), all) == null) {
                    return "not the last of its month let through (pick=last-in-month)";
                }
            }
            return null;
        }
        Instant monthStart = month.atDay(1).atStartOfDay(zone).toInstant();
        for (ScheduledInstant earlier : timetable.between(monthStart, instant, MAX_PICKED)) {
            if (earlier.at().isBefore(instant) && earlier.fires() && exclusion(policy, earlier.at(), all) == null) {
                return "not the first of its month let through (pick=first-in-month)";
            }
        }
        return null;
    }

    static String exclusion(CalendarPolicy policy, Instant instant, Map<String, Calendar> all) {
        if (policy.activeFrom() != null && instant.isBefore(policy.activeFrom())) {
            return "before its active period (from " + policy.activeFrom() + ")";
        }
        if (policy.activeUntil() != null && !instant.isBefore(policy.activeUntil())) {
            return "after its active period (until " + policy.activeUntil() + ")";
        }
        for (String name : policy.calendars()) {
            if (!all.containsKey(name)) {
                // refused when the job was defined; met here only if it went meanwhile: skipping is the safe side
                return "calendar '" + name + "' is not defined";
            }
        }
        for (String name : policy.exclude()) {
            if (all.get(name).contains(instant)) {
                return "excluded by calendar '" + name + "'";
            }
        }
        if (!policy.include().isEmpty() && policy.include().stream().noneMatch(name -> all.get(name).contains(instant))) {
            String reason = (policy.include().size() == 1 ? "outside calendar '" : "outside calendars '")
                    + String.join("', '", policy.include()) + "'";
            // the ledger keeps 300 characters of a reason
            return reason.length() <= MAX_REASON ? reason : reason.substring(0, MAX_REASON - 1) + "…";
        }
        return null;
    }

    /**
     * @param where the path leading each message ({@code onebeat.calendars.fr-holidays}), empty for an API request
     * @param name the calendar's name
     * @throws JobDefinitionException naming the field at fault and its value
     */
    public static Calendar parse(String where, String name, CalendarsProperties.Definition d) {
        String prefix = where.isEmpty() ? "" : where + ".";
        if (name == null || !CalendarPolicy.NAME.matcher(name).matches()) {
            throw new JobDefinitionException(prefix + "name: must be 1 to 100 letters, digits, '.', '_', ':' or '-',"
                    + " starting with a letter or digit, was '" + name + "'");
        }
        ZoneId zone = ZoneOffset.UTC;
        if (d.zone() != null && !d.zone().isBlank()) {
            try {
                zone = ZoneId.of(d.zone().trim());
            } catch (DateTimeException e) {
                throw new JobDefinitionException(prefix + "zone: '" + d.zone() + "' is not a known IANA time zone "
                        + "(e.g. Europe/Paris, UTC)", e);
            }
        }
        Calendar calendar = new Calendar(name, zone, each(prefix, "dates", d.dates(), Calendars::date),
                each(prefix, "ranges", d.ranges(), Calendar.DateRange::parse),
                each(prefix, "yearly", d.yearly(), Calendars::monthDay),
                each(prefix, "weekly", d.weekly(), WeeklyWindow::parse));
        if (calendar.dates().isEmpty() && calendar.ranges().isEmpty() && calendar.yearly().isEmpty()
                && calendar.weekly().isEmpty()) {
            throw new JobDefinitionException(prefix + "dates: calendar '" + name + "' holds no day: give at least one"
                    + " of dates, ranges, yearly and weekly");
        }
        return calendar;
    }

    private static <T> List<T> each(String prefix, String field, List<String> texts, Function<String, T> parse) {
        List<T> parsed = new ArrayList<>();
        for (int i = 0; texts != null && i < texts.size(); i++) {
            try {
                parsed.add(parse.apply(texts.get(i)));
            } catch (IllegalArgumentException e) {
                throw new JobDefinitionException(prefix + field + "[" + i + "]: " + e.getMessage(), e);
            }
        }
        return parsed;
    }

    static LocalDate date(String text) {
        try {
            return LocalDate.parse(text == null ? "" : text.trim());
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("'" + text + "' is not a day (YYYY-MM-DD)", e);
        }
    }

    private static MonthDay monthDay(String text) {
        try {
            return MonthDay.parse("--" + (text == null ? "" : text.trim()));
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("'" + text + "' is not a day of the year (MM-DD)", e);
        }
    }

    private Snapshot current() {
        Snapshot current = snapshot;
        if (current == null || !clock.instant().isBefore(current.readAt().plus(maxAge))) {
            try {
                current = read();
            } catch (RuntimeException e) {
                if (current == null) {
                    throw e;
                }
                // the database is away: the calendars as last read stand, as a fire's members would
                log.warn("stored calendars could not be read again, those read at {} stand error={}",
                        current.readAt(), e.toString());
                return current;
            }
            snapshot = current;
        }
        return current;
    }

    private Snapshot read() {
        Instant now = clock.instant();
        Map<String, Calendar> stored = new LinkedHashMap<>();
        store.all().forEach((name, definition) -> {
            if (configured.containsKey(name)) {
                return;
            }
            try {
                stored.put(name, parse("", name, definition));
            } catch (JobDefinitionException e) {
                // stored after the same check: only a change of the rules between versions can bring this
                log.error("stored calendar does not parse, left out calendar={} error={}", name, e.getMessage());
            }
        });
        Map<String, Calendar> all = new LinkedHashMap<>(configured);
        all.putAll(stored);
        return new Snapshot(Collections.unmodifiableMap(all), now);
    }
}
