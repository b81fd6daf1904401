package dev.onebeat.transport.contract;

import com.rabbitmq.client.GetResponse;
import dev.onebeat.transport.BrokerSettings;
import dev.onebeat.transport.BrokerType;
import dev.onebeat.transport.testing.PrivateRabbit;
import dev.onebeat.transport.testing.RabbitTestBroker;
import dev.onebeat.transport.testing.SharedBrokers;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/** The contract on a RabbitMQ node of the test JVM's own, which the restart test stops and starts. */
abstract class RabbitContract extends TransportContract {

    private PrivateRabbit rabbit;
    /** A client of the node, for reading queues as a worker would and removing them after. */
    protected RabbitTestBroker client;

    @BeforeEach
    void connect() throws Exception {
        rabbit = SharedBrokers.rabbit();
        client = new RabbitTestBroker(rabbit.url());
    }

    @AfterEach
    void removeQueues() throws Exception {
        client.close();
    }

    @Override
    protected BrokerSettings broker() {
        return new BrokerSettings("contract-rabbit", BrokerType.RABBITMQ, rabbit.url(), Map.of());
    }

    @Override
    protected String newQueue(String purpose) {
        return client.newQueueName(purpose);
    }

    @Override
    protected void stopBroker() throws Exception {
        rabbit.stopServer();
    }

    @Override
    protected void startBroker() throws Exception {
        rabbit.startServer();
    }

    /** @return the messages now in the queue, taken on a fresh connection (the restart closes the old one) */
    protected List<GetResponse> drain(String queue) throws Exception {
        try (RabbitTestBroker reader = new RabbitTestBroker(rabbit.url())) {
            return new ArrayList<>(reader.drain(queue));
        }
    }

    /** @return the text of a header, such as a {@code LongString} */
    protected static String header(GetResponse message, String name) {
        Map<String, Object> headers = message.getProps().getHeaders();
        Object value = headers == null ? null : headers.get(name);
        return value == null ? null : value.toString();
    }
}
