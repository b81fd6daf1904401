package dev.onebeat.transport.contract;

import static java.nio.charset.StandardCharsets.UTF_8;

import dev.onebeat.transport.QueueRoute;
import dev.onebeat.transport.TransportProvider;
import dev.onebeat.transport.arq.ArqTransportProvider;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import redis.clients.jedis.Jedis;
import tools.jackson.databind.JsonNode;

/**
 * arq: job ids in the queue's sorted set, each job pickled in {@code arq:job:<id>}; the job id is the
 * key itself, and arq drops an enqueue of an id it holds, so a republish is not enqueued twice.
 */
class ArqRedisContractIT extends RedisContract {

    @Override
    protected TransportProvider provider() {
        return new ArqTransportProvider();
    }

    @Override
    protected Map<String, String> options(String queue) {
        return Map.of("queue-key", "arq:" + queue);
    }

    @Override
    protected boolean republishEnqueuesAgain() {
        return false;
    }

    @Override
    protected boolean instantOnlyInKey() {
        return true;
    }

    @Override
    protected String taskName() {
        return "record";
    }

    @Override
    protected List<WorkerView> take(QueueRoute route) {
        String queueKey = "arq:" + route.queue();
        List<String> ids = new ArrayList<>();
        List<List<byte[]>> jobs = new ArrayList<>();
        try (Jedis jedis = jedis()) {
            ids.addAll(jedis.zrange(queueKey, 0, -1));
            for (String id : ids) {
                jobs.add(List.of(jedis.get(("arq:job:" + id).getBytes(UTF_8))));
                jedis.zrem(queueKey, id);
            }
        }
        List<JsonNode> functions = PythonPickles.load("pickle.loads(d[0])['f']", jobs);
        List<WorkerView> views = new ArrayList<>();
        for (int i = 0; i < ids.size(); i++) {
            views.add(new WorkerView(ids.get(i), ids.get(i), null, functions.get(i).asString()));
        }
        return views;
    }

    @Override
    protected Refusal refusal() {
        QueueRoute route = route(newQueue("wrongtype"));
        try (Jedis jedis = jedis()) {
            jedis.set("arq:" + route.queue(), "not a sorted set");
        }
        return new Refusal(route, tasks(route, 1).get(0), "WRONGTYPE");
    }
}
