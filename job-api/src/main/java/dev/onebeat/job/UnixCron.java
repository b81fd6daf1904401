package dev.onebeat.job;

import java.util.BitSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.StringJoiner;
import java.util.function.IntFunction;

/**
 * Converts Unix cron expressions (crontab, celery's {@code crontab()}, Kubernetes CronJobs) to the
 * Quartz expressions onebeat schedules, keeping exactly the same firing minutes.
 *
 * @see Schedule#unixCron(String, java.time.ZoneId)
 */
public final class UnixCron {

    private static final Map<String, String> MACROS = Map.of(
            "@yearly", "0 0 1 1 *", "@annually", "0 0 1 1 *", "@monthly", "0 0 1 * *",
            "@weekly", "0 0 * * 0", "@daily", "0 0 * * *", "@midnight", "0 0 * * *", "@hourly", "0 * * * *");
    private static final List<String> MONTHS =
            List.of("JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC");
    /** Indexed by Unix number (0 = Sunday); Quartz numbers the same days from 1. */
    private static final List<String> DAYS = List.of("SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT");

    private static final FieldSpec MINUTE = new FieldSpec("minute", 0, 59, List.of(), false);
    private static final FieldSpec HOUR = new FieldSpec("hour", 0, 23, List.of(), false);
    private static final FieldSpec DAY_OF_MONTH = new FieldSpec("day-of-month", 1, 31, List.of(), true);
    private static final FieldSpec MONTH = new FieldSpec("month", 1, 12, MONTHS, false);
    private static final FieldSpec DAY_OF_WEEK = new FieldSpec("day-of-week", 0, 7, DAYS, true);

    private UnixCron() {
    }

    /**
     * Converts a Unix cron expression to the Quartz expression that fires at the same minutes.
     *
     * <p>The input, trimmed, is either a macro ({@code @yearly} and {@code @annually} = {@code 0 0 1 1 *},
     * {@code @monthly} = {@code 0 0 1 * *}, {@code @weekly} = {@code 0 0 * * 0}, {@code @daily} and
     * {@code @midnight} = {@code 0 0 * * *}, {@code @hourly} = {@code 0 * * * *}) or five
     * blank-separated fields: minute (0-59), hour (0-23), day-of-month (1-31), month (1-12 or
     * {@code JAN}-{@code DEC}) and day-of-week (0-7, where 0 and 7 are Sunday and 1 is Monday, or
     * {@code SUN}-{@code SAT}). Names and macros are case-insensitive. A field is a comma-separated
     * list of elements, each one of: {@code *}; a value; a range {@code a-b} with {@code a <= b}
     * (ranges never wrap around); {@code *}{@code /n}, {@code a-b/n} or {@code a/n} (from {@code a}
     * to the field's maximum, which is 7 for day-of-week) stepping by {@code n >= 1}. In day-of-month
     * and day-of-week, {@code ?} means the same as {@code *}.
     *
     * <p>The result is {@code 0 minute hour day-of-month month day-of-week}. Each field is written
     * from its set of values: {@code *} when the set is full, otherwise the values in ascending
     * order, separated by commas, with runs of three or more consecutive values written
     * {@code a-b}. Months are numbers; days of the week are Quartz names, Sunday first, so a Unix
     * {@code 5-7} becomes {@code SUN,FRI,SAT}. Quartz needs {@code ?} in one of the two day fields:
     * day-of-week gets it when its set is full, otherwise day-of-month does.
     *
     * <p>The two day fields combine as in crontab: when either is written starting with {@code *}
     * (or {@code ?}), a day must match both; otherwise a day may match either, so
     * {@code 0 0 1-31 * MON} fires daily. When the days that result are not simply "these days of
     * the month" or "these days of the week" (both fields restrict, as in {@code 0 9 1-7 * MON}),
     * Quartz cannot express them and the expression is refused: crontab would OR the fields and
     * celery's crontab AND them, so the intent is ambiguous anyway.
     *
     * @param unixExpression a 5-field Unix expression or a macro
     * @return the 6-field Quartz expression, for {@link Schedule#cron(String, java.time.ZoneId)}
     * @throws IllegalArgumentException if the input is blank, has other than five fields, names an
     *     unknown macro, has a malformed element, a value out of range, a step below 1 or a range
     *     ending before it starts (the message names the field and the value), or restricts both day
     *     fields
     */
    public static String toQuartz(String unixExpression) {
        if (unixExpression == null || unixExpression.isBlank()) {
            throw new IllegalArgumentException("cron must not be blank, was '" + unixExpression + "'");
        }
        String cron = unixExpression.trim();
        String[] fields = fieldsOf(cron);
        String context = "cron '" + cron + "': ";
        BitSet minutes = MINUTE.parse(fields[0], context);
        BitSet hours = HOUR.parse(fields[1], context);
        BitSet daysOfMonth = DAY_OF_MONTH.parse(fields[2], context);
        BitSet months = MONTH.parse(fields[3], context);
        BitSet daysOfWeek = DAY_OF_WEEK.parse(fields[4], context);
        // 7 is crontab's second spelling of Sunday; fold it so the set has one bit per day
        if (daysOfWeek.get(7)) {
            daysOfWeek.clear(7);
            daysOfWeek.set(0);
        }
        boolean fullDaysOfWeek = daysOfWeek.cardinality() == DAYS.size();
        boolean fullDaysOfMonth = DAY_OF_MONTH.isFull(daysOfMonth);
        boolean starred = isStar(fields[2]) || isStar(fields[4]);
        if (!starred && (fullDaysOfWeek || fullDaysOfMonth)) {
            // crontab ORs two unstarred day fields: one of them matching every day means every day
            daysOfMonth.set(1, 32);
            fullDaysOfMonth = true;
            daysOfWeek.set(0, DAYS.size());
            fullDaysOfWeek = true;
        }
        boolean anyDayOfWeek = fullDaysOfWeek;
        if (!anyDayOfWeek && !fullDaysOfMonth) {
            throw new IllegalArgumentException(context + "day-of-month '" + fields[2] + "' and day-of-week '"
                    + fields[4] + "' are both restricted. Unix cron fires on days matching either of them and "
                    + "celery's crontab on days matching both; Quartz can express neither, so restrict only one "
                    + "of them, or write a Quartz expression with Schedule.cron (the first Monday of each month "
                    + "at 9:00 is '0 0 9 ? * MON#1')");
        }
        return String.join(" ", "0",
                MINUTE.render(minutes),
                HOUR.render(hours),
                anyDayOfWeek ? DAY_OF_MONTH.render(daysOfMonth) : "?",
                MONTH.render(months),
                anyDayOfWeek ? "?" : renderDaysOfWeek(daysOfWeek));
    }

