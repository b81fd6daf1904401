package dev.onebeat.scheduler.operate.alert;

import dev.onebeat.job.AlertPolicy;
import dev.onebeat.job.Entity;
import dev.onebeat.job.IdempotencyKey;
import dev.onebeat.scheduler.operate.monitor.JobEventSink;
import dev.onebeat.scheduler.operate.monitor.MonitorTable.Event;
import dev.onebeat.scheduler.engine.outbox.OutboxTask;
import dev.onebeat.scheduler.engine.outbox.OutboxWriter;
import dev.onebeat.scheduler.engine.registry.JobRegistry;
import dev.onebeat.scheduler.engine.registry.RegisteredJob;
import dev.onebeat.transport.TaskPayload;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.springframework.stereotype.Component;
import tools.jackson.databind.json.JsonMapper;

/**
 * Writes the deliveries of a check's findings into the outbox, in the check's transaction: one webhook alert per
 * event the job's policy alerts on, and one check-in per judged instant to each monitor the job names (a
 * Healthchecks-style ping: the URL for a success, {@code <url>/fail} for a failed or missed instant; Sentry Crons:
 * {@code ?status=ok}, {@code error} or {@code missed}). Each delivery's key is derived from its job, instant, kind
 * and channel ({@code <job>/<instant>/onebeat.alert.webhook/event:missed}), so it is written once, and the relay's
 * retries of it carry the same {@code Idempotency-Key}.
 */
@Component
class AlertDeliveries implements JobEventSink {

    private final OutboxWriter outbox;
    private final JobRegistry registry;
    private final AlertProperties properties;
    private final SentryDsn sentry;
    private final JsonMapper json = JsonMapper.builder().build();

    AlertDeliveries(OutboxWriter outbox, JobRegistry registry, AlertProperties properties) {
        this.outbox = outbox;
        this.registry = registry;
        this.properties = properties;
        this.sentry = properties.sentry().configured() ? SentryDsn.parse(properties.sentry().dsn()) : null;
    }

    @Override
    public void record(List<Event> events, List<Judged> judged) {
        if (!properties.enabled()) {
            return;
        }
        Map<Instant, List<String>> jobs = new TreeMap<>();
        Map<Instant, List<OutboxTask>> tasks = new TreeMap<>();
        if (properties.webhook().configured()) {
            for (Event event : events) {
                if (event.alerted()) {
                    add(jobs, tasks, event.job(), event.instant(), webhook(event));
                }
            }
        }
        for (Judged instant : judged) {
            AlertPolicy policy = registry.find(instant.job()).map(RegisteredJob::job).map(job -> job.alerts())
                    .orElse(AlertPolicy.DEFAULT);
            if (policy.healthchecksUrl() != null) {
                add(jobs, tasks, instant.job(), instant.instant(), healthchecks(instant, policy.healthchecksUrl()));
            }
            if (policy.sentryMonitor() != null && sentry != null) {
                add(jobs, tasks, instant.job(), instant.instant(), sentry(instant, policy.sentryMonitor()));
            }
        }
        tasks.forEach((at, batch) -> outbox.insertAll(at, jobs.get(at), batch));
    }

    private static void add(Map<Instant, List<String>> jobs, Map<Instant, List<OutboxTask>> tasks, String job,
                            Instant at, OutboxTask task) {
        jobs.computeIfAbsent(at, key -> new ArrayList<>()).add(job);
        tasks.computeIfAbsent(at, key -> new ArrayList<>()).add(task);
    }

    private OutboxTask webhook(Event event) {
        Map<String, Object> body = new LinkedHashMap<>();
        IdempotencyKey key = key(event.job(), event.instant(), AlertChannel.WEBHOOK, event.kind());
        body.put("job", event.job());
        body.put("instant", event.instant().toString());
        body.put("kind", event.kind());
        body.put("reason", event.reason());
        body.put("link", link(event.job()));
        body.put("detectedAt", event.detectedAt().toString());
        body.put("node", event.node());
        body.put("idempotencyKey", key.value());
        return task(key, AlertChannel.WEBHOOK, "POST", properties.webhook().url().trim(), body, true);
    }

    private OutboxTask healthchecks(Judged instant, String url) {
        String target = url.replaceAll("/+$", "") + (instant.outcome().equals("success") ? "" : "/fail");
        String body = instant.job() + " " + instant.instant() + ": " + instant.outcome()
                + (instant.reason() == null ? "" : " (" + instant.reason() + ")");
        // a job defined in code or configuration has its URL from the operator; a runtime job's came through the API
        boolean trusted = registry.defined(instant.job()).isPresent();
        return task(key(instant.job(), instant.instant(), AlertChannel.HEALTHCHECKS, instant.outcome()),
                AlertChannel.HEALTHCHECKS, "POST", target, body, trusted);
    }

    private OutboxTask sentry(Judged instant, String monitor) {
        String status = switch (instant.outcome()) {
            case "success" -> "ok";
            case "failed" -> "error";
            default -> "missed";
        };
        String environment = properties.sentry().environment();
        String target = sentry.checkIn(monitor) + "?status=" + status + (environment == null || environment.isBlank()
                ? "" : "&environment=" + URLEncoder.encode(environment, StandardCharsets.UTF_8));
        return task(key(instant.job(), instant.instant(), AlertChannel.SENTRY, instant.outcome()), AlertChannel.SENTRY,
                "GET", target, null, true);
    }

    /** @param trusted whether the URL is the operator's (configuration), not an API user's: only those are not checked */
    private OutboxTask task(IdempotencyKey key, AlertChannel channel, String method, String url, Object body,
                            boolean trusted) {
        Map<String, Object> request = new LinkedHashMap<>();
        request.put("channel", channel.text());
        request.put("method", method);
        request.put("url", url);
        request.put("body", body);
        request.put("trusted", trusted);
        TaskPayload payload = TaskPayload.of("[]", json.writeValueAsString(request));
        return new OutboxTask(key, AlertChannel.TASK_PREFIX + channel.text(), AlertRoutes.QUEUE, null, payload, null);
    }

    private static IdempotencyKey key(String job, Instant instant, AlertChannel channel, String kind) {
        return IdempotencyKey.of(job, instant, AlertChannel.TASK_PREFIX + channel.text(), Entity.of("event", kind));
    }

    private String link(String job) {
        String path = "/ui/jobs/" + URLEncoder.encode(job, StandardCharsets.UTF_8).replace("+", "%20");
        String base = properties.consoleUrl();
        return base == null || base.isBlank() ? path : base.trim().replaceAll("/+$", "") + path;
    }
}
