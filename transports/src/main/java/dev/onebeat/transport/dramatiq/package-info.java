/**
 * Dramatiq messages as a publisher sends them over RabbitMQ and Redis (Dramatiq 2.x; the fields have
 * not changed since 2017): the JSON body, the queues RabbitMQ must declare identically and the Redis
 * commands of the enqueue.
 */
package dev.onebeat.transport.dramatiq;
