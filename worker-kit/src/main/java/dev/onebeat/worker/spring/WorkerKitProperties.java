package dev.onebeat.worker.spring;

import java.time.Duration;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Settings of the auto-configured worker kit ({@code onebeat.worker.*}). The queue worker starts
 * when {@code queues} is set; the effect sender when at least one {@link EffectChannel} bean exists.
 *
 * @param consumer journal consumer name of the queue worker
 * @param queues queues the worker claims from; none: no queue worker
 * @param concurrency handler threads
 * @param batchSize tasks per claim
 * @param tasksPerTransaction tasks a thread runs in one transaction
 * @param lease how long a claim lasts without a heartbeat
 * @param maxAttempts attempts before a task is dead
 * @param journal whether task keys also go to the processed-key journal
 */
@ConfigurationProperties("onebeat.worker")
public record WorkerKitProperties(@DefaultValue("worker") String consumer, @DefaultValue List<String> queues,
                                  @DefaultValue("4") int concurrency, @DefaultValue("10") int batchSize,
                                  @DefaultValue("1") int tasksPerTransaction, @DefaultValue("30s") Duration lease,
                                  @DefaultValue("10") int maxAttempts, @DefaultValue("true") boolean journal) {
}
