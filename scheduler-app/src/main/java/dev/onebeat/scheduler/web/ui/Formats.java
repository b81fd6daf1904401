package dev.onebeat.scheduler.web.ui;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import org.springframework.stereotype.Component;
import tools.jackson.databind.JsonNode;

/** How the console writes times and durations; templates call it as {@code @fmt}. */
@Component("fmt")
public class Formats {

    private static final DateTimeFormatter UTC = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss").withZone(ZoneOffset.UTC);

    /** @return {@code 2026-11-29 12:24:50} (UTC, to the second), or a dash for none */
    public String time(Instant instant) {
        return utc(instant);
    }

    static String utc(Instant instant) {
        return instant == null ? "–" : UTC.format(instant);
    }

    /** @return the JSON in one line, or a dash for none */
    public String json(JsonNode node) {
        return node == null || node.isNull() ? "–" : node.toString();
    }

    /** @return a setting's duration in its largest whole unit, as configuration writes it: {@code 1h}, {@code 90m}, {@code 45s}, {@code 1500ms} */
    public String setting(Duration duration) {
        if (duration == null) {
            return "–";
        }
        if (duration.toMillis() % 1000 != 0) {
            return duration.toMillis() + "ms";
        }
        long seconds = duration.toSeconds();
        if (seconds > 0 && seconds % 3600 == 0) {
            return seconds / 3600 + "h";
        }
        return seconds > 0 && seconds % 60 == 0 ? seconds / 60 + "m" : seconds + "s";
    }

    /** @return {@code 91 ms} below ten seconds, {@code 12.3 s} above */
    public String duration(Duration duration) {
        long millis = duration.toMillis();
        return millis < 10_000 ? millis + " ms" : String.format("%.1f s", millis / 1000.0);
    }
}
