package dev.onebeat.worker.spring;

import dev.onebeat.worker.effect.EffectSender;
import dev.onebeat.worker.journal.ProcessedJournal;
import dev.onebeat.worker.metrics.MicrometerWorkerMetrics;
import dev.onebeat.worker.metrics.WorkerMetrics;
import dev.onebeat.worker.queue.TaskQueueWorker;
import dev.onebeat.worker.queue.TaskQueueWorkerBuilder;
import dev.onebeat.worker.throttle.Throttle;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.List;
import javax.sql.DataSource;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingClass;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Condition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * Wires the worker kit on a service's {@link DataSource}: metrics (Micrometer when present), the
 * processed-key journal, the throttle, the queue worker (with {@code onebeat.worker.queues} and
 * {@link QueueHandler} beans) and the effect sender (with {@link EffectChannel} beans). Worker and
 * sender start with the context and stop gracefully with it.
 */
@AutoConfiguration(afterName = "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration")
@ConditionalOnBean(DataSource.class)
@EnableConfigurationProperties(WorkerKitProperties.class)
public class WorkerKitAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    ProcessedJournal processedJournal(WorkerMetrics metrics) {
        return new ProcessedJournal(metrics);
    }

    @Bean
    @ConditionalOnMissingBean
    Throttle throttle(WorkerMetrics metrics) {
        return new Throttle(metrics);
    }

    @Bean(initMethod = "start", destroyMethod = "close")
    @ConditionalOnMissingBean
    @Conditional(QueuesConfigured.class)
    TaskQueueWorker taskQueueWorker(DataSource dataSource, WorkerKitProperties properties, List<QueueHandler> handlers,
                                    WorkerMetrics metrics) {
        TaskQueueWorkerBuilder builder = TaskQueueWorker.builder(dataSource)
                .consumer(properties.consumer())
                .queues(properties.queues().toArray(String[]::new))
                .concurrency(properties.concurrency())
                .batchSize(properties.batchSize())
                .tasksPerTransaction(properties.tasksPerTransaction())
                .lease(properties.lease())
                .maxAttempts(properties.maxAttempts())
                .journal(properties.journal())
                .metrics(metrics);
        handlers.forEach(handler -> builder.handler(handler.task(), handler.handler()));
        return builder.build();
    }

    @Bean(initMethod = "start", destroyMethod = "close")
    @ConditionalOnMissingBean
    @ConditionalOnBean(EffectChannel.class)
    EffectSender effectSender(DataSource dataSource, List<EffectChannel> channels, WorkerMetrics metrics) {
        EffectSender.Builder builder = EffectSender.builder(dataSource).metrics(metrics);
        channels.forEach(channel -> builder.delivery(channel.channel(), channel.delivery()));
        return builder.build();
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "io.micrometer.core.instrument.MeterRegistry")
    static class MicrometerMetrics {

        // resolved when first used, after every registry bean of the context exists
        @Bean
        @ConditionalOnMissingBean
        WorkerMetrics workerMetrics(ObjectProvider<MeterRegistry> registry) {
            MeterRegistry meters = registry.getIfUnique();
            return meters == null ? WorkerMetrics.NOOP : new MicrometerWorkerMetrics(meters);
        }
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnMissingClass("io.micrometer.core.instrument.MeterRegistry")
    static class NoMetrics {

        @Bean
        @ConditionalOnMissingBean
        WorkerMetrics workerMetrics() {
            return WorkerMetrics.NOOP;
        }
    }

    /** {@code onebeat.worker.queues} names at least one queue, in list or comma form. */
    static final class QueuesConfigured implements Condition {

        @Override
        public boolean matches(ConditionContext context, AnnotatedTypeMetadata metadata) {
            return Binder.get(context.getEnvironment())
                    .bind("onebeat.worker.queues", Bindable.listOf(String.class))
                    .map(queues -> !queues.isEmpty())
                    .orElse(false);
        }
    }
}
