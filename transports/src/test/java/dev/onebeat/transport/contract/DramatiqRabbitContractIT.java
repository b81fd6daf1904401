package dev.onebeat.transport.contract;

import com.rabbitmq.client.GetResponse;
import dev.onebeat.transport.QueueRoute;
import dev.onebeat.transport.TransportProvider;
import dev.onebeat.transport.dramatiq.DramatiqTransportProvider;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** Dramatiq over RabbitMQ: the worker reads the message id, and the key and instant from its options. */
class DramatiqRabbitContractIT extends RabbitContract {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Override
    protected TransportProvider provider() {
        return new DramatiqTransportProvider();
    }

    @Override
    protected List<WorkerView> take(QueueRoute route) throws Exception {
        List<WorkerView> views = new ArrayList<>();
        for (GetResponse message : drain(route.queue())) {
            views.add(DramatiqRedisContractIT.view(JSON.readTree(message.getBody())));
        }
        return views;
    }

    @Override
    protected Refusal refusal() {
        String queue = client.newQueueName("missing");
        QueueRoute route = new QueueRoute(queue, provider().name(), broker(), Map.of("declare", "false"));
        return new Refusal(route, tasks(route, 1).get(0), "unroutable: 312 NO_ROUTE");
    }

    static String text(JsonNode node) {
        return node == null || node.isNull() ? null : node.asString();
    }
}
