package dev.onebeat.transport.testing;

/**
 * The restartable brokers of one test JVM, started on first use and stopped when the JVM exits: the
 * contract tests of several transports on one broker kind share one server instead of paying its
 * start-up each. Tests run one at a time in a JVM here, so a restart by one test never meets another.
 */
public final class SharedBrokers {

    private static PrivateRabbit rabbit;
    private static PrivateRedis redis;
    private static KafkaTestBroker kafka;

    private SharedBrokers() {
    }

    /** @return this JVM's private RabbitMQ node */
    public static synchronized PrivateRabbit rabbit() throws Exception {
        if (rabbit == null) {
            rabbit = PrivateRabbit.start();
            closeAtExit(rabbit);
        }
        return rabbit;
    }

    /** @return this JVM's private Redis server */
    public static synchronized PrivateRedis redis() throws Exception {
        if (redis == null) {
            redis = PrivateRedis.start();
            closeAtExit(redis);
        }
        return redis;
    }

    /** @return this JVM's Kafka broker */
    public static synchronized KafkaTestBroker kafka() throws Exception {
        if (kafka == null) {
            kafka = KafkaTestBroker.start();
            closeAtExit(kafka);
        }
        return kafka;
    }

    private static void closeAtExit(AutoCloseable broker) {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                broker.close();
            } catch (Exception e) {
                System.err.println("could not stop " + broker + ": " + e);
            }
        }, "stop-test-broker"));
    }
}
