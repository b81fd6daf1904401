package dev.onebeat.scheduler.transport.arq;

import dev.onebeat.scheduler.relay.BrokerType;
import dev.onebeat.scheduler.relay.QueueRoute;
import dev.onebeat.scheduler.relay.Transport;
import dev.onebeat.scheduler.relay.TransportContext;
import dev.onebeat.scheduler.relay.TransportProvider;
import dev.onebeat.scheduler.transport.Payloads;
import dev.onebeat.scheduler.transport.redis.RedisClient;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import org.springframework.stereotype.Component;

/**
 * {@code transport: arq}: an arq job for the function named by the task, with the idempotency key as
 * its job id, so arq's own check makes a second enqueue of the same task a no-op while the job or
 * its result exists. {@code options.queue-key} is the sorted set, default {@code arq:queue}.
 */
@Component
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
            String[] payload = Payloads.split(task);
            return List.of(ArqEncoder.encode(task.task(), queueKey, task.key(), payload[0], payload[1], Instant.now())
                    .command());
        });
    }
}
