package dev.onebeat.transport.contract;

import com.rabbitmq.client.GetResponse;
import dev.onebeat.transport.QueueRoute;
import dev.onebeat.transport.TransportProvider;
import dev.onebeat.transport.celery.CeleryTransportProvider;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Celery over RabbitMQ: the worker reads the task id, key and instant from the message headers. */
class CeleryRabbitContractIT extends RabbitContract {

    @Override
    protected TransportProvider provider() {
        return new CeleryTransportProvider();
    }

    @Override
    protected List<WorkerView> take(QueueRoute route) throws Exception {
        List<WorkerView> views = new ArrayList<>();
        for (GetResponse message : drain(route.queue())) {
            views.add(new WorkerView(header(message, "id"), header(message, "idempotency_key"),
                    header(message, "scheduled_at"), header(message, "task")));
        }
        return views;
    }

    @Override
    protected Refusal refusal() {
        // a queue that does not exist, with the declaration turned off: RabbitMQ returns the message
        String queue = client.newQueueName("missing");
        QueueRoute route = new QueueRoute(queue, provider().name(), broker(), Map.of("declare", "false"));
        return new Refusal(route, tasks(route, 1).get(0), "unroutable: 312 NO_ROUTE");
    }
}
