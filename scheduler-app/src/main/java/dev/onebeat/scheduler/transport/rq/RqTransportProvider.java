package dev.onebeat.scheduler.transport.rq;

import dev.onebeat.scheduler.relay.BrokerType;
import dev.onebeat.scheduler.relay.QueueRoute;
import dev.onebeat.scheduler.relay.Transport;
import dev.onebeat.scheduler.relay.TransportContext;
import dev.onebeat.scheduler.relay.TransportProvider;
import dev.onebeat.scheduler.transport.Payloads;
import dev.onebeat.scheduler.transport.redis.RedisClient;
import java.time.Instant;
import java.util.Set;
import org.springframework.stereotype.Component;

/**
 * {@code transport: rq}: an RQ job calling the function named by the task (a dotted path such as
 * {@code app.tasks.send}) on the RQ queue named like the route's queue; the job id is the UUIDv5 of
 * the idempotency key.
 */
@Component
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
            String[] payload = Payloads.split(task);
            return RqEncoder.encode(task.task(), task.queue(), task.key(), payload[0], payload[1], Instant.now()).commands();
        });
    }
}
