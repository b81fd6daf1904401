package dev.onebeat.transport.dramatiq;

import java.util.Map;
import java.util.Objects;

/**
 * A durable RabbitMQ queue as Dramatiq declares it. A declaration whose arguments differ from the
 * worker's is refused by RabbitMQ, so these must match exactly.
 *
 * @param name the queue name
 * @param arguments the {@code x-} arguments
 */
record DramatiqQueue(String name, Map<String, Object> arguments) {

    /** Copies the arguments. */
    public DramatiqQueue {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("name must not be blank, was '" + name + "'");
        }
        arguments = Map.copyOf(Objects.requireNonNull(arguments, "arguments must not be null"));
    }
}
