package dev.onebeat.scheduler.relay;

import dev.onebeat.testsupport.TestDatabase;
import java.time.Duration;
import java.util.Map;

/**
 * A relay that stalls for good after its first confirmed publish, before marking anything: the
 * state a replica is in when it dies between publish and mark. Started as a separate JVM by
 * {@link RelayKilledIT}, which kills it there.
 *
 * <p>Arguments: JDBC URL, user, password, AMQP URL, Celery queue, batch size, claim lease in ms.
 */
public final class StalledRelayMain {

    /** Printed, with the number of published but unmarked tasks, when the relay stalls. */
    static final String MARKER = "STALLED-AFTER-PUBLISH published=";

    private StalledRelayMain() {
    }

    public static void main(String[] args) throws InterruptedException {
        TestDatabase database = new TestDatabase("outbox", args[0], args[1], args[2]);
        String queue = args[4];
        RelayProperties settings = TestRelay.settings("rabbitmq", args[3], Duration.ofMillis(Long.parseLong(args[6])),
                Integer.parseInt(args[5]), Map.of(queue, TestRelay.route("celery", Map.of())));
        TestRelay.start(database, "stalled-relay", settings, published -> {
            if (published > 0) {
                System.out.println(MARKER + published);
                System.out.flush();
                Thread.sleep(Long.MAX_VALUE);
            }
        });
        // the relay's threads are daemons: keep the JVM up until it is killed
        Thread.currentThread().join();
    }
}
