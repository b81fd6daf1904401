package dev.onebeat.job;

import java.time.Duration;
import java.util.regex.Pattern;

/**
 * How onebeat watches one job's instants and whom it tells. Every replica records the same events whatever the
 * policy says; the policy decides when an instant counts as missed and which events go out to the alert channels
 * ({@code onebeat.alerts}) and to the job's own monitors.
 *
 * <p>An instant is <em>missed</em> when it has no committed fire by the instant plus its grace. A job whose
 * fires fail is alerted on after {@code afterFailures} instants in a row failed for good (every attempt made), and
 * a job alerted on is resolved (a {@code recovered} event) after {@code resolveAfter} instants in a row committed.
 *
 * @param enabled whether the job's missed, failed and recovered events are sent to the alert channels (they are
 *     recorded either way)
 * @param grace how long after an instant its fire may commit before the instant is missed; {@code null} for the
 *     default, the smaller of 5 minutes and half the time to the next instant, at least 30 seconds
 * @param afterFailures instants in a row failed for good before the job is alerted on, 1 to {@value #MAX_IN_ROW}
 * @param resolveAfter instants in a row committed before an alerted job is resolved, 1 to {@value #MAX_IN_ROW}
 * @param healthchecksUrl a Healthchecks-style ping URL for this job, or {@code null}: each committed instant pings
 *     it, each failed or missed one pings it with {@code /fail}
 * @param sentryMonitor the slug of this job's Sentry Crons monitor, or {@code null}: each committed instant checks
 *     in {@code ok}, each failed one {@code error}, each missed one {@code missed} (the DSN is
 *     {@code onebeat.alerts.sentry.dsn})
 */
public record AlertPolicy(boolean enabled, Duration grace, int afterFailures, int resolveAfter, String healthchecksUrl,
                          String sentryMonitor) {

    /** The most instants in a row a threshold may ask for. */
    public static final int MAX_IN_ROW = 1000;
    /** The shortest default grace. */
    public static final Duration MIN_DEFAULT_GRACE = Duration.ofSeconds(30);
    /** The longest default grace. */
    public static final Duration MAX_DEFAULT_GRACE = Duration.ofMinutes(5);

    /** Alerts on, the default grace, alerted on the first failure, resolved by the first success, no monitor. */
    public static final AlertPolicy DEFAULT = new AlertPolicy(true, null, 1, 1, null, null);

    private static final Pattern SLUG = Pattern.compile("[a-z0-9][a-z0-9_-]{0,49}");

    public AlertPolicy {
        if (grace != null && (grace.isNegative() || grace.isZero())) {
            throw new IllegalArgumentException("grace must be positive, was " + grace);
        }
        if (afterFailures < 1 || afterFailures > MAX_IN_ROW) {
            throw new IllegalArgumentException("afterFailures must be 1 to " + MAX_IN_ROW + ", was " + afterFailures);
        }
        if (resolveAfter < 1 || resolveAfter > MAX_IN_ROW) {
            throw new IllegalArgumentException("resolveAfter must be 1 to " + MAX_IN_ROW + ", was " + resolveAfter);
        }
        if (healthchecksUrl != null && !healthchecksUrl.matches("https?://[^\\s/?#]+[^\\s#]*")) {
            throw new IllegalArgumentException("healthchecksUrl must be an http:// or https:// URL, was '"
                    + healthchecksUrl + "'");
        }
        if (sentryMonitor != null && !SLUG.matcher(sentryMonitor).matches()) {
            throw new IllegalArgumentException("sentryMonitor must be a monitor slug (lower-case letters, digits, "
                    + "'-' and '_', at most 50), was '" + sentryMonitor + "'");
        }
    }

    /** @return this policy with the alert channels off for the job */
    public AlertPolicy disabled() {
        return new AlertPolicy(false, grace, afterFailures, resolveAfter, healthchecksUrl, sentryMonitor);
    }

    /** @return this policy with a grace of {@code grace} */
    public AlertPolicy withGrace(Duration grace) {
        return new AlertPolicy(enabled, grace, afterFailures, resolveAfter, healthchecksUrl, sentryMonitor);
    }

    /** @return this policy alerting after {@code failures} failed instants in a row and resolving after {@code successes} */
    public AlertPolicy withThresholds(int failures, int successes) {
        return new AlertPolicy(enabled, grace, failures, successes, healthchecksUrl, sentryMonitor);
    }

    /** @return this policy pinging {@code url} (Healthchecks style) */
    public AlertPolicy withHealthchecks(String url) {
        return new AlertPolicy(enabled, grace, afterFailures, resolveAfter, url, sentryMonitor);
    }

    /** @return this policy checking in to the Sentry Crons monitor {@code slug} */
    public AlertPolicy withSentryMonitor(String slug) {
        return new AlertPolicy(enabled, grace, afterFailures, resolveAfter, healthchecksUrl, slug);
    }

    /**
     * @param untilNext the time from the instant to the schedule's next one, or {@code null} if it has none
     * @return the grace of an instant: {@link #grace()} when set, otherwise half of {@code untilNext}, between
     *     {@link #MIN_DEFAULT_GRACE} and {@link #MAX_DEFAULT_GRACE}
     */
    public Duration graceFor(Duration untilNext) {
        if (grace != null) {
            return grace;
        }
        if (untilNext == null) {
            return MAX_DEFAULT_GRACE;
        }
        Duration half = untilNext.dividedBy(2);
        return half.compareTo(MIN_DEFAULT_GRACE) < 0 ? MIN_DEFAULT_GRACE
                : half.compareTo(MAX_DEFAULT_GRACE) > 0 ? MAX_DEFAULT_GRACE : half;
    }
}
