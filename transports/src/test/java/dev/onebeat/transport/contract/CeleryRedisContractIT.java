package dev.onebeat.transport.contract;

import dev.onebeat.transport.QueueRoute;
import dev.onebeat.transport.TransportProvider;
import dev.onebeat.transport.celery.CeleryTransportProvider;
import java.util.ArrayList;
import java.util.List;
import redis.clients.jedis.Jedis;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** Celery over Redis: kombu's envelope in the queue's list; the worker reads the headers inside it. */
class CeleryRedisContractIT extends RedisContract {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Override
    protected TransportProvider provider() {
        return new CeleryTransportProvider();
    }

    @Override
    protected List<WorkerView> take(QueueRoute route) {
        List<WorkerView> views = new ArrayList<>();
        try (Jedis jedis = jedis()) {
            String envelope;
            // workers BRPOP: the oldest message is at the right
            while ((envelope = jedis.rpop(route.queue())) != null) {
                JsonNode headers = JSON.readTree(envelope).get("headers");
                views.add(new WorkerView(headers.get("id").asString(), headers.get("idempotency_key").asString(),
                        DramatiqRabbitContractIT.text(headers.get("scheduled_at")), headers.get("task").asString()));
            }
        }
        return views;
    }

    @Override
    protected Refusal refusal() {
        QueueRoute route = route(newQueue("wrongtype"));
        try (Jedis jedis = jedis()) {
            // the queue's key holds a string, so LPUSH is refused whatever the relay tries
            jedis.set(route.queue(), "not a list");
        }
        return new Refusal(route, tasks(route, 1).get(0), "WRONGTYPE");
    }
}
