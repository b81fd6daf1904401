package dev.onebeat.transport.celery;

import com.rabbitmq.client.Channel;
import dev.onebeat.transport.OutboundTask;
import dev.onebeat.transport.internal.amqp.AmqpMessage;
import java.io.IOException;

/**
 * The {@code celery} transport's message and queue declaration, package-private in the transport, for the relay
 * benchmark's raw publisher (which must send the bytes the transport sends) and the tests that read its headers.
 * Test code only; this is their only door from elsewhere.
 */
public final class CeleryTransportParts {

    /** The header carrying the readable idempotency key. */
    public static final String IDEMPOTENCY_KEY_HEADER = CeleryMessage.IDEMPOTENCY_KEY_HEADER;

    private CeleryTransportParts() {
    }

    /** @return the AMQP message the transport publishes for {@code task}: headers, properties and body bytes */
    public static AmqpMessage amqpMessage(OutboundTask task, String origin) {
        return CeleryTransportProvider.amqpMessage(CeleryAmqpMessage.of(CeleryMessage.of(task, origin)));
    }

    /** Declares the exchange, queue and binding Celery declares by default for {@code queue}, as the relay does. */
    public static void declare(Channel channel, String queue) throws IOException {
        CeleryQueueDeclaration declaration = CeleryQueueDeclaration.of(queue);
        channel.exchangeDeclare(declaration.exchange(), declaration.exchangeType(), declaration.exchangeDurable());
        channel.queueDeclare(declaration.queue(), declaration.queueDurable(), declaration.queueExclusive(),
                declaration.queueAutoDelete(), declaration.queueArguments());
        channel.queueBind(declaration.queue(), declaration.exchange(), declaration.bindingKey());
    }
}
