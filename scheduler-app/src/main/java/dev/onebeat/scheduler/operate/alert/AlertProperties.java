package dev.onebeat.scheduler.operate.alert;

import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import java.net.URI;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * The alert channels ({@code onebeat.alerts.*}). Which events go out and to which of a job's own monitors is each
 * job's {@link dev.onebeat.job.AlertPolicy}.
 *
 * @param enabled whether any alert or check-in is sent; the events are recorded either way
 * @param consoleUrl the console's address as people reach it ({@code https://onebeat.example.com}), for the link in
 *     each alert; unset, the link is the page's path alone
 * @param timeout how long each alert or check-in request waits for its answer
 * @param webhook the webhook channel
 * @param sentry the Sentry Crons check-ins
 */
@Validated
@ConfigurationProperties("onebeat.alerts")
public record AlertProperties(
        @DefaultValue("true") boolean enabled,
        String consoleUrl,
        @DefaultValue("10s") @NotNull Duration timeout,
        @DefaultValue @Valid Webhook webhook,
        @DefaultValue @Valid Sentry sentry) {

    public AlertProperties {
        if (consoleUrl != null && !consoleUrl.isBlank()) {
            AlertProperties.httpUrl("onebeat.alerts.console-url", consoleUrl);
        }
        if (timeout != null && (timeout.isNegative() || timeout.isZero())) {
            throw new IllegalArgumentException("onebeat.alerts.timeout: must be positive, was " + timeout);
        }
    }

    /**
     * @param url where each alert is POSTed as JSON; unset, no webhook
     * @param headers request headers sent with each alert ({@code Authorization: Bearer …}), to the webhook only
     */
    public record Webhook(String url, @DefaultValue Map<String, String> headers) {

        private static final Set<String> RESERVED = Set.of("content-type", "idempotency-key", "onebeat-job",
                "onebeat-scheduled-at", "onebeat-event", "user-agent");

        public Webhook {
            if (url != null && !url.isBlank()) {
                httpUrl("onebeat.alerts.webhook.url", url);
            }
            headers = headers == null ? Map.of() : Map.copyOf(headers);
            HttpRequest.Builder probe = HttpRequest.newBuilder();
            headers.forEach((name, value) -> {
                String property = "onebeat.alerts.webhook.headers." + name;
                if (RESERVED.contains(name.toLowerCase(Locale.ROOT))) {
                    throw new IllegalArgumentException(property + ": onebeat sets " + name + " itself");
                }
                try {
                    probe.header(name, value == null ? "" : value);
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException(property + ": not a header that can be sent: " + e.getMessage(), e);
                }
            });
        }

        /** @return whether alerts go to a webhook */
        public boolean configured() {
            return url != null && !url.isBlank();
        }
    }

    /**
     * @param dsn the project's DSN, {@code https://<public key>@<host>/<project id>}; unset, no Sentry check-in
     * @param environment the environment each check-in names, or unset
     */
    public record Sentry(String dsn, String environment) {

        public Sentry {
            if (dsn != null && !dsn.isBlank()) {
                SentryDsn.parse(dsn);
            }
        }

        /** @return whether jobs naming a Sentry monitor check in */
        public boolean configured() {
            return dsn != null && !dsn.isBlank();
        }
    }

    static URI httpUrl(String property, String value) {
        URI uri;
        try {
            uri = URI.create(value.trim());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(property + ": '" + value + "' is not a URL: " + e.getMessage(), e);
        }
        if (!("http".equalsIgnoreCase(uri.getScheme()) || "https".equalsIgnoreCase(uri.getScheme()))
                || uri.getHost() == null) {
            throw new IllegalArgumentException(property + ": '" + value + "' is not an absolute http:// or https:// URL");
        }
        return uri;
    }
}
