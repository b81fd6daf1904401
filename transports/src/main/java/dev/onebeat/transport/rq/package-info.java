/**
 * RQ jobs as a publisher writes them to Redis: the job hash, its queue list and the commands that
 * enqueue it, for RQ 1.13 (Debian 12) and 2.x workers.
 */
package dev.onebeat.transport.rq;
