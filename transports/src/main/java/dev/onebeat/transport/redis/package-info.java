/**
 * Redis commands as plain values, so the Python-format encoders say what to run without holding a
 * connection, and any client can run them.
 */
package dev.onebeat.transport.redis;
