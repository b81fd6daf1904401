package dev.onebeat.scheduler.engine.trace;

import io.micrometer.tracing.Tracer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * Makes {@link Traces}: on with {@code management.tracing.export.enabled=true} (Spring Boot's own switch, which
 * {@code application.yaml} sets to {@code false}) and a tracer in the context, else {@link Traces#OFF}.
 */
@Configuration(proxyBeanMethods = false)
class TracingConfiguration {

    /** Spring Boot's property that turns the export of traces on; onebeat's spans follow it. */
    static final String EXPORT_ENABLED = "management.tracing.export.enabled";

    private static final Logger log = LoggerFactory.getLogger(TracingConfiguration.class);

    @Bean
    Traces traces(Environment environment, ObjectProvider<Tracer> tracers) {
        boolean enabled = environment.getProperty(EXPORT_ENABLED, Boolean.class, false);
        Tracer tracer = tracers.getIfAvailable();
        if (!enabled || tracer == null || tracer == Tracer.NOOP) {
            return Traces.OFF;
        }
        log.info("tracing fires and publishes spans={} {}={} sampling={}", String.join(",", Traces.FIRE,
                Traces.BATCH, Traces.PUBLISH), EXPORT_ENABLED, true,
                environment.getProperty("management.tracing.sampling.probability", "0.1"));
        return new Traces(tracer);
    }
}
