package dev.onebeat.transport.http;

import dev.onebeat.transport.Delivery;
import dev.onebeat.transport.OutboundTask;
import dev.onebeat.transport.Transport;
import dev.onebeat.transport.TransportContext;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * The {@code http} transport's sending, for a provider whose tasks each say where and how they go, which a
 * route of the {@code http} transport (one URL, the task's JSON as body) cannot: onebeat's alert channel
 * posts a webhook, pings Healthchecks or checks in with Sentry, one task each. Such a provider makes each
 * task's request and gets the same client and outcomes as the {@code http} transport: 2xx published; 408,
 * 429, 5xx, a connection failure or a timeout retried; any other status refused with the status alone; at
 * most 8 requests of a batch at once, and once one could not connect or timed out, the rest of the batch
 * retried unsent.
 */
public final class Webhooks {

    /** Header with the readable idempotency key, the same on every retry of a task. */
    public static final String KEY_HEADER = WebhookClient.KEY_HEADER;
    /** Header with the job name. */
    public static final String JOB_HEADER = WebhookClient.JOB_HEADER;
    /** Header with the fire's logical scheduled time, ISO-8601 UTC. */
    public static final String SCHEDULED_AT_HEADER = WebhookClient.SCHEDULED_AT_HEADER;
    /** Header with the task name. */
    public static final String TASK_HEADER = WebhookClient.TASK_HEADER;

    private Webhooks() {
    }

    /**
     * @param context the relay's context; the HTTP client is shared by every such transport of the relay and
     *     closed with it
     * @param name names the client's threads ({@code onebeat-http-<name>-1})
     * @param timeout each request's deadline, as set on it by {@code requests}: the transport's deadline for a
     *     batch counts one per 8 tasks
     * @param requests the request of a task, sent as it is; an {@link IllegalArgumentException} from it refuses
     *     that task, unsent, with the exception's message
     * @return a transport sending each task as its request
     */
    public static Transport transport(TransportContext context, String name, Duration timeout,
                                      Function<OutboundTask, HttpRequest> requests) {
        WebhookClient client = context.shared(WebhookClient.class, () -> WebhookClient.open(name, Map.of()));
        return new Transport() {
            @Override
            public List<Delivery> publish(List<OutboundTask> tasks) throws InterruptedException {
                return client.publish(tasks, requests);
            }

            @Override
            public Optional<Duration> deadline(int tasks) {
                return Optional.of(WebhookClient.deadline(timeout, tasks));
            }
        };
    }
}
