package dev.onebeat.scheduler.engine.relay;

import static org.assertj.core.api.Assertions.assertThat;

import com.rabbitmq.client.GetResponse;
import dev.onebeat.job.Jobs;
import dev.onebeat.job.OverlapPolicy;
import dev.onebeat.job.PeriodicJob;
import dev.onebeat.job.Schedule;
import dev.onebeat.job.TaskRequest;
import dev.onebeat.scheduler.OnebeatApplication;
import dev.onebeat.testsupport.PostgresExtension;
import dev.onebeat.testsupport.TestDatabase;
import dev.onebeat.transport.testing.RabbitTestBroker;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.context.TypeExcludeFilter;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.ApplicationListener;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.event.ContextClosedEvent;
import org.springframework.core.type.classreading.MetadataReader;
import org.springframework.core.type.classreading.MetadataReaderFactory;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * A replica shutting down while a fire runs publishes that fire's task before its context has
 * closed: Quartz takes no more fires, the running one is waited for, and the relay stops only after
 * its last round. The fire here blocks until the context starts closing, then commits a second
 * later. The application is started and closed by the test, as {@code java -jar} and SIGTERM would.
 */
@ExtendWith(PostgresExtension.class)
class RelayShutdownIT {

    private static final Duration COMMIT_AFTER_CLOSE = Duration.ofSeconds(1);

    @Test
    void fireRunningWhenTheContextClosesHasItsTaskPublishedBeforeTheContextHasClosed(TestDatabase database)
            throws Exception {
        try (RabbitTestBroker broker = new RabbitTestBroker()) {
            String queue = broker.newQueueName("shutdown");
            broker.declare(queue);
            FireAtShutdown fire = new FireAtShutdown(queue);
            ConfigurableApplicationContext context = start(database, queue, fire);
            try {
                assertThat(fire.firing.await(60, TimeUnit.SECONDS)).as("the fire began").isTrue();
                assertThat(broker.count(queue)).as("nothing published before its commit").isZero();
            } finally {
                context.close();
            }

            assertThat(fire.committed).as("the fire ran to its end").isTrue();
            List<GetResponse> messages = broker.drain(queue);
            assertThat(messages).as("the last fire's task, in the queue once the context has closed").hasSize(1);
            assertThat(messages.get(0).getProps().getMessageId()).startsWith("last-fire/");
            assertThat(new JdbcTemplate(database.dataSource()).queryForList(
                    "SELECT status, count(*) AS n FROM onebeat_task WHERE queue = ? GROUP BY status", queue))
                    .containsExactly(Map.of("status", "published", "n", 1L));
        }
    }

    private static ConfigurableApplicationContext start(TestDatabase database, String queue, FireAtShutdown fire) {
        return new SpringApplicationBuilder(OnebeatApplication.class)
                .listeners(fire)
                .initializers(context -> context.getBeanFactory().registerSingleton("lastFire", fire.job()))
                .initializers(context -> context.getBeanFactory()
                        .registerSingleton("otherTestsConfigurationsExcluded", new TestConfigurationsExcluded()))
                .run("--spring.datasource.url=" + database.jdbcUrl(),
                        "--spring.datasource.username=" + database.username(),
                        "--spring.datasource.password=" + database.password(),
                        "--spring.main.web-application-type=none", "--onebeat.demo.enabled=false",
                        "--onebeat.retention.enabled=false",
                        "--onebeat.relay.brokers.rabbit.type=rabbitmq",
                        "--onebeat.relay.brokers.rabbit.url=" + RabbitTestBroker.URL,
                        "--onebeat.relay.queues." + queue + ".transport=amqp",
                        "--onebeat.relay.queues." + queue + ".broker=rabbit");
    }

    /**
     * A job every second whose first fire dispatches one task, then holds its transaction open until
     * the context starts closing, and a second more; and the listener that tells it the context does.
     */
    static final class FireAtShutdown implements ApplicationListener<ContextClosedEvent> {

        private final String queue;
        private final AtomicBoolean first = new AtomicBoolean(true);
        final CountDownLatch firing = new CountDownLatch(1);
        private final CountDownLatch closing = new CountDownLatch(1);
        volatile boolean committed;

        FireAtShutdown(String queue) {
            this.queue = queue;
        }

        /** Published when {@code close()} begins, before any lifecycle stops. */
        @Override
        public void onApplicationEvent(ContextClosedEvent event) {
            closing.countDown();
        }

        PeriodicJob job() {
            return Jobs.periodic("last-fire", Schedule.every(Duration.ofSeconds(1))).overlapPolicy(OverlapPolicy.SKIP)
                    .execute(context -> {
                        if (!first.compareAndSet(true, false)) {
                            return;
                        }
                        context.dispatch(TaskRequest.builder("shutdown.last").queue(queue).build());
                        firing.countDown();
                        closing.await();
                        Thread.sleep(COMMIT_AFTER_CLOSE.toMillis());
                        committed = true;
                    });
        }
    }

    /**
     * What {@code @SpringBootTest} leaves out of its scan and a plain start does not: the
     * {@code @TestConfiguration} classes of other tests, whose jobs would fire here too.
     */
    private static final class TestConfigurationsExcluded extends TypeExcludeFilter {

        @Override
        public boolean match(MetadataReader reader, MetadataReaderFactory factory) {
            return reader.getAnnotationMetadata().hasAnnotation(TestConfiguration.class.getName());
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof TestConfigurationsExcluded;
        }

        @Override
        public int hashCode() {
            return TestConfigurationsExcluded.class.hashCode();
        }
    }
}
