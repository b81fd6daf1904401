/** Read-only REST API: jobs, their fires, and the cluster. Errors are RFC 9457 problem details. */
package dev.onebeat.scheduler.api;
