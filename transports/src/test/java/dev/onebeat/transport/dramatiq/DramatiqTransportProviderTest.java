package dev.onebeat.transport.dramatiq;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import dev.onebeat.transport.BrokerSettings;
import dev.onebeat.transport.BrokerType;
import dev.onebeat.transport.QueueRoute;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DramatiqTransportProviderTest {

    private static final BrokerSettings RABBIT = new BrokerSettings("mq", BrokerType.RABBITMQ, "amqp://h/", Map.of());
    private static final BrokerSettings REDIS = new BrokerSettings("cache", BrokerType.REDIS, "redis://h/0", Map.of());
    private final DramatiqTransportProvider provider = new DramatiqTransportProvider();

    @Test
    void eachBrokerTakesItsOwnOptionsAndNothingElse() {
        assertThatCode(() -> provider.validate(route(RABBIT, Map.of("declare", "false")))).doesNotThrowAnyException();
        assertThatCode(() -> provider.validate(route(REDIS, Map.of("namespace", "jobs")))).doesNotThrowAnyException();
        assertThatIllegalArgumentException().isThrownBy(() -> provider.validate(route(RABBIT, Map.of("declar", "false"))))
                .withMessageStartingWith("options.declar: unknown option of the dramatiq transport");
        assertThatIllegalArgumentException().isThrownBy(() -> provider.validate(route(RABBIT, Map.of("namespace", "x"))))
                .withMessageStartingWith("options.namespace: only a redis broker has it");
        assertThatIllegalArgumentException().isThrownBy(() -> provider.validate(route(REDIS, Map.of("declare", "false"))))
                .withMessage("options.declare: only a rabbitmq broker has it");
        assertThatIllegalArgumentException().isThrownBy(() -> provider.validate(route(RABBIT, Map.of("declare", "no"))))
                .withMessage("options.declare: must be true or false, was 'no'");
    }

    private static QueueRoute route(BrokerSettings broker, Map<String, String> options) {
        return new QueueRoute("mailing", "dramatiq", broker, options);
    }
}
