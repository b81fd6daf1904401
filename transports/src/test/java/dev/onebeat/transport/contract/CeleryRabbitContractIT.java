package dev.onebeat.transport.contract;

import static org.assertj.core.api.Assertions.assertThat;

import com.rabbitmq.client.GetResponse;
import dev.onebeat.job.DeliveryOptions;
import dev.onebeat.transport.Delivery;
import dev.onebeat.transport.OutboundTask;
import dev.onebeat.transport.QueueRoute;
import dev.onebeat.transport.TransportProvider;
import dev.onebeat.transport.celery.CeleryTransportProvider;
import dev.onebeat.transport.TaskPayload;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

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

    @Test
    void aReturnedMessageFailsOnlyItsOwnTaskNotATwinOfTheSameBodyAndRoutingKey() throws Exception {
        QueueRoute route = route(newQueue("twins"));
        // an exchange that exists but routes nothing: a task sent there comes back
        String nowhere = client.newQueueName("nowhere");
        client.channel().exchangeDeclare(nowhere, "direct", true);
        String payload = "{\"args\": [], \"kwargs\": {}}";
        OutboundTask routed = task(route, "customer", "1", payload);
        OutboundTask returned = task(route, "customer", "2", new TaskPayload("[]", "{}",
                new DeliveryOptions(null, null, nowhere, route.queue(), Map.of()), null).toJson());

        List<Delivery> outcomes = transport(route).publish(List.of(routed, returned));

        assertThat(outcomes.get(0)).as("the task the queue took").isEqualTo(Delivery.published());
        assertThat(outcomes.get(1).status()).isEqualTo(Delivery.Status.REFUSED);
        assertThat(outcomes.get(1).error()).contains("312 NO_ROUTE").contains(nowhere);
        assertThat(take(route)).extracting(WorkerView::key).containsExactly(routed.key().value());
    }

    @Test
    void aTaskNamingAnExchangeThatDoesNotExistIsRefusedAndTheRestOfTheBatchPublished() throws Exception {
        QueueRoute route = route(newQueue("no-exchange"));
        OutboundTask plain = task(route, "customer", "1", "{\"args\": [1], \"kwargs\": {}}");
        OutboundTask astray = task(route, "customer", "2", "{\"args\": [2], \"kwargs\": {}, \"delivery\": "
                + "{\"exchange\": \"onebeat-test-no-such-exchange\"}}");

        List<Delivery> outcomes = transport(route).publish(List.of(plain, astray, plain));

        assertThat(outcomes.get(0)).isEqualTo(Delivery.published());
        assertThat(outcomes.get(1).status()).isEqualTo(Delivery.Status.REFUSED);
        assertThat(outcomes.get(1).error()).startsWith("exchange 'onebeat-test-no-such-exchange' does not exist");
        assertThat(outcomes.get(2)).isEqualTo(Delivery.published());
        assertThat(take(route)).extracting(WorkerView::key).containsOnly(plain.key().value()).hasSize(2);
    }
}
