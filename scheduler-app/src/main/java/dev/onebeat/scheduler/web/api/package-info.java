/**
 * REST API: jobs, their fires, the cluster, and the operator actions of {@code admin}. Errors are
 * RFC 9457 problem details.
 */
package dev.onebeat.scheduler.web.api;
