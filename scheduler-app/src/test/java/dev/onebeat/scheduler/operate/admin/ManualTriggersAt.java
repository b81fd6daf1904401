package dev.onebeat.scheduler.operate.admin;

import dev.onebeat.scheduler.engine.registry.JobCatalog;
import dev.onebeat.scheduler.engine.registry.JobRegistry;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import org.quartz.Scheduler;
import org.springframework.context.ApplicationContext;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.support.TransactionTemplate;

/** "Trigger now" on a replica whose clock stands still: every request it accepts is stamped with one instant. */
public final class ManualTriggersAt {

    private ManualTriggersAt() {
    }

    /** @return the replica's {@link ManualTriggers}, its clock fixed at {@code instant} */
    public static ManualTriggers fixed(ApplicationContext replica, Instant instant) {
        return new ManualTriggers(replica.getBean(JdbcClient.class), replica.getBean(JobCatalog.class),
                replica.getBean(Scheduler.class), replica.getBean(JobRegistry.class), replica.getBean(AuditLog.class),
                replica.getBean(TransactionTemplate.class), Clock.fixed(instant, ZoneOffset.UTC));
    }
}
