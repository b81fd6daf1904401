package dev.onebeat.scheduler.engine.schedule;

import dev.onebeat.job.DstPolicy;
import dev.onebeat.job.Schedule;
import java.time.Duration;
import java.time.ZoneId;
import java.util.Arrays;

/**
 * Reads back what {@link Schedule#describe()} writes ({@code cron 0 30 2 * * ? Europe/Paris gap=skip
 * overlap=first}, {@code every 60s}). A schedule is stored in Quartz's tables in that form, so any
 * replica can compute its instants from the row alone.
 */
public final class Descriptions {

    private Descriptions() {
    }

    /**
     * @param description a {@link Schedule#describe()} result
     * @return the schedule it describes (an interval in UTC)
     * @throws IllegalArgumentException if it is not such a description
     */
    public static Schedule parse(String description) {
        String[] words = description.trim().split("\\s+");
        if (words.length == 2 && words[0].equals("every") && words[1].endsWith("s")) {
            return Schedule.every(Duration.ofSeconds(Long.parseLong(words[1].substring(0, words[1].length() - 1))));
        }
        if (words.length < 8 || !words[0].equals("cron")) {
            throw new IllegalArgumentException("not a schedule description: '" + description + "'");
        }
        int end = words.length;
        DstPolicy policy = DstPolicy.DEFAULT;
        if (words[end - 1].startsWith("overlap=") && words[end - 2].startsWith("gap=")) {
            policy = new DstPolicy(DstPolicy.Gap.parse(words[end - 2].substring(4)),
                    DstPolicy.Overlap.parse(words[end - 1].substring(8)));
            end -= 2;
        }
        String expression = String.join(" ", Arrays.copyOfRange(words, 1, end - 1));
        return Schedule.cron(expression, ZoneId.of(words[end - 1])).withDst(policy);
    }
}
