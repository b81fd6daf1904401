package dev.onebeat.transport.internal.redis;

import dev.onebeat.transport.BrokerSettings;
import dev.onebeat.transport.Delivery;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import org.apache.commons.pool2.impl.GenericObjectPoolConfig;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisPool;
import redis.clients.jedis.Pipeline;
import redis.clients.jedis.Response;
import redis.clients.jedis.commands.ProtocolCommand;
import redis.clients.jedis.exceptions.JedisDataException;

/**
 * The relay's connection pool to one Redis, shared by the queues routed to it. A batch is sent as one
 * pipeline on one connection: each task's commands (a {@code MULTI … EXEC} block, a script, a push)
 * in order. Redis answers every command once it has applied it, so a task whose replies hold no error
 * is published; one with an error reply is refused; a connection failure fails the whole batch.
 */
public final class RedisClient implements AutoCloseable {

    /** Error codes of a Redis that will take the command later; others are refusals for good. */
    static final Set<String> PASSING_ERRORS = Set.of("READONLY", "LOADING", "OOM", "BUSY", "MASTERDOWN", "TRYAGAIN",
            "CLUSTERDOWN", "NOREPLICAS");

    private final JedisPool pool;

    private RedisClient(JedisPool pool) {
        this.pool = pool;
    }

    /**
     * @param broker a {@code redis} broker: {@code url} such as {@code redis://:password@host:6379/0}
     * @return a client; connections are made on first use
     * @throws IllegalArgumentException if the URL is malformed
     */
    public static RedisClient open(BrokerSettings broker) {
        URI uri;
        try {
            uri = new URI(broker.url());
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("onebeat.relay.brokers." + broker.name() + ".url: not a Redis URI: "
                    + broker.safeUrl(), e);
        }
        if (!"redis".equals(uri.getScheme()) && !"rediss".equals(uri.getScheme())) {
            throw new IllegalArgumentException("onebeat.relay.brokers." + broker.name()
                    + ".url: must start with redis:// or rediss://, was " + broker.safeUrl());
        }
        GenericObjectPoolConfig<Jedis> config = new GenericObjectPoolConfig<>();
        config.setMaxTotal(4);
        config.setTestOnBorrow(true);
        return new RedisClient(new JedisPool(config, uri, 5_000));
    }

    /**
     * Sends each task's commands, in one pipeline.
     *
     * @param tasks the tasks of the batch
     * @param commands a task's commands, in order
     * @return one outcome per task
     * @throws redis.clients.jedis.exceptions.JedisConnectionException if Redis cannot be reached
     */
    public <T> List<Delivery> execute(List<T> tasks, Function<T, List<RedisCommand>> commands) {
        try (Jedis jedis = pool.getResource()) {
            Pipeline pipeline = jedis.pipelined();
            List<List<Response<Object>>> responses = new ArrayList<>(tasks.size());
            for (T task : tasks) {
                List<Response<Object>> replies = new ArrayList<>();
                for (RedisCommand command : commands.apply(task)) {
                    List<byte[]> arguments = command.arguments();
                    byte[] name = arguments.get(0);
                    ProtocolCommand protocolCommand = () -> name;
                    replies.add(pipeline.sendCommand(protocolCommand,
                            arguments.subList(1, arguments.size()).toArray(new byte[0][])));
                }
                responses.add(replies);
            }
            pipeline.sync();
            List<Delivery> outcomes = new ArrayList<>(tasks.size());
            for (List<Response<Object>> replies : responses) {
                outcomes.add(outcome(replies));
            }
            return outcomes;
        }
    }

    private static Delivery outcome(List<Response<Object>> replies) {
        for (Response<Object> reply : replies) {
            try {
                Object value = reply.get();
                if (value instanceof List<?> execReplies) {
                    for (Object inner : execReplies) {
                        if (inner instanceof JedisDataException error) {
                            return refusal(error);
                        }
                    }
                }
            } catch (JedisDataException e) {
                return refusal(e);
            }
        }
        return Delivery.published();
    }

    /**
     * An error reply is final (a key of the wrong type, a script error) unless Redis says it cannot take
     * writes for now: a replica during failover, a server loading its data, out of memory, a busy script.
     */
    static Delivery refusal(JedisDataException error) {
        String message = error.getMessage() == null ? "" : error.getMessage();
        String code = message.contains(" ") ? message.substring(0, message.indexOf(' ')) : message;
        if (PASSING_ERRORS.contains(code)) {
            return Delivery.retry("Redis cannot take it now: " + message);
        }
        return Delivery.refused("Redis refused a command: " + message);
    }

    @Override
    public void close() {
        pool.close();
    }
}
