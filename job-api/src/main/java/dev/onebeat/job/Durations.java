package dev.onebeat.job;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one grammar of a duration written as text, wherever a job is defined as text: a job definition
 * ({@code every}, {@code lock-at-most-for}, {@code retry.backoff}, {@code options.expires}, ...), a queue
 * route's or broker's options, a console form. It reads what Spring Boot's configuration reads, so a
 * value means the same in {@code application.yml}, an API body and a route, without Spring (the
 * transports do not depend on it, and the JDK reads only the ISO form):
 * <ul>
 *   <li>a whole number with a unit, in any case: {@code ns}, {@code us}, {@code ms}, {@code s},
 *       {@code m}, {@code h}, {@code d} ({@code 500ms}, {@code 10s}, {@code 2m}, {@code 1H}, {@code 1d});
 *   <li>a bare whole number: milliseconds ({@code 750});
 *   <li>ISO-8601 ({@code PT10S}, {@code PT1.5S}, {@code P1DT2H}).
 * </ul>
 * Surrounding blanks and blanks between number and unit are ignored, and a sign is allowed
 * ({@code -5s}): whether a negative or zero duration makes sense is for the caller to say.
 */
public final class Durations {

    private static final Pattern SIMPLE = Pattern.compile("([+-]?\\d+)\\s*(ns|us|ms|s|m|h|d)?", Pattern.CASE_INSENSITIVE);

    private Durations() {
    }

    /**
     * @param value the text, as written
     * @return the duration it names
     * @throws IllegalArgumentException quoting the value if it is none of the accepted forms or too long a
     *     duration; the caller prefixes the name of its field ({@code lock-at-most-for: 'soon' is not a duration ...})
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
