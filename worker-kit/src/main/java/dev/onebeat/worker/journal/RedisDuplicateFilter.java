package dev.onebeat.worker.journal;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.params.SetParams;

/**
 * A {@link DuplicateFilter} on Redis: a processed key is {@code <prefix>:<consumer>:<key>} set to
 * {@code 1} with a time to live. Keys older than the TTL simply fall through to the journal.
 *
 * <p>Inside the consumer and the key, {@code %} is written {@code %25} and {@code :} is written
 * {@code %3A}, so the last two {@code :}-separated fields of a Redis key are always the consumer and
 * the key, and two different (prefix, consumer, key) never share one: {@code shop:eu} + {@code orders}
 * is {@code <prefix>:shop%3Aeu:orders}, {@code shop} + {@code eu:orders} is
 * {@code <prefix>:shop:eu%3Aorders}. A false "seen" would skip work, so the mark of one consumer's key
 * must never answer for another's. The Python package ({@code onebeat.RedisDuplicateFilter}) writes the
 * same keys.
 *
 * <p>Any Redis failure (down, timeout, pool exhausted) makes the filter answer "not seen" and skip
 * the mark, so processing goes on through the database. After a failure the filter leaves Redis
 * alone for a pause (five seconds by default), so a Redis that hangs does not add a timeout to every
 * delivery; the first call after the pause tries again. The failure is logged at WARN once per
 * outage, and at INFO when Redis answers again. Needs Jedis on the class path; nothing else in the
 * kit does.
 */
public final class RedisDuplicateFilter implements DuplicateFilter {

    private static final Logger log = LoggerFactory.getLogger(RedisDuplicateFilter.class);

    /** How long Redis is left alone after a failure unless told otherwise. */
    public static final Duration DEFAULT_PAUSE = Duration.ofSeconds(5);

    private final UnifiedJedis redis;
    private final String prefix;
    private final long ttlSeconds;
    private final Duration pause;
    private final Clock clock;
    private final AtomicBoolean unavailable = new AtomicBoolean();
    private volatile Instant retryAt = Instant.MIN;

    private RedisDuplicateFilter(UnifiedJedis redis, String prefix, long ttlSeconds, Duration pause, Clock clock) {
        this.redis = redis;
        this.prefix = prefix;
        this.ttlSeconds = ttlSeconds;
        this.pause = pause;
        this.clock = clock;
    }

    /**
     * @param redis a client, for example a {@code JedisPooled}; give it short timeouts, since every
     *     delivery waits on it before the database
     * @param prefix start of every key, for example {@code onebeat:processed}
     * @param ttl how long a processed key is remembered; at least one second, whole seconds
     * @return the filter
     */
    public static RedisDuplicateFilter of(UnifiedJedis redis, String prefix, Duration ttl) {
        return of(redis, prefix, ttl, DEFAULT_PAUSE);
    }

    /**
     * @param pause how long Redis is left alone after a failure; zero tries it on every call
     * @return the filter
     * @see #of(UnifiedJedis, String, Duration)
     */
    public static RedisDuplicateFilter of(UnifiedJedis redis, String prefix, Duration ttl, Duration pause) {
        return of(redis, prefix, ttl, pause, Clock.systemUTC());
    }

    static RedisDuplicateFilter of(UnifiedJedis redis, String prefix, Duration ttl, Duration pause, Clock clock) {
        Objects.requireNonNull(redis, "redis must not be null");
        Objects.requireNonNull(prefix, "prefix must not be null");
        Objects.requireNonNull(ttl, "ttl must not be null");
        if (prefix.isBlank()) {
            throw new IllegalArgumentException("prefix must not be blank, was '" + prefix + "'");
        }
        if (ttl.getSeconds() < 1) {
            throw new IllegalArgumentException("ttl must be at least one second, was " + ttl);
        }
        Objects.requireNonNull(pause, "pause must not be null");
        Objects.requireNonNull(clock, "clock must not be null");
        if (pause.isNegative()) {
            throw new IllegalArgumentException("pause must not be negative, was " + pause);
        }
        return new RedisDuplicateFilter(redis, prefix, ttl.getSeconds(), pause, clock);
    }

    @Override
    public boolean seen(String consumer, String key) {
        if (paused()) {
            return false;
        }
        try {
            boolean seen = redis.exists(redisKey(consumer, key));
            available();
            return seen;
        } catch (RuntimeException e) { // any failure of the hint leaves the decision to the journal
            failed(e);
            return false;
        }
    }

    @Override
    public void markProcessed(String consumer, String key) {
        if (paused()) {
            return;
        }
        try {
            redis.set(redisKey(consumer, key), "1", SetParams.setParams().nx().ex(ttlSeconds));
            available();
        } catch (RuntimeException e) {
            failed(e);
        }
    }

    String redisKey(String consumer, String key) {
        return prefix + ":" + escape(consumer) + ":" + escape(key);
    }

    private static String escape(String part) {
        return part.replace("%", "%25").replace(":", "%3A");
    }

    private boolean paused() {
        return clock.instant().isBefore(retryAt);
    }

    private void available() {
        if (unavailable.compareAndSet(true, false)) {
            log.info("Redis duplicate filter available again prefix={}", prefix);
        }
    }

    private void failed(RuntimeException e) {
        retryAt = clock.instant().plus(pause);
        if (unavailable.compareAndSet(false, true)) {
            log.warn("Redis duplicate filter unavailable, every delivery goes to the database journal "
                    + "until it answers again prefix={} retryEvery={} error={}", prefix, pause, e.toString());
        }
    }
}
