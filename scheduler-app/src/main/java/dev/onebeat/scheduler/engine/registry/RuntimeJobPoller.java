package dev.onebeat.scheduler.engine.registry;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * Reloads {@link RuntimeJobStore} every {@code onebeat.runtime-jobs-poll} (5 s by default), so jobs
 * created, changed or deleted on another replica reach this one's registry. Until then, a fire of a
 * job this replica does not know yet is handed back to the cluster, not lost.
 */
@Component
class RuntimeJobPoller implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(RuntimeJobPoller.class);

    private final RuntimeJobStore store;
    private final JobsProperties properties;
    private ScheduledExecutorService executor;

    RuntimeJobPoller(RuntimeJobStore store, JobsProperties properties) {
        this.store = store;
        this.properties = properties;
    }

    @Override
    public synchronized void start() {
        executor = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "onebeat-runtime-jobs");
            thread.setDaemon(true);
            return thread;
        });
        long millis = properties.runtimeJobsPoll().toMillis();
        executor.scheduleWithFixedDelay(this::reload, millis, millis, TimeUnit.MILLISECONDS);
    }

    private void reload() {
        try {
            store.reload();
        } catch (RuntimeException e) {
            log.warn("runtime jobs not reloaded, retrying next poll error={}", e.toString());
        }
    }

    @Override
    public synchronized void stop() {
        executor.shutdownNow();
        executor = null;
    }

    @Override
    public synchronized boolean isRunning() {
        return executor != null;
    }
}
