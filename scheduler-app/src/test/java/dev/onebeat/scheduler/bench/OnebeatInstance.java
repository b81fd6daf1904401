package dev.onebeat.scheduler.bench;

import com.zaxxer.hikari.HikariDataSource;
import dev.onebeat.job.PeriodicJob;
import dev.onebeat.scheduler.OnebeatApplication;
import dev.onebeat.scheduler.fire.FireOutcome;
import dev.onebeat.scheduler.fire.FirePath;
import dev.onebeat.scheduler.fire.FireResult;
import dev.onebeat.scheduler.fire.FireTrigger;
import java.sql.SQLException;
import java.time.Instant;
import javax.sql.DataSource;
import org.springframework.boot.Banner;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The onebeat application booted in this JVM on the benchmark database, with Quartz stopped: fires
 * are driven by calling {@link FirePath} directly, so only the fire path is measured.
 */
final class OnebeatInstance implements AutoCloseable {

    static final String NODE = "bench";

    private final ConfigurableApplicationContext context;
    private final FirePath firePath;

    private OnebeatInstance(ConfigurableApplicationContext context) {
        this.context = context;
        this.firePath = context.getBean(FirePath.class);
    }

    /** Boots the application; Liquibase creates the tables on the first boot. */
    static OnebeatInstance boot(BenchDatabase database, int batchSize) {
        SpringApplication application = new SpringApplication(OnebeatApplication.class);
        application.setWebApplicationType(WebApplicationType.NONE);
        application.setBannerMode(Banner.Mode.OFF);
        application.setLogStartupInfo(false);
        return new OnebeatInstance(application.run(
                "--spring.datasource.url=" + database.url(),
                "--onebeat.demo.enabled=false",
                "--spring.quartz.auto-startup=false",
                "--logging.level.root=WARN",
                "--onebeat.fire.batch-size=" + batchSize));
    }

    /**
     * Fires {@code job} once for {@code scheduledAt}.
     *
     * @return tasks inserted
     * @throws IllegalStateException if the fire did not commit, which would make its time meaningless
     */
    int fire(PeriodicJob job, Instant scheduledAt) {
        FireResult result = firePath.fire(job, scheduledAt, FireTrigger.MANUAL, NODE);
        if (result.outcome() != FireOutcome.COMMITTED) {
            throw new IllegalStateException("fire of " + job.name() + " at " + scheduledAt + " was "
                    + result.outcome(), result.error());
        }
        return result.dispatched();
    }

    <T> T bean(Class<T> type) {
        return context.getBean(type);
    }

    /** The pool's connections, for {@link CommitCounter}. */
    CommitCounter.Sessions pooledSessions() {
        return PooledSessions.of(pool());
    }

    private HikariDataSource pool() {
        try {
            return context.getBean(DataSource.class).unwrap(HikariDataSource.class);
        } catch (SQLException e) {
            throw new IllegalStateException("the application's data source is not a Hikari pool", e);
        }
    }

    @Override
    public void close() {
        context.close();
    }
}
