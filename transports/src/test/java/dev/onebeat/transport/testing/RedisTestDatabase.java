package dev.onebeat.transport.testing;

import java.net.URI;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.params.ScanParams;
import redis.clients.jedis.resps.ScanResult;

/**
 * The local Redis database the interop tests publish to ({@code ONEBEAT_TEST_REDIS_URL}, default
 * {@code redis://127.0.0.1:6379/13}). The database may be shared, so it is never flushed: tests name
 * their queues (and anything else that lands in a key) with {@link #newName}, register other key parts
 * such as job ids with {@link #track}, and {@link #close()} removes exactly what carries one of those
 * names: keys, and members of shared sets, sorted sets and hashes (the workers' registries, kombu's
 * {@code unacked} entries and their {@code unacked_index}).
 */
public final class RedisTestDatabase implements AutoCloseable {

    /** The database's URL, with its index. */
    public static final String URL = System.getenv().getOrDefault("ONEBEAT_TEST_REDIS_URL", "redis://127.0.0.1:6379/13");

    private final Jedis jedis;
    private final Set<String> tokens = ConcurrentHashMap.newKeySet();

    public RedisTestDatabase() {
        try {
            jedis = new Jedis(URI.create(URL), 10_000);
            jedis.ping();
        } catch (RuntimeException e) {
            throw new IllegalStateException("Redis is not reachable at " + URL
                    + " (start it: redis-server --daemonize yes): " + e, e);
        }
    }

    /** @return a fresh name, removed with everything carrying it on {@link #close()} */
    public String newName(String purpose) {
        String name = "onebeat-test-" + purpose + "-" + UUID.randomUUID().toString().substring(0, 8);
        tokens.add(name);
        return name;
    }

    /** Marks anything carrying {@code token} (a job id, say) as this test's, to remove on {@link #close()}. */
    public void track(String token) {
        tokens.add(token);
    }

    /** @return the connection, for assertions; not thread-safe */
    public Jedis jedis() {
        return jedis;
    }

    @Override
    public void close() {
        try {
            Set<String> removedHashFields = new HashSet<>();
            List<String> sortedSets = new ArrayList<>();
            for (String key : allKeys()) {
                if (ours(key)) {
                    jedis.del(key);
                    continue;
                }
                switch (jedis.type(key)) {
                    case "set" -> jedis.smembers(key).stream().filter(this::ours).forEach(m -> jedis.srem(key, m));
                    case "zset" -> {
                        sortedSets.add(key);
                        jedis.zrange(key, 0, -1).stream().filter(this::ours).forEach(m -> jedis.zrem(key, m));
                    }
                    case "hash" -> {
                        for (Map.Entry<String, String> field : jedis.hgetAll(key).entrySet()) {
                            if (ours(field.getKey()) || ours(field.getValue())) {
                                jedis.hdel(key, field.getKey());
                                removedHashFields.add(field.getKey());
                            }
                        }
                    }
                    default -> {
                    }
                }
            }
            // kombu indexes its unacked hash by delivery tag in a sorted set: the tags carry no name
            for (String key : sortedSets) {
                removedHashFields.forEach(field -> jedis.zrem(key, field));
            }
        } finally {
            jedis.close();
        }
    }

    private List<String> allKeys() {
        List<String> keys = new ArrayList<>();
        String cursor = ScanParams.SCAN_POINTER_START;
        do {
            ScanResult<String> page = jedis.scan(cursor, new ScanParams().count(1000));
            keys.addAll(page.getResult());
            cursor = page.getCursor();
        } while (!ScanParams.SCAN_POINTER_START.equals(cursor));
        return keys;
    }

    private boolean ours(String text) {
        return text != null && tokens.stream().anyMatch(text::contains);
    }
}
