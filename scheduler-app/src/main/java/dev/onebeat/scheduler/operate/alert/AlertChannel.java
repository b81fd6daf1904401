package dev.onebeat.scheduler.operate.alert;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

/** Where an alert delivery goes; its task name is {@value #TASK_PREFIX} and the channel. */
enum AlertChannel {
    WEBHOOK,
    HEALTHCHECKS,
    SENTRY;

    static final String TASK_PREFIX = "onebeat.alert.";

    String text() {
        return name().toLowerCase(Locale.ROOT);
    }

    static Optional<AlertChannel> of(String text) {
        return Arrays.stream(values()).filter(channel -> channel.text().equals(text)).findFirst();
    }
}
