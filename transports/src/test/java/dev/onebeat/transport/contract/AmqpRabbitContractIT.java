package dev.onebeat.transport.contract;

import com.rabbitmq.client.GetResponse;
import dev.onebeat.transport.QueueRoute;
import dev.onebeat.transport.TransportProvider;
import dev.onebeat.transport.amqp.AmqpJsonTransportProvider;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** The plain JSON format over RabbitMQ: {@code message_id} is the key; the body names the instant. */
class AmqpRabbitContractIT extends RabbitContract {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Override
    protected TransportProvider provider() {
        return new AmqpJsonTransportProvider();
    }

    @Override
    protected List<WorkerView> take(QueueRoute route) throws Exception {
        List<WorkerView> views = new ArrayList<>();
        for (GetResponse message : drain(route.queue())) {
            views.add(jsonView(message.getProps().getMessageId(), JSON.readTree(message.getBody())));
        }
        return views;
    }

    @Override
    protected Refusal refusal() throws Exception {
        // an exchange with no queue bound: RabbitMQ returns the message
        String exchange = client.newQueueName("unbound");
        client.channel().exchangeDeclare(exchange, "direct", true);
        QueueRoute route = new QueueRoute(exchange, provider().name(), broker(), Map.of("exchange", exchange));
        return new Refusal(route, tasks(route, 1).get(0), "unroutable: 312 NO_ROUTE");
    }

    /** @return the view of a body in the plain JSON form, which the kafka and http formats share */
    static WorkerView jsonView(String id, JsonNode body) {
        return new WorkerView(id, body.get("idempotency_key").asString(), body.get("scheduled_at").asString(),
                body.get("task").asString());
    }
}
