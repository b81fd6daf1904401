package dev.onebeat.scheduler.operate.admin;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.InitializingBean;
import org.springframework.stereotype.Component;

/**
 * Ends the pauses whose end time has come, every {@link #EVERY} on every replica, each audited once. A
 * job fires again from its first instant at or after its pause's end whether or not this has run yet
 * (the catalog's members say so); this only makes the API, the console and the audit log say so too.
 */
@Component
class PauseExpiry implements InitializingBean, DisposableBean {

    static final Duration EVERY = Duration.ofSeconds(2);
    private static final Logger log = LoggerFactory.getLogger(PauseExpiry.class);

    private final JobControl control;
    private final ScheduledExecutorService thread = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread daemon = new Thread(runnable, "onebeat-pause-expiry");
        daemon.setDaemon(true);
        return daemon;
    });

    PauseExpiry(JobControl control) {
        this.control = control;
    }

    @Override
    public void afterPropertiesSet() {
        thread.scheduleWithFixedDelay(this::check, EVERY.toMillis(), EVERY.toMillis(), TimeUnit.MILLISECONDS);
    }

    private void check() {
        try {
            control.endPausesDue();
        } catch (RuntimeException e) {
            // the database away, or the schema not there yet: the next check tries again
            log.debug("could not end the pauses due error={}", e.toString());
        }
    }

    @Override
    public void destroy() {
        thread.shutdownNow();
    }
}
