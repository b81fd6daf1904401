package dev.onebeat.transport.contract;

import dev.onebeat.transport.QueueRoute;
import dev.onebeat.transport.TransportProvider;
import dev.onebeat.transport.dramatiq.DramatiqTransportProvider;
import java.util.ArrayList;
import java.util.List;
import redis.clients.jedis.Jedis;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** Dramatiq over Redis: ids in {@code dramatiq:<queue>}, messages in {@code dramatiq:<queue>.msgs}. */
class DramatiqRedisContractIT extends RedisContract {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Override
    protected TransportProvider provider() {
        return new DramatiqTransportProvider();
    }

    @Override
    protected List<WorkerView> take(QueueRoute route) {
        List<WorkerView> views = new ArrayList<>();
        String queueKey = "dramatiq:" + route.queue();
        try (Jedis jedis = jedis()) {
            String rid;
            while ((rid = jedis.lpop(queueKey)) != null) {
                String message = jedis.hget(queueKey + ".msgs", rid);
                jedis.hdel(queueKey + ".msgs", rid);
                views.add(view(JSON.readTree(message)));
            }
        }
        return views;
    }

    @Override
    protected Refusal refusal() {
        QueueRoute route = route(newQueue("wrongtype"));
        try (Jedis jedis = jedis()) {
            jedis.set("dramatiq:" + route.queue() + ".msgs", "not a hash");
        }
        return new Refusal(route, tasks(route, 1).get(0), "WRONGTYPE");
    }

    /** @return what a Dramatiq worker reads of a message body */
    static WorkerView view(JsonNode message) {
        JsonNode options = message.get("options");
        return new WorkerView(message.get("message_id").asString(),
                DramatiqRabbitContractIT.text(options.get("idempotency_key")),
                DramatiqRabbitContractIT.text(options.get("scheduled_at")), message.get("actor_name").asString());
    }
}
