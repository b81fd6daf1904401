package dev.onebeat.transport.celery;

import dev.onebeat.job.DeliveryOptions;
import dev.onebeat.job.Durations;
import dev.onebeat.transport.BrokerType;
import dev.onebeat.transport.QueueRoute;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * The {@code options} of a {@code celery} route, read and checked once at start-up.
 *
 * <ul>
 *   <li>{@code expires}, {@code priority}, {@code exchange}, {@code routing-key}, {@code headers.<Name>}: the
 *       {@link DeliveryOptions} of every task of the queue, which a job's own options override;</li>
 *   <li>{@code exchange-type} (RabbitMQ, default {@code direct}), the type the exchange is declared with;</li>
 *   <li>{@code queue-arguments.<x-argument>} (RabbitMQ): the queue's declaration arguments, such as
 *       {@code x-queue-type: quorum} or {@code x-max-priority: 10}, as the workers' {@code task_queues}
 *       declare it (a value that reads as a whole number or {@code true}/{@code false} is sent as one);</li>
 *   <li>{@code declare} (RabbitMQ, default {@code true}): {@code false} publishes to an exchange and queue
 *       that exist already and declares nothing; a message nothing routes is then refused.</li>
 * </ul>
 *
 * @param delivery the queue's delivery defaults
 * @param exchangeType the exchange's declared type
 * @param queueArguments the queue's declaration arguments, in order
 * @param declare whether to declare the exchange, queue and binding before publishing
 */
record CeleryRouteOptions(DeliveryOptions delivery, String exchangeType, Map<String, Object> queueArguments,
                          boolean declare) {

    static final String HEADERS = "headers.";
    static final String QUEUE_ARGUMENTS = "queue-arguments.";
    private static final Set<String> KNOWN = Set.of("expires", "priority", "exchange", "routing-key", "exchange-type",
            "declare");
    private static final Set<String> RABBITMQ_ONLY = Set.of("exchange", "routing-key", "exchange-type", "declare");
    private static final Set<String> EXCHANGE_TYPES = Set.of("direct", "topic", "fanout", "headers");
    private static final Pattern WHOLE_NUMBER = Pattern.compile("-?\\d{1,18}");

    CeleryRouteOptions {
        queueArguments = Collections.unmodifiableMap(new LinkedHashMap<>(queueArguments));
    }

    /**
     * @param route a {@code celery} route
     * @return its options
     * @throws IllegalArgumentException naming {@code options.<name>} and the value that is wrong
     */
    static CeleryRouteOptions of(QueueRoute route) {
        boolean rabbit = route.broker() != null && route.broker().type() == BrokerType.RABBITMQ;
        Map<String, String> headers = new LinkedHashMap<>();
        Map<String, Object> arguments = new LinkedHashMap<>();
        route.options().forEach((name, value) -> {
            boolean header = name.startsWith(HEADERS) && name.length() > HEADERS.length();
            boolean argument = name.startsWith(QUEUE_ARGUMENTS) && name.length() > QUEUE_ARGUMENTS.length();
            if (!header && !argument && !KNOWN.contains(name)) {
                TreeSet<String> known = new TreeSet<>(KNOWN);
                known.addAll(List.of(HEADERS + "<Name>", QUEUE_ARGUMENTS + "<x-argument>"));
                throw new IllegalArgumentException("options." + name + ": unknown option of the celery transport; known: "
                        + known);
            }
            if (!rabbit && (argument || RABBITMQ_ONLY.contains(name))) {
                throw new IllegalArgumentException("options." + name + ": only a rabbitmq broker has it; Celery on "
                        + "Redis pushes to the queue's list");
            }
            if (header) {
                headers.put(name.substring(HEADERS.length()), value);
            } else if (argument) {
                arguments.put(name.substring(QUEUE_ARGUMENTS.length()), typed(value));
            }
        });
        DeliveryOptions delivery;
        try {
            delivery = new DeliveryOptions(expires(route.option("expires", null)), priority(route.option("priority", null)),
                    route.option("exchange", null), route.option("routing-key", null), headers);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("options." + e.getMessage(), e);
        }
        String exchangeType = route.option("exchange-type", "direct");
        if (!EXCHANGE_TYPES.contains(exchangeType)) {
            throw new IllegalArgumentException("options.exchange-type: '" + exchangeType + "' is not one of "
                    + new TreeSet<>(EXCHANGE_TYPES));
        }
        String declare = route.option("declare", "true");
        if (!declare.equals("true") && !declare.equals("false")) {
            throw new IllegalArgumentException("options.declare: must be true or false, was '" + declare + "'");
        }
        if (arguments.containsKey("x-max-priority") && !(arguments.get("x-max-priority") instanceof Number)) {
            throw new IllegalArgumentException("options.queue-arguments.x-max-priority: must be a whole number, was '"
                    + arguments.get("x-max-priority") + "'");
        }
        return new CeleryRouteOptions(delivery, exchangeType, arguments, Boolean.parseBoolean(declare));
    }

    private static Duration expires(String value) {
        if (value == null) {
            return null;
        }
        try {
            return Durations.parse(value);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("expires: " + e.getMessage(), e);
        }
    }

    private static Integer priority(String value) {
        if (value == null) {
            return null;
        }
        try {
            return Integer.valueOf(value.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("priority: must be a whole number 0 to " + DeliveryOptions.MAX_PRIORITY
                    + ", was '" + value + "'", e);
        }
    }

    /** RabbitMQ compares declaration arguments by type: {@code 10} and {@code "10"} differ. */
    private static Object typed(String value) {
        String text = value.trim();
        if (WHOLE_NUMBER.matcher(text).matches()) {
            long number = Long.parseLong(text);
            return number >= Integer.MIN_VALUE && number <= Integer.MAX_VALUE ? (Object) (int) number : (Object) number;
        }
        if (text.equals("true") || text.equals("false")) {
            return Boolean.parseBoolean(text);
        }
        return text;
    }
}
