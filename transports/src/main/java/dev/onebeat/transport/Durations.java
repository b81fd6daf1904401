package dev.onebeat.transport;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads a duration option as Spring Boot's configuration does, without Spring: a number with a unit
 * ({@code 500ms}, {@code 10s}, {@code 2m}, {@code 1h}, {@code 1d}; also {@code ns} and {@code us}), a
 * bare number of milliseconds, or ISO-8601 ({@code PT10S}). Written here because the transports do
 * not depend on Spring, and the JDK reads only the ISO form.
 */
public final class Durations {

    private static final Pattern SIMPLE = Pattern.compile("([+-]?\\d+)\\s*(ns|us|ms|s|m|h|d)?", Pattern.CASE_INSENSITIVE);

    private Durations() {
    }

    /**
     * @param value the configured text
     * @return the duration it names
     * @throws IllegalArgumentException if it is none of the accepted forms
     */
    public static Duration parse(String value) {
        String text = value == null ? "" : value.trim();
        Matcher simple = SIMPLE.matcher(text);
        if (simple.matches()) {
            try {
                return simple(Long.parseLong(simple.group(1)), simple.group(2));
            } catch (ArithmeticException | NumberFormatException e) {
                throw new IllegalArgumentException("'" + value + "' is too long a duration", e);
            }
        }
        try {
            return Duration.parse(text);
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("'" + value + "' is not a duration such as 500ms, 10s, 2m or PT10S", e);
        }
    }

    private static Duration simple(long amount, String suffix) {
        String unit = suffix == null ? "ms" : suffix.toLowerCase(Locale.ROOT);
        return switch (unit) {
            case "ns" -> Duration.ofNanos(amount);
            case "us" -> Duration.ofNanos(Math.multiplyExact(amount, 1000L));
            case "ms" -> Duration.ofMillis(amount);
            case "s" -> Duration.ofSeconds(amount);
            case "m" -> Duration.ofMinutes(amount);
            case "h" -> Duration.ofHours(amount);
            default -> Duration.ofDays(amount);
        };
    }
}
