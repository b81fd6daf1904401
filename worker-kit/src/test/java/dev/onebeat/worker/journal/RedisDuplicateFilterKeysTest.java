package dev.onebeat.worker.journal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.JedisPooled;

class RedisDuplicateFilterKeysTest {

    /** Shared with the Python package's tests (python/tests/consumer/test_consumer_redis_filter.py). */
    private static final String GOLDEN = "redis-filter-keys.tsv";

    private final JedisPooled unused = new JedisPooled("127.0.0.1", 6379); // connects only when asked

    @AfterEach
    void close() {
        unused.close();
    }

    @Test
    void consumerAndKeyThatShareTheirJoinedTextGetDifferentRedisKeys() {
        RedisDuplicateFilter filter = filter("onebeat:processed");

        assertThat(filter.redisKey("shop:eu", "orders")).isNotEqualTo(filter.redisKey("shop", "eu:orders"));
        assertThat(filter.redisKey("shop:eu", "orders")).isEqualTo("onebeat:processed:shop%3Aeu:orders");
        assertThat(filter.redisKey("shop", "eu:orders")).isEqualTo("onebeat:processed:shop:eu%3Aorders");
    }

    @Test
    void prefixThatEndsWithAnotherPrefixsConsumerGetsADifferentRedisKey() {
        assertThat(filter("onebeat:processed:eu").redisKey("shop", "orders"))
                .isNotEqualTo(filter("onebeat:processed").redisKey("eu", "shop:orders"));
    }

    @Test
    void escapedTextInAKeyIsNotReadAsTheCharacterItEscapes() {
        RedisDuplicateFilter filter = filter("onebeat:processed");

        assertThat(filter.redisKey("shop", "a%3Ab")).isNotEqualTo(filter.redisKey("shop", "a:b"));
    }

    @Test
    void redisKeysAreTheGoldenOnesThePythonPackageWritesToo() throws IOException {
        List<String[]> cases = golden();

        assertThat(cases).hasSizeGreaterThanOrEqualTo(10);
        for (String[] row : cases) {
            assertThat(filter(row[0]).redisKey(row[1], row[2])).as("prefix=%s consumer=%s key=%s", row[0], row[1], row[2])
                    .isEqualTo(row[3]);
        }
    }

    private RedisDuplicateFilter filter(String prefix) {
        return RedisDuplicateFilter.of(unused, prefix, Duration.ofMinutes(1));
    }

    private static List<String[]> golden() throws IOException {
        try (InputStream in = RedisDuplicateFilterKeysTest.class.getResourceAsStream(GOLDEN)) {
            assertThat(in).as(GOLDEN).isNotNull();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines()
                    .filter(line -> !line.isBlank() && !line.startsWith("#"))
                    .map(line -> line.split("\t", -1))
                    .peek(fields -> assertThat(fields).as("a golden line").hasSize(4))
                    .toList();
        }
    }
}
