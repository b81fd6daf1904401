package dev.onebeat.transport.contract;

import dev.onebeat.transport.BrokerSettings;
import dev.onebeat.transport.BrokerType;
import dev.onebeat.transport.testing.PrivateRedis;
import dev.onebeat.transport.testing.SharedBrokers;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import redis.clients.jedis.Jedis;

/**
 * The contract on a Redis server of the test JVM's own (every write fsynced), which the restart test
 * kills ({@code kill -9}) and starts again.
 */
abstract class RedisContract extends TransportContract {

    private PrivateRedis redis;

    @BeforeEach
    void connect() throws Exception {
        redis = SharedBrokers.redis();
    }

    @AfterEach
    void removeKeys() {
        // the server is this JVM's alone and tests run one at a time
        try (Jedis jedis = redis.connect()) {
            jedis.flushAll();
        }
    }

    @Override
    protected BrokerSettings broker() {
        return new BrokerSettings("contract-redis", BrokerType.REDIS, redis.url(), Map.of());
    }

    @Override
    protected String newQueue(String purpose) {
        return "contract-" + purpose + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    @Override
    protected void stopBroker() throws Exception {
        redis.killServer();
    }

    @Override
    protected void startBroker() throws Exception {
        redis.startServer();
    }

    /** @return a new connection to the server; the caller closes it */
    protected Jedis jedis() {
        return redis.connect();
    }
}
