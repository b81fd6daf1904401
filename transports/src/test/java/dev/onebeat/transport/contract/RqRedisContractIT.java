package dev.onebeat.transport.contract;

import static java.nio.charset.StandardCharsets.UTF_8;

import dev.onebeat.transport.QueueRoute;
import dev.onebeat.transport.TransportProvider;
import dev.onebeat.transport.rq.RqTransportProvider;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import redis.clients.jedis.Jedis;
import tools.jackson.databind.JsonNode;

/**
 * RQ: job ids in {@code rq:queue:<queue>}, jobs in {@code rq:job:<id>}; the worker calls the function
 * the job's pickled {@code data} names and reads the key and instant from its pickled {@code meta}.
 */
class RqRedisContractIT extends RedisContract {

    @Override
    protected TransportProvider provider() {
        return new RqTransportProvider();
    }

    @Override
    protected List<WorkerView> take(QueueRoute route) {
        List<String> ids = new ArrayList<>();
        Map<String, List<byte[]>> jobs = new LinkedHashMap<>();
        try (Jedis jedis = jedis()) {
            String queueKey = "rq:queue:" + route.queue();
            String id;
            while ((id = jedis.lpop(queueKey)) != null) {
                ids.add(id);
                if (!jobs.containsKey(id)) {
                    byte[] jobKey = ("rq:job:" + id).getBytes(UTF_8);
                    jobs.put(id, Arrays.asList(jedis.hget(jobKey, "data".getBytes(UTF_8)),
                            jedis.hget(jobKey, "meta".getBytes(UTF_8))));
                }
            }
            jobs.keySet().forEach(job -> jedis.del("rq:job:" + job));
        }
        List<JsonNode> loaded = PythonPickles.load(
                "[pickle.loads(zlib.decompress(d[0]))[0], pickle.loads(d[1]) if d[1] else {}]",
                new ArrayList<>(jobs.values()));
        Map<String, JsonNode> byId = new LinkedHashMap<>();
        int i = 0;
        for (String job : jobs.keySet()) {
            byId.put(job, loaded.get(i++));
        }
        List<WorkerView> views = new ArrayList<>();
        for (String job : ids) {
            JsonNode value = byId.get(job);
            JsonNode meta = value.get(1);
            views.add(new WorkerView(job, DramatiqRabbitContractIT.text(meta.get("idempotency_key")),
                    DramatiqRabbitContractIT.text(meta.get("scheduled_at")), value.get(0).asString()));
        }
        return views;
    }

    @Override
    protected Refusal refusal() {
        QueueRoute route = route(newQueue("wrongtype"));
        try (Jedis jedis = jedis()) {
            jedis.set("rq:queue:" + route.queue(), "not a list");
        }
        return new Refusal(route, tasks(route, 1).get(0), "WRONGTYPE");
    }
}
