package dev.onebeat.job;

import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A task a job asks onebeat to enqueue. onebeat writes it to the outbox in the fire's transaction
 * under the key {@code K(job, scheduled instant, task, entity)}, and a relay hands it to its queue's
 * transport after the fire commits.
 *
 * <p>Arguments must be JSON values: {@code null}, strings, numbers, booleans, and lists and maps
 * of those. They are checked when the task is dispatched.
 *
 * @param task the task name the worker knows, such as {@code billing.tasks.send_reminder}; not blank
 * @param queue the queue to deliver to; not blank
 * @param entity the business entity the task is about, or {@code null} for a task that is not about
 *     one (then the fire may dispatch that task only once)
 * @param args positional arguments, never {@code null}
 * @param kwargs keyword arguments, never {@code null}
 * @param notBefore the task is not handed to its transport before this instant, or {@code null}
 * @param delivery how it is delivered where the transport has a place for it (expiry, priority,
 *     exchange, routing key, headers); {@link DeliveryOptions#NONE} for the queue route's settings
 */
public record TaskRequest(String task, String queue, Entity entity, List<Object> args,
                          Map<String, Object> kwargs, Instant notBefore, DeliveryOptions delivery) {

    /** Queue used when none is given. */
    public static final String DEFAULT_QUEUE = "default";
    /** Longest task or queue name, in characters (the outbox's columns). */
    public static final int MAX_NAME_LENGTH = 255;

    /** Validates the task and queue names and copies the arguments. */
    public TaskRequest {
        if (task == null || task.isBlank()) {
            throw new IllegalArgumentException("task must not be blank, was '" + task + "'");
        }
        if (queue == null || queue.isBlank()) {
            throw new IllegalArgumentException("queue must not be blank, was '" + queue + "'");
        }
        if (task.length() > MAX_NAME_LENGTH || queue.length() > MAX_NAME_LENGTH) {
            String field = task.length() > MAX_NAME_LENGTH ? "task" : "queue";
            String value = task.length() > MAX_NAME_LENGTH ? task : queue;
            throw new IllegalArgumentException(field + " must have at most " + MAX_NAME_LENGTH + " characters, had "
                    + value.length() + " ('" + value.substring(0, 40) + "…')");
        }
        if (task.indexOf('\u0000') >= 0 || queue.indexOf('\u0000') >= 0) {
            throw new IllegalArgumentException((task.indexOf('\u0000') >= 0 ? "task" : "queue")
                    + " must not hold a NUL character (\\u0000), which PostgreSQL cannot store");
        }
        args = args == null ? List.of() : Collections.unmodifiableList(new java.util.ArrayList<>(args));
        kwargs = kwargs == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(kwargs));
        delivery = delivery == null ? DeliveryOptions.NONE : delivery;
    }

    /** A task delivered as its queue route says. */
    public TaskRequest(String task, String queue, Entity entity, List<Object> args, Map<String, Object> kwargs,
                       Instant notBefore) {
        this(task, queue, entity, args, kwargs, notBefore, DeliveryOptions.NONE);
    }

    /**
     * @param task the task name
     * @param queue the queue
     * @return a task with no entity and no arguments
     */
    public static TaskRequest of(String task, String queue) {
        return new TaskRequest(task, queue, null, List.of(), Map.of(), null);
    }

    /**
     * @param task the task name
     * @return a builder for the optional parts, with queue {@value #DEFAULT_QUEUE}
     */
    public static Builder builder(String task) {
        return new Builder(task);
    }

    /** Collects a task's optional parts; each call returns this builder. */
    public static final class Builder {
        private final String task;
        private String queue = DEFAULT_QUEUE;
        private Entity entity;
        private List<Object> args = List.of();
        private Map<String, Object> kwargs = Map.of();
        private Instant notBefore;
        private DeliveryOptions delivery = DeliveryOptions.NONE;

        private Builder(String task) {
            this.task = task;
        }

        /**
         * @param queue the queue
         * @return this builder
         */
        public Builder queue(String queue) {
            this.queue = queue;
            return this;
        }

        /**
         * @param entity the business entity
         * @return this builder
         */
        public Builder entity(Entity entity) {
            this.entity = entity;
            return this;
        }

        /**
         * @param type entity type
         * @param id entity id
         * @return this builder
         */
        public Builder entity(String type, Object id) {
            return entity(Entity.of(type, id));
        }

        /**
         * @param args positional arguments (JSON values)
         * @return this builder
         */
        public Builder args(Object... args) {
            this.args = java.util.Arrays.asList(args.clone());
            return this;
        }

        /**
         * @param args positional arguments (JSON values)
         * @return this builder
         */
        public Builder args(List<?> args) {
            this.args = new java.util.ArrayList<>(Objects.requireNonNull(args, "args must not be null"));
            return this;
        }

        /**
         * @param kwargs keyword arguments (JSON values)
         * @return this builder
         */
        public Builder kwargs(Map<String, ?> kwargs) {
            this.kwargs = new LinkedHashMap<>(Objects.requireNonNull(kwargs, "kwargs must not be null"));
            return this;
        }

        /**
         * @param notBefore earliest instant to hand the task over
         * @return this builder
         */
        public Builder notBefore(Instant notBefore) {
            this.notBefore = notBefore;
            return this;
        }

        /**
         * @param delivery expiry, priority, exchange, routing key and headers of this task
         * @return this builder
         */
        public Builder delivery(DeliveryOptions delivery) {
            this.delivery = Objects.requireNonNull(delivery, "delivery must not be null");
            return this;
        }

        /**
         * @param expires how long after the scheduled instant the task is still worth running
         * @return this builder
         */
        public Builder expires(Duration expires) {
            return delivery(new DeliveryOptions(expires, delivery.priority(), delivery.exchange(),
                    delivery.routingKey(), delivery.headers()));
        }

        /**
         * @param priority 0 to 255
         * @return this builder
         */
        public Builder priority(int priority) {
            return delivery(new DeliveryOptions(delivery.expires(), priority, delivery.exchange(),
                    delivery.routingKey(), delivery.headers()));
        }

        /** @return the task request */
        public TaskRequest build() {
            return new TaskRequest(task, queue, entity, args, kwargs, notBefore, delivery);
        }
    }
}
