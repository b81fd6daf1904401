package dev.onebeat.scheduler.operate.admin;

import java.time.Instant;
import tools.jackson.databind.JsonNode;

/**
 * One audited change.
 *
 * @param id increasing with time of insertion
 * @param at when the change's transaction wrote it (database time)
 * @param actor user name, or {@code system}
 * @param action what was done ({@code job.pause}, {@code task.retry}, ...)
 * @param targetType {@code job} or {@code task}
 * @param target the job's name or the task's id
 * @param before the state before, null when the change created something
 * @param after the state after
 * @param requestId the client's request id, where the action has one
 * @param namespace the namespace of the job it is about, null for the cluster's own objects (calendars)
 */
public record AuditEntry(long id, Instant at, String actor, String action, String targetType, String target,
                         JsonNode before, JsonNode after, String requestId, String namespace) {
}
