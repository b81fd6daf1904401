package dev.onebeat.scheduler.engine.quartz;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onebeat.scheduler.SharedSchedulerIT;
import java.lang.reflect.Method;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.quartz.Scheduler;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.Environment;

/**
 * Every job store setting of {@code application.yaml} ({@code spring.quartz.properties.org.quartz.jobStore.*}, and
 * {@code org.quartz.scheduler.dbFailureRetryInterval}) is the one the running store holds. Quartz's
 * {@code StdSchedulerFactory} sets some store settings again from scheduler properties after the store's own: onebeat
 * once set {@code org.quartz.jobStore.dbRetryInterval=1000}, which the factory replaced with its 15 s default, so a
 * replica waited 15 s after each failure to reach the database (a fire 14 s late, a live replica declared dead).
 */
@SharedSchedulerIT
class QuartzSettingsIT {

    private static final String PREFIX = "spring.quartz.properties";
    private static final String STORE = "org.quartz.jobStore.";
    /** Settings that name a class or configure another object, not a value of the store. */
    private static final Set<String> NOT_STORE_VALUES = Set.of("class", "driverDelegateClass",
            "driverDelegateInitString", "lockHandler.class", "lockHandler.retryPeriod", "dataSource");

    @Autowired
    Scheduler scheduler;
    @Autowired
    Environment environment;

    @Test
    void everyJobStoreSettingConfiguredIsTheOneTheRunningStoreHolds() throws Exception {
        Map<String, String> properties = Binder.get(environment)
                .bind(PREFIX, Bindable.mapOf(String.class, String.class)).get();
        OnebeatJobStore store = OnebeatJobStore.of(scheduler);
        Map<String, String> configured = new TreeMap<>();
        Map<String, String> held = new TreeMap<>();
        for (Map.Entry<String, String> property : properties.entrySet()) {
            if (!property.getKey().startsWith(STORE)) {
                continue;
            }
            String name = property.getKey().substring(STORE.length());
            if (NOT_STORE_VALUES.contains(name)) {
                continue;
            }
            configured.put(name, property.getValue());
            held.put(name, String.valueOf(getter(name).invoke(store)));
        }

        assertThat(configured).containsKeys("clusterCheckinInterval", "misfireThreshold", "isClustered",
                "acquireTriggersWithinLock");
        assertThat(held).as("the running store's settings").isEqualTo(configured);
        assertThat(store.getDbRetryInterval()).as("dbRetryInterval, from org.quartz.scheduler.dbFailureRetryInterval")
                .isEqualTo(Long.parseLong(properties.get("org.quartz.scheduler.dbFailureRetryInterval")))
                .isEqualTo(1_000L);
    }

    /** The store's getter of a setting, as Quartz names its setter: {@code isClustered} → {@code isClustered()}. */
    private static Method getter(String setting) throws NoSuchMethodException {
        String capitalized = setting.substring(0, 1).toUpperCase(Locale.ROOT) + setting.substring(1);
        for (String name : new String[] {"get" + capitalized, "is" + capitalized, setting}) {
            try {
                return OnebeatJobStore.class.getMethod(name);
            } catch (NoSuchMethodException e) {
                // the next form
            }
        }
        throw new NoSuchMethodException("no getter of org.quartz.jobStore." + setting + " on the job store");
    }
}
