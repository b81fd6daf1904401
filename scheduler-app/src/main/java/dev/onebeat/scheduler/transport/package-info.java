/**
 * Transports: how a committed outbox task is handed to a broker in the format its workers consume.
 * Encoders here are pure; connecting and publishing belong to the relay.
 */
package dev.onebeat.scheduler.transport;
