package dev.onebeat.job;

import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Which of a job's instants fire, beyond its schedule: named calendars it fires inside ({@code include}) or not
 * inside ({@code exclude}), and the period it is active in. Calendars are defined by name in configuration
 * ({@code onebeat.calendars}) or through the admin API; each has its own zone. An instant that a calendar or the active
 * period leaves out is not fired: it is recorded {@code skipped}, its reason naming the calendar, and the missed-fire
 * detector does not alert on it.
 *
 * <p>An instant fires when it is inside the active period, inside at least one {@code include} calendar (when any is
 * named) and inside none of the {@code exclude} calendars. Calendars are judged at the instant itself, not at the
 * moment a jitter or a spread moves its fire to.
 *
 * @param include calendars the job fires inside only (business hours, business days); empty for no such bound
 * @param exclude calendars the job never fires inside (public holidays, a freeze)
 * @param activeFrom the first instant the job fires at or after, or {@code null} for no start
 * @param activeUntil the instant before which the job's last fire falls (exclusive), or {@code null} for no end
 * @param pick which of a month's instants that the calendars let through fire: all of them, or only the first or the
 *     last (a cron of every weekday, the holidays excluded and {@link Pick#LAST_IN_MONTH}: the last business day)
 */
public record CalendarPolicy(List<String> include, List<String> exclude, Instant activeFrom, Instant activeUntil,
                             Pick pick) {

    /** No calendar and no active period: every instant of the schedule fires. */
    public static final CalendarPolicy NONE = new CalendarPolicy(List.of(), List.of(), null, null, Pick.ALL);

    /**
     * Which of the instants of a month, in the schedule's zone, that the calendars and the active period let through
     * fire. The others are recorded skipped, saying so.
     */
    public enum Pick {
        /** Every one. */
        ALL,
        /** The first of each month: with a cron of every weekday and the holidays excluded, the first business day. */
        FIRST_IN_MONTH,
        /** The last of each month: with a cron of every weekday and the holidays excluded, the last business day. */
        LAST_IN_MONTH
    }

    /** A policy of these calendars and active period that fires every instant they let through. */
    public CalendarPolicy(List<String> include, List<String> exclude, Instant activeFrom, Instant activeUntil) {
        this(include, exclude, activeFrom, activeUntil, Pick.ALL);
    }

    /** What a calendar's name may be: as a job's, letters, digits, '.', '_', ':' and '-'. */
    public static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._:-]{0,99}");

    public CalendarPolicy {
        include = names("include", include);
        exclude = names("exclude", exclude);
        Objects.requireNonNull(pick, "pick must not be null");
        if (activeFrom != null && activeUntil != null && !activeFrom.isBefore(activeUntil)) {
            throw new IllegalArgumentException("activeUntil must be after activeFrom (" + activeFrom + "), was "
                    + activeUntil);
        }
    }

    /** @return a policy that fires only inside the named calendars */
    public static CalendarPolicy including(String... calendars) {
        return new CalendarPolicy(List.of(calendars), List.of(), null, null);
    }

    /** @return a policy that never fires inside the named calendars */
    public static CalendarPolicy excluding(String... calendars) {
        return new CalendarPolicy(List.of(), List.of(calendars), null, null);
    }

    /** @return this policy, also firing only inside the named calendars */
    public CalendarPolicy andIncluding(String... calendars) {
        return new CalendarPolicy(concat(include, calendars), exclude, activeFrom, activeUntil, pick);
    }

    /** @return this policy, also never firing inside the named calendars */
    public CalendarPolicy andExcluding(String... calendars) {
        return new CalendarPolicy(include, concat(exclude, calendars), activeFrom, activeUntil, pick);
    }

    /**
     * @param from the first instant that may fire, or null for no start
     * @param until the end of the active period, exclusive, or null for no end
     * @return this policy, active in {@code [from, until)}
     */
    public CalendarPolicy activeBetween(Instant from, Instant until) {
        return new CalendarPolicy(include, exclude, from, until, pick);
    }

    /** @return this policy, firing only the first or the last of each month's instants that it lets through */
    public CalendarPolicy picking(Pick pick) {
        return new CalendarPolicy(include, exclude, activeFrom, activeUntil, pick);
    }

    /** @return whether the policy leaves every instant of the schedule to fire */
    public boolean none() {
        return include.isEmpty() && exclude.isEmpty() && activeFrom == null && activeUntil == null && pick == Pick.ALL;
    }

    /** @return every calendar the policy names, included ones first */
    public List<String> calendars() {
        return concat(include, exclude.toArray(String[]::new));
    }

    private static List<String> concat(List<String> names, String... more) {
        return Stream.concat(names.stream(), Arrays.stream(more)).toList();
    }

    private static List<String> names(String field, List<String> names) {
        Objects.requireNonNull(names, field + " must not be null");
        for (int i = 0; i < names.size(); i++) {
            String name = names.get(i);
            if (name == null || !NAME.matcher(name).matches()) {
                throw new IllegalArgumentException(field + "[" + i + "]: must be a calendar name (1 to 100 letters, "
                        + "digits, '.', '_', ':' or '-', starting with a letter or digit), was '" + name + "'");
            }
            if (names.subList(0, i).contains(name)) {
                throw new IllegalArgumentException(field + "[" + i + "]: '" + name + "' is named twice");
            }
        }
        return List.copyOf(names);
    }
}
