package dev.onebeat.transport.http;

import dev.onebeat.transport.BrokerType;
import dev.onebeat.transport.Delivery;
import dev.onebeat.transport.OutboundTask;
import dev.onebeat.transport.QueueRoute;
import dev.onebeat.transport.TaskJson;
import dev.onebeat.transport.Transport;
import dev.onebeat.transport.TransportContext;
import dev.onebeat.transport.TransportProvider;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * {@code transport: http}: each task a {@code POST} of its {@link TaskJson} to a webhook, with headers
 * {@code Content-Type: application/json}, {@code Idempotency-Key} (the readable key, the same on
 * every retry of the task), {@code Onebeat-Job}, {@code Onebeat-Scheduled-At} and
 * {@code Onebeat-Task}. The receiver must deduplicate on {@code Idempotency-Key}: a relay crash
 * between the 2xx and its mark, or a response lost to a timeout, sends the task again.
 *
 * <p>Broker ({@code onebeat.relay.brokers.<name>}, {@code type: http}):
 * <ul>
 *   <li>{@code url}: the base URL, {@code http://} or {@code https://}.
 *   <li>{@code properties}: {@code header.<Name>: value} adds a request header to every request,
 *       for example {@code header.Authorization: Bearer …}. Other properties, the headers above and
 *       those Java's HTTP client sets itself ({@code Host}, {@code Content-Length}, {@code Connection},
 *       {@code Expect}, {@code Upgrade}) are refused at start-up.
 * </ul>
 *
 * <p>Route options ({@code onebeat.relay.queues.<queue>.options}):
 * <ul>
 *   <li>{@code path} (default {@code ""}): appended to the broker URL with one {@code /} between them,
 *       so {@code url: https://hooks.example.com/onebeat} and {@code path: billing} post to
 *       {@code https://hooks.example.com/onebeat/billing}.
 *   <li>{@code timeout} (default {@code 10s}): how long a request may take in all, from its sending to the
 *       last byte of the response body; at the deadline the request is cancelled and its connection closed.
 * </ul>
 *
 * <p>Outcomes: 2xx → published; 408, 429, 5xx, connection failures and timeouts → retried with
 * backoff; any other status (400, 404, 409, 422, 3xx …) → failed, with the status alone in {@code last_error}
 * (what the remote server answered is its own and may be anything: the first 500 characters of its body are
 * logged at WARN, never stored where a viewer reads). A batch's requests run at most 8 at once;
 * once one of them could not connect or timed out, the batch's requests not yet sent are retried
 * without being sent, so a dead endpoint holds the relay for about one {@code timeout} per batch. The relay
 * keeps a batch's claim for one {@code timeout} per 8 tasks at most.
 */
public class HttpTransportProvider implements TransportProvider {

    @Override
    public String name() {
        return "http";
    }

    @Override
    public Set<BrokerType> brokerTypes() {
        return Set.of(BrokerType.HTTP);
    }

    @Override
    public void validate(QueueRoute route) {
        HttpSettings.validate(route);
    }

    @Override
    public Transport create(QueueRoute route, TransportContext context) {
        WebhookClient webhook = context.shared(WebhookClient.class, () -> WebhookClient.open(route.broker()));
        URI target = HttpSettings.target(route);
        Duration timeout = HttpSettings.timeout(route);
        return new Transport() {
            @Override
            public List<Delivery> publish(List<OutboundTask> tasks) throws InterruptedException {
                return webhook.publish(target, timeout, tasks);
            }

            @Override
            public Optional<Duration> deadline(int tasks) {
                return Optional.of(WebhookClient.deadline(timeout, tasks));
            }
        };
    }
}
