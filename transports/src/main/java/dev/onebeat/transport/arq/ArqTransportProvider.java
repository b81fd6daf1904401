package dev.onebeat.transport.arq;

import dev.onebeat.transport.BrokerType;
import dev.onebeat.transport.QueueRoute;
import dev.onebeat.transport.TaskPayload;
import dev.onebeat.transport.Transport;
import dev.onebeat.transport.TransportContext;
import dev.onebeat.transport.TransportProvider;
import dev.onebeat.transport.internal.redis.RedisClient;
import java.time.Instant;
import java.util.List;
import java.util.Set;

/**
 * {@code transport: arq}: an arq job for the function named by the task, with the idempotency key as
 * its job id, so arq's own check makes a second enqueue of the same task a no-op while the job or
 * its result exists. {@code options.queue-key} is the sorted set, default {@code arq:queue}.
 */
public class ArqTransportProvider implements TransportProvider {

    /** Route option: the queue's sorted-set key. */
    static final String QUEUE_KEY = "queue-key";

    @Override
    public String name() {
        return "arq";
    }

    @Override
    public Set<BrokerType> brokerTypes() {
        return Set.of(BrokerType.REDIS);
    }

    @Override
    public Transport create(QueueRoute route, TransportContext context) {
        String queueKey = route.option(QUEUE_KEY, ArqEncoder.DEFAULT_QUEUE);
        RedisClient redis = context.shared(RedisClient.class, () -> RedisClient.open(route.broker()));
        return tasks -> redis.execute(tasks, task -> {
            TaskPayload payload = task.payload();
            return List.of(ArqEncoder.encode(task.task(), queueKey, task.key(), payload.argsJson(),
                    payload.kwargsJson(), Instant.now()).command());
        });
    }
}
