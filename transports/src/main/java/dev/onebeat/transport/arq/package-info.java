/**
 * arq jobs as a publisher writes them to Redis (arq 0.26): a pickled job under {@code arq:job:<id>}
 * and the id in the queue's sorted set, skipped when the job or its result already exists.
 */
package dev.onebeat.transport.arq;
