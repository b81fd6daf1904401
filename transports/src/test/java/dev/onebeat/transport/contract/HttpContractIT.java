package dev.onebeat.transport.contract;

import dev.onebeat.transport.BrokerSettings;
import dev.onebeat.transport.BrokerType;
import dev.onebeat.transport.QueueRoute;
import dev.onebeat.transport.TransportProvider;
import dev.onebeat.transport.http.HttpTransportProvider;
import dev.onebeat.transport.testing.WebhookServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import tools.jackson.databind.json.JsonMapper;

/**
 * The http transport to a real local HTTP server: one path per queue; the endpoint reads the key from
 * {@code Idempotency-Key} and the instant from the JSON body. The restart test stops the server
 * listening while the relay publishes.
 */
class HttpContractIT extends TransportContract {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final WebhookServer SERVER = start();

    private int taken;

    private static WebhookServer start() {
        try {
            return new WebhookServer();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @AfterAll
    static void stopServer() {
        SERVER.close();
    }

    @Override
    protected TransportProvider provider() {
        return new HttpTransportProvider();
    }

    @Override
    protected BrokerSettings broker() {
        return new BrokerSettings("contract-http", BrokerType.HTTP, SERVER.baseUrl(), Map.of());
    }

    @Override
    protected String newQueue(String purpose) {
        taken = 0;
        return "contract-" + purpose + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    @Override
    protected Map<String, String> options(String queue) {
        return Map.of("path", "/" + queue, "timeout", "5s");
    }

    @Override
    protected List<WorkerView> take(QueueRoute route) {
        List<WebhookServer.Request> requests = SERVER.requests("/" + route.queue());
        List<WorkerView> views = new ArrayList<>();
        for (WebhookServer.Request request : requests.subList(taken, requests.size())) {
            views.add(AmqpRabbitContractIT.jsonView(request.key(), JSON.readTree(request.body())));
        }
        taken = requests.size();
        return views;
    }

    @Override
    protected Refusal refusal() {
        QueueRoute route = route(newQueue("refused"));
        SERVER.on("/" + route.queue(), (request, attempt) ->
                new WebhookServer.Answer(422, "customer 0 is closed", Duration.ZERO));
        // the status alone: what the server answered is logged, not kept in last_error
        return new Refusal(route, tasks(route, 1).get(0), "HTTP 422");
    }

    @Override
    protected void stopBroker() {
        SERVER.stopListening();
    }

    @Override
    protected void startBroker() throws Exception {
        SERVER.listenAgain();
    }
}
