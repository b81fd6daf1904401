package dev.onebeat.scheduler.engine.registry;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onebeat.job.Jobs;
import dev.onebeat.job.Schedule;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.support.DefaultListableBeanFactory;

/** Every meter of one job carries the job's namespace, read from the registry when the meter is registered. */
class NamespaceMetricsTest {

    @Test
    void aJobsMetersCarryItsNamespaceAndAnUnknownJobsAreUnknown() {
        DefaultListableBeanFactory beans = new DefaultListableBeanFactory();
        beans.registerSingleton("jobRegistry", JobRegistry.of(List.of(new RegisteredJob(Jobs.periodic("settle",
                Schedule.every(Duration.ofMinutes(1))).namespace("payments").execute(context -> { }), "test"))));
        MeterRegistry meters = new SimpleMeterRegistry();
        meters.config().meterFilter(new NamespaceMetrics().namespaceTag(beans.getBeanProvider(JobRegistry.class)));

        Counter.builder("onebeat.fires").tag("job", "settle").tag("outcome", "committed").register(meters).increment();
        Counter.builder("onebeat.fires").tag("job", "gone").tag("outcome", "committed").register(meters).increment();
        Counter.builder("onebeat.relay.published").tag("queue", "payments").register(meters).increment();

        assertThat(meters.get("onebeat.fires").tag("job", "settle").counter().getId().getTag("namespace"))
                .isEqualTo("payments");
        assertThat(meters.get("onebeat.fires").tag("job", "gone").counter().getId().getTag("namespace"))
                .isEqualTo(NamespaceMetrics.UNKNOWN);
        assertThat(meters.get("onebeat.relay.published").counter().getId().getTag("namespace"))
                .as("a meter of no job").isNull();
    }

    @Test
    void aMeterRegisteredBeforeTheRegistryExistsIsUnknownAndLaterOnesFindTheRegistry() {
        DefaultListableBeanFactory beans = new DefaultListableBeanFactory();
        MeterRegistry meters = new SimpleMeterRegistry();
        meters.config().meterFilter(new NamespaceMetrics().namespaceTag(beans.getBeanProvider(JobRegistry.class)));

        Counter.builder("onebeat.fires").tag("job", "early").tag("outcome", "committed").register(meters);
        beans.registerSingleton("jobRegistry", JobRegistry.of(List.of(new RegisteredJob(Jobs.periodic("settle",
                Schedule.every(Duration.ofMinutes(1))).namespace("payments").execute(context -> { }), "test"))));
        Counter.builder("onebeat.fires").tag("job", "settle").tag("outcome", "committed").register(meters);

        assertThat(meters.get("onebeat.fires").tag("job", "early").counter().getId().getTag("namespace"))
                .isEqualTo(NamespaceMetrics.UNKNOWN);
        assertThat(meters.get("onebeat.fires").tag("job", "settle").counter().getId().getTag("namespace"))
                .as("the registry, once there, is found").isEqualTo("payments");
    }
}
