package dev.onebeat.transport.internal.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onebeat.transport.Delivery;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.exceptions.JedisDataException;

class RedisClientTest {

    @Test
    void anErrorOfARedisThatCannotWriteNowIsRetriedAnyOtherIsARefusal() {
        assertThat(RedisClient.refusal(new JedisDataException("READONLY You can't write against a read only replica."))
                .status()).isEqualTo(Delivery.Status.RETRY);
        assertThat(RedisClient.refusal(new JedisDataException("LOADING Redis is loading the dataset in memory")).status())
                .isEqualTo(Delivery.Status.RETRY);
        assertThat(RedisClient.refusal(new JedisDataException("OOM command not allowed when used memory > 'maxmemory'."))
                .status()).isEqualTo(Delivery.Status.RETRY);
        Delivery wrongType = RedisClient.refusal(new JedisDataException(
                "WRONGTYPE Operation against a key holding the wrong kind of value"));
        assertThat(wrongType.status()).isEqualTo(Delivery.Status.REFUSED);
        assertThat(wrongType.error()).isEqualTo("Redis refused a command: WRONGTYPE Operation against a key holding "
                + "the wrong kind of value");
    }
}