    private static boolean isStar(String field) {
        return field.startsWith("*") || field.startsWith("?");
    }

    private static String[] fieldsOf(String cron) {
        if (cron.startsWith("@")) {
            String expansion = MACROS.get(cron.toLowerCase(Locale.ROOT));
            if (expansion == null) {
                throw new IllegalArgumentException("cron '" + cron + "' is not a known macro; use one of "
                        + "@yearly, @annually, @monthly, @weekly, @daily, @midnight, @hourly");
            }
            return expansion.split(" ");
        }
        String[] fields = cron.split("\\s+");
        if (fields.length != 5) {
            boolean quartz = fields.length == 6 || fields.length == 7;
            throw new IllegalArgumentException("cron '" + cron + "' has " + fields.length
                    + (fields.length == 1 ? " field" : " fields") + "; a Unix expression has 5"
                    + (quartz ? " (a 6- or 7-field Quartz expression needs Schedule.cron)" : ""));
        }
        return fields;
    }

    private static String renderDaysOfWeek(BitSet unixDays) {
        BitSet quartzDays = new BitSet(8);
        unixDays.stream().forEach(day -> quartzDays.set(day + 1));
        return render(quartzDays, day -> DAYS.get(day - 1));
    }

    private static String render(BitSet values, IntFunction<String> label) {
        StringJoiner out = new StringJoiner(",");
        for (int start = values.nextSetBit(0); start >= 0; start = values.nextSetBit(start + 1)) {
            int end = values.nextClearBit(start) - 1;
            if (end - start >= 2) {
                out.add(label.apply(start) + "-" + label.apply(end));
                start = end;
            } else {
                out.add(label.apply(start));
            }
        }
        return out.toString();
    }

    /**
     * One Unix field: its bounds, the names of its values from {@code min} on, and whether
     * {@code ?} is accepted.
     */
    record FieldSpec(String name, int min, int max, List<String> names, boolean questionMark) {

        BitSet parse(String field, String context) {
            BitSet values = new BitSet(max + 1);
            for (String element : field.split(",", -1)) {
                if (element.isEmpty()) {
                    throw new IllegalArgumentException(context + name + " '" + field + "' has an empty list element");
                }
                addElement(element, values, context);
            }
            return values;
        }

        boolean isFull(BitSet values) {
            return values.cardinality() == max - min + 1;
        }

        String render(BitSet values) {
            return isFull(values) ? "*" : UnixCron.render(values, String::valueOf);
        }

        private void addElement(String element, BitSet values, String context) {
            int slash = element.indexOf('/');
            String range = slash < 0 ? element : element.substring(0, slash);
            int step = slash < 0 ? 1 : step(element.substring(slash + 1), element, context);
            int start = min;
            int end = max;
            int dash = range.indexOf('-');
            if (dash >= 0) {
                start = value(range.substring(0, dash), element, context);
                end = value(range.substring(dash + 1), element, context);
                if (start > end) {
                    throw new IllegalArgumentException(context + name + " '" + range + "' ends before it starts; "
                            + "Unix cron does not wrap ranges, so split it in two, such as '" + wrapHint(start, end) + "'");
                }
            } else if (!range.equals("*") && !(questionMark && range.equals("?"))) {
                start = value(range, element, context);
                end = slash < 0 ? start : max;
            }
            for (int value = start; value <= end; value += step) {
                values.set(value);
            }
        }

        private String wrapHint(int start, int end) {
            return start + "-" + max + "," + (end == min ? String.valueOf(min) : min + "-" + end);
        }

        private int step(String text, String element, String context) {
            if (!text.matches("\\d{1,9}")) {
                throw new IllegalArgumentException(context + name + " step '" + text + "' in '" + element
                        + "' is not a number");
            }
            int step = Integer.parseInt(text);
            if (step < 1) {
                throw new IllegalArgumentException(context + name + " step '" + text + "' in '" + element
                        + "' must be at least 1");
            }
            return step;
        }

        private int value(String text, String element, String context) {
            int named = names.indexOf(text.toUpperCase(Locale.ROOT));
            if (named >= 0) {
                return min + named;
            }
            if (!text.matches("\\d+")) {
                String shown = text.isEmpty() ? element : text;
                throw new IllegalArgumentException(context + name + " '" + shown + "' is not a number or name");
            }
            int value = text.length() > 9 ? Integer.MAX_VALUE : Integer.parseInt(text);
            if (value < min || value > max) {
                throw new IllegalArgumentException(context + name + " '" + text + "' is out of range " + min + "-" + max);
            }
            return value;
        }
    }
}
