package dev.onebeat.transport.rq;

import dev.onebeat.transport.BrokerType;
import dev.onebeat.transport.QueueRoute;
import dev.onebeat.transport.TaskPayload;
import dev.onebeat.transport.Transport;
import dev.onebeat.transport.TransportContext;
import dev.onebeat.transport.TransportProvider;
import dev.onebeat.transport.internal.redis.RedisClient;
import java.time.Instant;
import java.util.Set;

/**
 * {@code transport: rq}: an RQ job calling the function named by the task (a dotted path such as
 * {@code app.tasks.send}) on the RQ queue named like the route's queue; the job id is the UUIDv5 of
 * the idempotency key, and the readable key and the scheduled instant are in the job's {@code meta}.
 */
public class RqTransportProvider implements TransportProvider {

    @Override
    public String name() {
        return "rq";
    }

    @Override
    public Set<BrokerType> brokerTypes() {
        return Set.of(BrokerType.REDIS);
    }

    @Override
    public Transport create(QueueRoute route, TransportContext context) {
        RedisClient redis = context.shared(RedisClient.class, () -> RedisClient.open(route.broker()));
        return tasks -> redis.execute(tasks, task -> {
            TaskPayload payload = task.payload();
            return RqEncoder.encode(task.task(), task.queue(), task.key(), task.scheduledAt(), payload.argsJson(),
                    payload.kwargsJson(), Instant.now(), payload.trace()).commands();
        });
    }
}
