package dev.onebeat.scheduler.interop;

import dev.onebeat.scheduler.SchedulerIT;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** {@link CeleryInteropCase} over RabbitMQ. */
@SchedulerIT
class CeleryRabbitInteropIT extends CeleryInteropCase {

    private static final Broker BROKER = Broker.rabbitMq();

    CeleryRabbitInteropIT() throws Exception {
        super(BROKER);
    }

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        BROKER.register(registry);
    }
}
