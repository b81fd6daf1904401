package dev.onebeat.transport.contract;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onebeat.job.Entity;
import dev.onebeat.job.IdempotencyKey;
import dev.onebeat.transport.BrokerSettings;
import dev.onebeat.transport.Delivery;
import dev.onebeat.transport.OutboundTask;
import dev.onebeat.transport.QueueRoute;
import dev.onebeat.transport.Transport;
import dev.onebeat.transport.TransportProvider;
import dev.onebeat.transport.testing.TestTransportContext;
import dev.onebeat.transport.TaskPayload;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The promises every transport keeps, on its real broker: each test of a transport and broker pair
 * subclasses this with a few lines of setup (the provider, the broker, how a worker of the format reads
 * what the broker holds, how to make the broker refuse a task, how to restart it), as ShedLock ships
 * one test that every lock provider extends.
 *
 * <ul>
 *   <li>N tasks published are each on the broker once;</li>
 *   <li>a republish (the relay crashed between the confirm and marking the row) keeps the id and key;</li>
 *   <li>a refusal is final (the same task is refused again) and says why;</li>
 *   <li>a broker stopped in the middle of a run and started again while the relay publishes into the
 *       outage loses nothing, publishing as the relay does (retry with the same task after a failure, the
 *       transport made anew after a throw), and the publishes during the outage did fail;</li>
 *   <li>the message a worker sees carries the key and the scheduled instant.</li>
 * </ul>
 */
public abstract class TransportContract {

    /** The fire instant of the tasks these tests publish: whole seconds, as the scheduler's are. */
    protected static final Instant AT = Instant.parse("2026-03-29T01:30:00Z");
    /** How long the restart test keeps the broker down while the relay publishes. */
    private static final Duration DOWN = Duration.ofMillis(1500);

    private final TestTransportContext context = new TestTransportContext();
    private final String job = "contract-" + UUID.randomUUID().toString().substring(0, 8);

    /** @return the transport under test */
    protected abstract TransportProvider provider();

    /** @return the broker connection the pair publishes to */
    protected abstract BrokerSettings broker();

    /** @return a queue name no other test uses; the pair removes what it leaves on the broker */
    protected abstract String newQueue(String purpose) throws Exception;

    /** @return the route options for a queue, such as a Kafka topic or an arq queue key */
    protected Map<String, String> options(String queue) {
        return Map.of();
    }

    /** @return what a worker would now read from the queue, taking it off the broker */
    protected abstract List<WorkerView> take(QueueRoute route) throws Exception;

    /** @return a route and task the broker refuses for good */
    protected abstract Refusal refusal() throws Exception;

    /** Stops the broker (as a crash or an operator would), keeping its data. */
    protected abstract void stopBroker() throws Exception;

    /** Starts the stopped broker again on the same data and port, and waits until it serves. */
    protected abstract void startBroker() throws Exception;

    /**
     * @return whether a publish to the stopped broker fails (most clients), rather than waiting inside the
     *     client until the broker is back (Kafka's idempotent producer retries within {@code delivery.timeout.ms})
     */
    protected boolean publishFailsWhileDown() {
        return true;
    }

    /** @return whether the format has no field for the scheduled instant and carries it only in the key (arq) */
    protected boolean instantOnlyInKey() {
        return false;
    }

    /**
     * @return whether a republished task reaches the broker twice (most formats) or is dropped by the
     *     broker-side check of its id (arq)
     */
    protected boolean republishEnqueuesAgain() {
        return true;
    }

    /** @return the task name the pair's worker would dispatch on */
    protected String taskName() {
        return "onebeat_contract.record";
    }

    @AfterEach
    void closeClients() throws Exception {
        context.close();
    }

    @Test
    void publishesEveryTaskOnce() throws Exception {
        QueueRoute route = route(newQueue("once"));
        List<OutboundTask> tasks = tasks(route, 50);
        Transport transport = transport(route);

        for (int from = 0; from < tasks.size(); from += 20) {
            assertThat(transport.publish(tasks.subList(from, Math.min(from + 20, tasks.size()))))
                    .allSatisfy(delivery -> assertThat(delivery).isEqualTo(Delivery.published()));
        }

        List<WorkerView> seen = await(route, tasks.size());
        assertThat(seen).extracting(WorkerView::key)
                .containsExactlyInAnyOrderElementsOf(tasks.stream().map(task -> task.key().value()).toList());
        assertThat(seen.stream().map(WorkerView::id).distinct()).hasSize(tasks.size());
    }

    @Test
    void aRepublishKeepsTheIdAndTheKey() throws Exception {
        QueueRoute route = route(newQueue("again"));
        OutboundTask task = tasks(route, 1).get(0);
        Transport transport = transport(route);

        assertThat(transport.publish(List.of(task))).containsExactly(Delivery.published());
        assertThat(transport.publish(List.of(task))).containsExactly(Delivery.published());

        List<WorkerView> seen = await(route, republishEnqueuesAgain() ? 2 : 1);
        assertThat(seen).hasSize(republishEnqueuesAgain() ? 2 : 1);
        assertThat(seen).extracting(WorkerView::key).containsOnly(task.key().value());
        assertThat(seen.stream().map(WorkerView::id).distinct()).hasSize(1);
    }

    @Test
    void aRefusalIsFinalAndSaysWhy() throws Exception {
        Refusal refusal = refusal();
        Transport transport = transport(refusal.route());

        for (int attempt = 1; attempt <= 2; attempt++) {
            List<Delivery> outcome = transport.publish(List.of(refusal.task()));
            assertThat(outcome).as("attempt %d", attempt).singleElement().satisfies(delivery -> {
                assertThat(delivery.status()).isEqualTo(Delivery.Status.REFUSED);
                assertThat(delivery.error()).contains(refusal.because());
            });
        }
    }

