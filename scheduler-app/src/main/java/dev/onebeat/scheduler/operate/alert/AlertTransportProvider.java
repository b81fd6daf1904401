package dev.onebeat.scheduler.operate.alert;

import dev.onebeat.scheduler.boot.outbound.OutboundUrls;
import dev.onebeat.transport.BrokerType;
import dev.onebeat.transport.OutboundTask;
import dev.onebeat.transport.QueueRoute;
import dev.onebeat.transport.Transport;
import dev.onebeat.transport.TransportContext;
import dev.onebeat.transport.TransportProvider;
import dev.onebeat.transport.http.Webhooks;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import org.springframework.stereotype.Component;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code transport: onebeat-alert}: sends each alert delivery as the request it describes, with the relay's HTTP
 * client and outcomes (2xx published; 408, 429, 5xx and timeouts retried with backoff; any other status failed, with
 * the status alone in {@code last_error}), and its deadline: {@code onebeat.alerts.timeout} bounds each whole
 * exchange, the answer's body included. A
 * webhook alert is a JSON {@code POST} with {@code Idempotency-Key} (the same on every retry), {@code Onebeat-Job},
 * {@code Onebeat-Scheduled-At}, {@code Onebeat-Event} and the headers of {@code onebeat.alerts.webhook.headers},
 * which no other channel gets; a Healthchecks ping is a plain-text {@code POST}; a Sentry check-in a {@code GET}.
 */
@Component
class AlertTransportProvider implements TransportProvider {

    static final String NAME = "onebeat-alert";
    static final String EVENT_HEADER = "Onebeat-Event";

    private final AlertProperties properties;
    private final OutboundUrls outbound;
    private final JsonMapper json = JsonMapper.builder().build();

    AlertTransportProvider(AlertProperties properties, OutboundUrls outbound) {
        this.properties = properties;
        this.outbound = outbound;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Set<BrokerType> brokerTypes() {
        return Set.of(BrokerType.HTTP);
    }

    @Override
    public void validate(QueueRoute route) {
        // every delivery carries its own address; the channels' settings are checked where they are bound
    }

    @Override
    public Transport create(QueueRoute route, TransportContext context) {
        return Webhooks.transport(context, "alerts", properties.timeout(), this::request);
    }

    /**
     * @throws IllegalArgumentException if the row is not a delivery this transport wrote, or its URL came from an
     *     API user and may not be reached now (checked before each request: a name may resolve elsewhere by now)
     */
    HttpRequest request(OutboundTask task) {
        JsonNode kwargs = json.readTree(task.payload().kwargsJson());
        AlertChannel channel = AlertChannel.of(kwargs.path("channel").asString(""))
                .orElseThrow(() -> new IllegalArgumentException("no alert channel in the task's kwargs"));
        URI url;
        try {
            url = URI.create(kwargs.path("url").asString(""));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("bad url in the task's kwargs: " + e.getMessage(), e);
        }
        if (!kwargs.path("trusted").asBoolean(false)) {
            outbound.refusalBeforeSending(url.toString()).ifPresent(why -> {
                throw new IllegalArgumentException("the address " + url + " is refused: " + why);
            });
        }
        HttpRequest.Builder request = HttpRequest.newBuilder(url).timeout(properties.timeout())
                .header("User-Agent", "onebeat");
        JsonNode body = kwargs.path("body");
        switch (channel) {
            case WEBHOOK -> {
                request.header("Content-Type", "application/json")
                        .header(Webhooks.KEY_HEADER, task.key().value())
                        .header(Webhooks.JOB_HEADER, task.jobName())
                        .header(Webhooks.SCHEDULED_AT_HEADER, task.scheduledAt().toString())
                        .header(EVENT_HEADER, body.path("kind").asString(""));
                properties.webhook().headers().forEach(request::header);
                request.POST(HttpRequest.BodyPublishers.ofString(json.writeValueAsString(body), StandardCharsets.UTF_8));
            }
            case HEALTHCHECKS -> request.header("Content-Type", "text/plain; charset=utf-8")
                    .POST(HttpRequest.BodyPublishers.ofString(body.asString(""), StandardCharsets.UTF_8));
            case SENTRY -> request.GET();
        }
        return request.build();
    }
}
