package dev.onebeat.scheduler.web.ui;

import dev.onebeat.job.AlertPolicy;
import dev.onebeat.job.PeriodicJob;
import dev.onebeat.scheduler.operate.monitor.ExpectedInstants.Expected;
import dev.onebeat.scheduler.operate.monitor.ExpectedInstants;
import dev.onebeat.scheduler.operate.monitor.InstantOutcome;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.stereotype.Component;

/**
 * The job page's timeline strip: the latest {@value #CELLS} instants the job's schedule expected, one cell each,
 * coloured by outcome, with what became of it in the cell's tooltip; and the job's alert settings in words.
 */
@Component
class JobTimeline {

    static final int CELLS = 60;

    private final ExpectedInstants instants;
    private final Formats formats;

    JobTimeline(ExpectedInstants instants, Formats formats) {
        this.instants = instants;
        this.formats = formats;
    }

    /**
     * @param instant ISO-8601, for the page's scripts and tests
     * @param outcome the outcome's text, also the cell's CSS class
     * @param title the tooltip
     */
    record Cell(String instant, String outcome, String title) {
    }

    /**
     * @param counts instants per outcome, those with none left out
     */
    record Strip(List<Cell> cells, Map<String, Integer> counts) {
    }

    Strip of(PeriodicJob job) {
        ExpectedInstants.Timeline timeline = instants.of(job, null, null, CELLS);
        List<Cell> cells = new ArrayList<>(timeline.instants().size());
        for (Expected expected : timeline.instants()) {
            cells.add(new Cell(expected.instant().toString(), expected.outcome(), title(expected)));
        }
        Map<String, Integer> counts = new LinkedHashMap<>();
        timeline.counts().forEach((outcome, count) -> {
            if (count > 0) {
                counts.put(outcome, count);
            }
        });
        return new Strip(cells, counts);
    }

    private String title(Expected expected) {
        StringBuilder title = new StringBuilder(formats.time(expected.instant())).append(" UTC (")
                .append(expected.local().toLocalTime()).append(expected.local().getOffset()).append("): ")
                .append(expected.outcome().replace('-', ' '));
        if (expected.lagMillis() != null && (InstantOutcome.LATE.text().equals(expected.outcome())
                || InstantOutcome.EARLY.text().equals(expected.outcome()))) {
            title.append(" by ").append(formats.duration(Duration.ofMillis(Math.abs(expected.lagMillis()))));
        }
        if (expected.trigger() != null && !expected.trigger().equals("scheduled")) {
            title.append(", ").append(expected.trigger());
        }
        if (expected.attempt() != null && expected.attempt() > 1) {
            title.append(", attempt ").append(expected.attempt());
        }
        if (expected.reason() != null) {
            title.append(" — ").append(expected.reason());
        }
        if (expected.note() != null) {
            title.append(" [").append(expected.note()).append(']');
        }
        return title.toString();
    }

    /** @return the job's alert settings in words */
    String alerts(PeriodicJob job) {
        AlertPolicy policy = job.alerts();
        StringBuilder text = new StringBuilder(policy.enabled() ? "on" : "off (events recorded, not sent)");
        text.append("; grace ").append(policy.grace() == null ? "half the period, 30 s to 5 min"
                : formats.setting(policy.grace()));
        text.append("; alerted after ").append(plural(policy.afterFailures(), "failed instant"))
                .append(" in a row, resolved after ").append(plural(policy.resolveAfter(), "success"));
        if (policy.healthchecksUrl() != null) {
            text.append("; pings ").append(policy.healthchecksUrl());
        }
        if (policy.sentryMonitor() != null) {
            text.append("; Sentry monitor ").append(policy.sentryMonitor());
        }
        return text.toString();
    }

    private static String plural(int count, String noun) {
        return count + " " + noun + (count == 1 ? "" : noun.endsWith("s") ? "es" : "s");
    }
}
