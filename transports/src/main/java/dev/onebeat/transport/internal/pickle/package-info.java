/**
 * The subset of Python's pickle (protocol 2, no memo) that RQ and arq workers load: JSON-like
 * values only, so nothing a worker unpickles can name a class or call a function. Not an API: see
 * {@link dev.onebeat.transport.internal}.
 */
package dev.onebeat.transport.internal.pickle;
