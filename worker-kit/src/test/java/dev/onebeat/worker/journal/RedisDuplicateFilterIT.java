package dev.onebeat.worker.journal;

import dev.onebeat.worker.CountingMetrics;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.zaxxer.hikari.HikariDataSource;
import dev.onebeat.testsupport.PostgresExtension;
import dev.onebeat.testsupport.TestDatabase;
import dev.onebeat.worker.WorkerSchema;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.JedisClientConfig;
import redis.clients.jedis.JedisPooled;

@ExtendWith(PostgresExtension.class)
class RedisDuplicateFilterIT {

    private static final JedisClientConfig SHORT_TIMEOUTS = DefaultJedisClientConfig.builder()
            .connectionTimeoutMillis(500).socketTimeoutMillis(500).build();

    private static HikariDataSource dataSource;
    private static Effects effects;

    private final String prefix = "onebeat-test:" + UUID.randomUUID();
    private final JedisPooled redis = new JedisPooled(new HostAndPort("127.0.0.1", 6379), SHORT_TIMEOUTS);
    private final CountingMetrics metrics = new CountingMetrics();

    @BeforeAll
    static void migrate(TestDatabase database) throws Exception {
        dataSource = WorkerSchema.migrated(database);
        effects = new Effects(dataSource);
    }

    @AfterAll
    static void close() {
        dataSource.close();
    }

    @AfterEach
    void deleteKeys() {
        for (String key : redis.keys(prefix + ":*")) {
            redis.del(key);
        }
        redis.close();
    }

    @Test
    void duplicateKnownToRedisIsSkippedWithoutTheJournal() throws Exception {
        IdempotentConsumer consumer = consumer("mail", redis);
        assertThat(consumer.process("order-1", tx -> Effects.apply(tx, prefix + "order-1"))).isTrue();
        assertThat(redis.exists(prefix + ":mail:order-1")).isTrue();

        effects.forget("order-1");

        assertThat(consumer.process("order-1", tx -> Effects.apply(tx, prefix + "order-1"))).isFalse();
        assertThat(effects.count(prefix + "order-1")).isEqualTo(1);
        assertThat(effects.journalRows("order-1")).isZero();
        assertThat(metrics.duplicates).hasValue(1);
    }

    @Test
    void failedAttemptIsNotMarkedSoTheRedeliveryApplies() throws Exception {
        IdempotentConsumer consumer = consumer("bonus", redis);

        assertThatThrownBy(() -> consumer.process("order-2", tx -> {
            throw new IllegalStateException("ledger locked");
        })).hasMessage("ledger locked");
        assertThat(redis.exists(prefix + ":bonus:order-2")).isFalse();

        assertThat(consumer.process("order-2", tx -> Effects.apply(tx, prefix + "order-2"))).isTrue();
        assertThat(redis.exists(prefix + ":bonus:order-2")).isTrue();
    }

    @Test
    void redisStoppedStillAppliesEachKeyExactlyOnceThroughTheDatabase() throws Exception {
        try (OwnRedisServer server = OwnRedisServer.start();
             JedisPooled own = new JedisPooled(new HostAndPort("127.0.0.1", server.port()), SHORT_TIMEOUTS)) {
            IdempotentConsumer consumer = consumer("push", own);
            assertThat(consumer.process("order-3", tx -> Effects.apply(tx, prefix + "order-3"))).isTrue();

            server.kill();

            assertThat(consumer.process("order-3", tx -> Effects.apply(tx, prefix + "order-3"))).isFalse();
            assertThat(race(consumer, "order-4")).isEqualTo(1);
            assertThat(effects.count(prefix + "order-3")).isEqualTo(1);
            assertThat(effects.count(prefix + "order-4")).isEqualTo(1);
            assertThat(metrics.duplicates).hasValue(8);
        }
    }

    @Test
    void filterUsesRedisAgainOnceItAnswersAfterAnOutage() throws Exception {
        OwnRedisServer first = OwnRedisServer.start();
        try (JedisPooled own = new JedisPooled(new HostAndPort("127.0.0.1", first.port()), SHORT_TIMEOUTS)) {
            RedisDuplicateFilter filter = RedisDuplicateFilter.of(own, prefix, Duration.ofMinutes(5), Duration.ofMillis(200));
            IdempotentConsumer consumer = IdempotentConsumer.of(dataSource, "sms", metrics).withFilter(filter);
            first.kill();
            assertThat(consumer.process("order-5", tx -> Effects.apply(tx, prefix + "order-5"))).isTrue();

            try (OwnRedisServer second = OwnRedisServer.restart(first)) {
                await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(100)).ignoreExceptions()
                        .until(() -> {
                            filter.markProcessed("sms", "probe");
                            return own.exists(prefix + ":sms:probe");
                        });

                assertThat(consumer.process("order-6", tx -> Effects.apply(tx, prefix + "order-6"))).isTrue();
                assertThat(own.exists(prefix + ":sms:order-6")).isTrue();
                assertThat(own.exists(prefix + ":sms:order-5")).isFalse();
            }
        }
    }

    private IdempotentConsumer consumer(String name, JedisPooled client) {
        return IdempotentConsumer.of(dataSource, name, metrics)
                .withFilter(RedisDuplicateFilter.of(client, prefix, Duration.ofMinutes(5)));
    }

    private int race(IdempotentConsumer consumer, String key) throws Exception {
        CountDownLatch start = new CountDownLatch(1);
        ExecutorService threads = Executors.newFixedThreadPool(8);
        List<Future<Boolean>> results = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            results.add(threads.submit(() -> {
                start.await();
                return consumer.process(key, tx -> Effects.apply(tx, prefix + key));
            }));
        }
        start.countDown();
        int applied = 0;
        for (Future<Boolean> result : results) {
            applied += result.get() ? 1 : 0;
        }
        threads.shutdown();
        return applied;
    }
}