    @Test
    void aBrokerRestartMidRunLosesNothing() throws Exception {
        QueueRoute route = route(newQueue("restart"));
        List<OutboundTask> tasks = tasks(route, 60);
        RelayLike relay = new RelayLike(route);
        relay.publishUntilConfirmed(tasks.subList(0, 20));

        stopBroker();
        // the broker comes back while the relay is already publishing the rest into the outage
        CompletableFuture<Void> back = CompletableFuture.runAsync(() -> {
            try {
                Thread.sleep(DOWN.toMillis());
                startBroker();
            } catch (Exception e) {
                throw new IllegalStateException("the broker did not start again", e);
            }
        });
        for (int from = 20; from < tasks.size(); from += 10) {
            relay.publishUntilConfirmed(tasks.subList(from, from + 10));
        }
        back.get();

        if (publishFailsWhileDown()) {
            assertThat(relay.failures).as("publish rounds that failed while the broker was down").isPositive();
        }
        List<WorkerView> seen = await(route, tasks.size());
        assertThat(seen.stream().map(WorkerView::key).collect(Collectors.toSet()))
                .as("every task is on the broker after the restart (%d publish rounds failed)", relay.failures)
                .containsExactlyInAnyOrderElementsOf(tasks.stream().map(task -> task.key().value()).toList());
    }

    @Test
    void theMessageAWorkerSeesCarriesTheKeyAndTheScheduledInstant() throws Exception {
        QueueRoute route = route(newQueue("key"));
        OutboundTask task = tasks(route, 1).get(0);

        assertThat(transport(route).publish(List.of(task))).containsExactly(Delivery.published());

        WorkerView view = await(route, 1).get(0);
        assertThat(view.key()).isEqualTo(task.key().value());
        assertThat(view.task()).isEqualTo(task.task());
        if (instantOnlyInKey()) {
            assertThat(view.key()).as("a format without a field for it carries the instant in the key")
                    .contains(AT.toString());
        } else {
            assertThat(view.scheduledAt()).as("the scheduled instant the worker reads").isNotNull();
            assertThat(Instant.parse(view.scheduledAt())).isEqualTo(task.scheduledAt());
        }
    }

    /** @return a route of this pair to the queue */
    protected final QueueRoute route(String queue) {
        QueueRoute route = new QueueRoute(queue, provider().name(), broker(), options(queue));
        provider().validate(route);
        return route;
    }

    /** @return {@code count} tasks of one fire of this test's job, one per entity */
    protected final List<OutboundTask> tasks(QueueRoute route, int count) {
        return IntStream.range(0, count).mapToObj(i -> task(route, "customer", Integer.toString(i), "{\"args\": [" + i
                + "], \"kwargs\": {\"note\": \"contract\"}}")).toList();
    }

    /** @return one task of this test's job for the entity, with the payload given */
    protected final OutboundTask task(QueueRoute route, String entityType, String entityId, String payloadJson) {
        IdempotencyKey key = IdempotencyKey.of(job, AT, taskName(), new Entity(entityType, entityId));
        return new OutboundTask(key, job, AT, taskName(), route.queue(), entityType, entityId,
                TaskPayload.fromJson(payloadJson), null);
    }

    /** @return a transport for the route, sharing this test's broker clients */
    protected final Transport transport(QueueRoute route) throws Exception {
        return provider().create(route, context);
    }

    /** Takes what the broker holds until {@code expected} messages arrived or 30 s passed, then a little more. */
    private List<WorkerView> await(QueueRoute route, int expected) throws Exception {
        List<WorkerView> seen = new ArrayList<>();
        Instant deadline = Instant.now().plus(Duration.ofSeconds(30));
        while (seen.size() < expected && Instant.now().isBefore(deadline)) {
            seen.addAll(take(route));
            if (seen.size() < expected) {
                Thread.sleep(100);
            }
        }
        // anything more than expected (a duplicate) shows up here
        Thread.sleep(300);
        seen.addAll(take(route));
        return seen;
    }

    /**
     * Publishes as the relay does: a task answered {@code RETRY} is published again after a pause, a
     * throw discards the transport and the next round makes a new one; the broker clients are shared
     * and never replaced, as the relay's are.
     */
    private final class RelayLike {

        private final QueueRoute route;
        private Transport transport;
        private int failures;

        RelayLike(QueueRoute route) {
            this.route = route;
        }

        void publishUntilConfirmed(List<OutboundTask> batch) throws Exception {
            Set<OutboundTask> due = new LinkedHashSet<>(batch);
            Instant deadline = Instant.now().plus(Duration.ofSeconds(120));
            Map<String, String> lastErrors = new HashMap<>();
            while (!due.isEmpty()) {
                assertThat(Instant.now()).as("published within 120 s; last errors: %s", lastErrors).isBefore(deadline);
                List<OutboundTask> round = List.copyOf(due);
                List<Delivery> outcomes;
                try {
                    if (transport == null) {
                        transport = transport(route);
                    }
                    outcomes = transport.publish(round);
                } catch (Exception e) {
                    failures++;
                    lastErrors.put("throw", e.toString());
                    transport = null;
                    Thread.sleep(250);
                    continue;
                }
                for (int i = 0; i < round.size(); i++) {
                    Delivery delivery = outcomes.get(i);
                    assertThat(delivery.status()).as("no task is refused by a restarting broker: %s", delivery.error())
                            .isNotEqualTo(Delivery.Status.REFUSED);
                    if (delivery.status() == Delivery.Status.PUBLISHED) {
                        due.remove(round.get(i));
                    } else {
                        lastErrors.put("retry", delivery.error());
                    }
                }
                if (!due.isEmpty()) {
                    failures++;
                    Thread.sleep(250);
                }
            }
        }
    }
}
