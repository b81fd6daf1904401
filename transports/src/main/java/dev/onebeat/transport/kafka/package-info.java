/**
 * Kafka: tasks as JSON records on a topic, published by an idempotent producer with {@code acks=all}
 * and keyed by business entity so one entity's tasks keep their order.
 */
package dev.onebeat.transport.kafka;
