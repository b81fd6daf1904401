package dev.onebeat.scheduler.engine.registry;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The placeholders a declarative job's arguments may hold, filled from the fire's logical instant, so a
 * re-run or backfill of an instant sends the same arguments (and its tasks keep their key):
 * <ul>
 * <li>{@code {scheduled_at}}: the instant in UTC, ISO-8601 ({@code 2026-03-29T01:00:00Z});</li>
 * <li>{@code {scheduled_date}}: its date in the job's zone ({@code 2026-03-29});</li>
 * <li>either with an offset: {@code {scheduled_date-1d}} (the day before, in the job's zone),
 *     {@code {scheduled_at+30m}}. Units {@code s}, {@code m}, {@code h} count elapsed time; {@code d}, {@code w},
 *     {@code M} (months) and {@code y} count calendar units in the job's zone, so {@code -1d} across a
 *     daylight-saving change is the same wall-clock time the day before.</li>
 * </ul>
 * A placeholder may stand alone or inside text ({@code report-{scheduled_date-1d}.csv}); the value is a
 * string either way. {@code {{scheduled_date}}} is the literal text {@code {scheduled_date}}. Other braces
 * are left alone; an unknown {@code {scheduled_…}} placeholder is refused when the job is defined.
 * Only values are filled, not the names of keyword arguments.
 */
final class ArgumentTemplates {

    // {{scheduled_…}} (escaped), or {scheduled_<name><offset>?}
    private static final Pattern PLACEHOLDER = Pattern.compile("\\{\\{(scheduled_[^{}]*)}}|\\{(scheduled_[^{}]*)}");
    private static final Pattern BODY = Pattern.compile("scheduled_(at|date)(?:([+-])(\\d{1,6})([smhdwMy]))?");

    private final List<Object> args;
    private final Map<String, Object> kwargs;
    private final ZoneId zone;

    private ArgumentTemplates(List<Object> args, Map<String, Object> kwargs, ZoneId zone) {
        this.args = args;
        this.kwargs = kwargs;
        this.zone = zone;
    }

    /**
     * @param args the job's positional arguments
     * @param kwargs its keyword arguments
     * @param zone the job's zone, for dates and calendar offsets
     * @return the templates, or {@code null} when the arguments hold no placeholder (they are sent as written)
     * @throws IllegalArgumentException naming the argument ({@code args[1]}, {@code kwargs.day}) that holds an
     *     unknown placeholder
     */
    static ArgumentTemplates of(List<Object> args, Map<String, Object> kwargs, ZoneId zone) {
        boolean any = check("args", args) | check("kwargs", kwargs);
        return any ? new ArgumentTemplates(args, kwargs, zone) : null;
    }

    /** @return the positional arguments for a fire of {@code instant} */
    List<Object> args(Instant instant) {
        return castList(fill(args, instant.atZone(zone)));
    }

    /** @return the keyword arguments for a fire of {@code instant} */
    Map<String, Object> kwargs(Instant instant) {
        return castMap(fill(kwargs, instant.atZone(zone)));
    }

    private static boolean check(String path, Object value) {
        if (value instanceof String text) {
            Matcher m = PLACEHOLDER.matcher(text);
            boolean found = false;
            while (m.find()) {
                if (m.group(2) != null) {
                    if (!BODY.matcher(m.group(2)).matches()) {
                        throw new IllegalArgumentException(path + ": '{" + m.group(2) + "}' is not a placeholder "
                                + "onebeat knows; use {scheduled_at} or {scheduled_date}, optionally with an offset such "
                                + "as {scheduled_date-1d} (units s, m, h, d, w, M, y), or write {{" + m.group(2)
                                + "}} for the text itself");
                    }
                }
                found = true;
            }
            return found;
        }
        boolean found = false;
        if (value instanceof List<?> list) {
            for (int i = 0; i < list.size(); i++) {
                found |= check(path + "[" + i + "]", list.get(i));
            }
        } else if (value instanceof Map<?, ?> map) {
            for (Map.Entry<?, ?> entry : map.entrySet()) {
                found |= check(path + "." + entry.getKey(), entry.getValue());
            }
        }
        return found;
    }

    private static Object fill(Object value, ZonedDateTime at) {
        if (value instanceof String text) {
            return text.indexOf('{') < 0 ? text : fillText(text, at);
        }
        if (value instanceof List<?> list) {
            List<Object> filled = new ArrayList<>(list.size());
            list.forEach(element -> filled.add(fill(element, at)));
            return filled;
        }
        if (value instanceof Map<?, ?> map) {
            Map<Object, Object> filled = new LinkedHashMap<>(map.size() * 2);
            map.forEach((key, element) -> filled.put(key, fill(element, at)));
            return filled;
        }
        return value;
    }

    private static String fillText(String text, ZonedDateTime at) {
        Matcher m = PLACEHOLDER.matcher(text);
        StringBuilder out = new StringBuilder(text.length() + 16);
        while (m.find()) {
            String replacement = m.group(1) != null ? "{" + m.group(1) + "}" : value(m.group(2), at);
            m.appendReplacement(out, Matcher.quoteReplacement(replacement));
        }
        m.appendTail(out);
        return out.toString();
    }

    private static String value(String body, ZonedDateTime at) {
        Matcher m = BODY.matcher(body);
        if (!m.matches()) {
            throw new IllegalStateException("placeholder checked when the job was defined: " + body);
        }
        ZonedDateTime shifted = m.group(2) == null ? at : offset(at, m.group(2).equals("-") ? -Long.parseLong(m.group(3))
                : Long.parseLong(m.group(3)), m.group(4).charAt(0));
        return m.group(1).equals("at") ? shifted.toInstant().toString() : shifted.toLocalDate().toString();
    }

    private static ZonedDateTime offset(ZonedDateTime at, long amount, char unit) {
        return switch (unit) {
            case 's' -> at.plus(Duration.ofSeconds(amount));
            case 'm' -> at.plus(Duration.ofMinutes(amount));
            case 'h' -> at.plus(Duration.ofHours(amount));
            case 'd' -> at.plusDays(amount);
            case 'w' -> at.plusWeeks(amount);
            case 'M' -> at.plusMonths(amount);
            case 'y' -> at.plusYears(amount);
            default -> throw new IllegalStateException("unit checked when the job was defined: " + unit);
        };
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof ArgumentTemplates that && args.equals(that.args) && kwargs.equals(that.kwargs)
                && zone.equals(that.zone);
    }

    @Override
    public int hashCode() {
        return Objects.hash(args, kwargs, zone);
    }

    @SuppressWarnings("unchecked")
    private static List<Object> castList(Object value) {
        return (List<Object>) value;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> castMap(Object value) {
        return (Map<String, Object>) value;
    }
}
