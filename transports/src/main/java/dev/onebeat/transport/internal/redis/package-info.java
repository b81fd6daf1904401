/**
 * Redis commands as plain values, so the Python-format encoders say what to run without holding a
 * connection, and any client can run them. Not an API: see {@link dev.onebeat.transport.internal}.
 */
package dev.onebeat.transport.internal.redis;
