package dev.onebeat.scheduler.engine.relay;

import dev.onebeat.testsupport.TestDatabase;
import java.time.Duration;
import java.util.Map;

/**
 * One replica's relay, alone in a JVM of its own, started by {@link RelayProcess}. In mode
 * {@code count} it relays and prints the running total of confirmed publishes after each round; in
 * mode {@code stall} it stalls for good after its first confirmed publish, before marking anything:
 * the state a replica is in when it dies between publish and mark.
 *
 * <p>Arguments: mode, node name, JDBC URL, user, password, AMQP URL, queue, transport, batch size,
 * claim lease in ms, and optionally {@code onebeat.relay.on-publish} ({@code mark} without it).
 */
public final class RelayMain {

    /** Printed in mode {@code stall}, with the number of published but unmarked tasks. */
    static final String STALLED = "STALLED-AFTER-PUBLISH published=";
    /** Printed in mode {@code count} after each round that published, with the running total. */
    static final String TOTAL = "PUBLISHED-TOTAL=";

    private RelayMain() {
    }

    public static void main(String[] args) throws InterruptedException {
        boolean stall = args[0].equals("stall");
        TestDatabase database = new TestDatabase("outbox", args[2], args[3], args[4]);
        String queue = args[6];
        RelayProperties settings = TestRelay.settings("rabbitmq", args[5], Duration.ofMillis(Long.parseLong(args[9])),
                Integer.parseInt(args[8]), Map.of(queue, TestRelay.route(args[7], Map.of())))
                .withOnPublish(args.length > 10 ? args[10] : RelayProperties.MARK);
        long[] total = {0};
        TestRelay.start(database, args[1], settings, published -> {
            if (published == 0) {
                return;
            }
            if (stall) {
                System.out.println(STALLED + published);
                System.out.flush();
                Thread.sleep(Long.MAX_VALUE);
            }
            total[0] += published;
            System.out.println(TOTAL + total[0]);
            System.out.flush();
        });
        // the relay's threads are daemons: keep the JVM up until it is stopped or killed
        Thread.currentThread().join();
    }
}
