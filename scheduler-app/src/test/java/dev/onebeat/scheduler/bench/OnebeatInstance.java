package dev.onebeat.scheduler.bench;

import com.zaxxer.hikari.HikariDataSource;
import dev.onebeat.job.PeriodicJob;
import dev.onebeat.scheduler.OnebeatApplication;
import dev.onebeat.scheduler.engine.fire.FireOutcome;
import dev.onebeat.scheduler.engine.fire.FirePath;
import dev.onebeat.scheduler.engine.fire.FireRequest;
import dev.onebeat.scheduler.engine.fire.FireResult;
import dev.onebeat.scheduler.engine.fire.FireTrigger;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;
import org.springframework.boot.Banner;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The onebeat application booted in this JVM on the benchmark database: either with Quartz stopped
 * and no web server ({@link #boot}), fires being driven by calling {@link FirePath} directly so that
 * only the fire path is measured, or as a replica serving HTTP ({@link #serve}).
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
        return start(WebApplicationType.NONE, database,
                "--spring.quartz.auto-startup=false",
                "--onebeat.fire.batch-size=" + batchSize);
    }

    /**
     * Boots a replica as in production, Quartz running, with its web server on a free port.
     *
     * @param properties further {@code --name=value} arguments (users, tokens)
     */
    static OnebeatInstance serve(BenchDatabase database, List<String> properties) {
        List<String> args = new ArrayList<>(properties);
        args.add("--server.port=0");
        return start(WebApplicationType.SERVLET, database, args.toArray(String[]::new));
    }

    /** Boots the application with Quartz stopped, no web server, and these further {@code --name=value} arguments. */
    static OnebeatInstance bootWith(BenchDatabase database, String... properties) {
        List<String> args = new ArrayList<>(List.of("--spring.quartz.auto-startup=false"));
        args.addAll(List.of(properties));
        return start(WebApplicationType.NONE, database, args.toArray(String[]::new));
    }

    private static OnebeatInstance start(WebApplicationType type, BenchDatabase database, String... properties) {
        SpringApplication application = new SpringApplication(OnebeatApplication.class);
        application.setWebApplicationType(type);
        application.setBannerMode(Banner.Mode.OFF);
        application.setLogStartupInfo(false);
        List<String> args = new ArrayList<>(List.of(
                "--spring.datasource.url=" + database.url(),
                "--onebeat.demo.enabled=false", "--logging.level.root=WARN"));
        args.addAll(List.of(properties));
        if (args.stream().noneMatch(arg -> arg.startsWith("--onebeat.retention.enabled="))) {
            // the built-in retention job would be one more job in the figures; the retention benchmark runs it
            args.add("--onebeat.retention.enabled=false");
        }
        return new OnebeatInstance(application.run(args.toArray(String[]::new)));
    }

    /** @return the port the web server of a {@link #serve}d replica listens on */
    int port() {
        return context.getEnvironment().getRequiredProperty("local.server.port", Integer.class);
    }

    /**
     * Fires {@code job} once for {@code scheduledAt}.
     *
     * @return tasks inserted
     * @throws IllegalStateException if the fire did not commit, which would make its time meaningless
     */
    int fire(PeriodicJob job, Instant scheduledAt) {
        FireResult result = firePath.fire(job, FireRequest.of(scheduledAt, FireTrigger.MANUAL, NODE));
        if (result.outcome() != FireOutcome.COMMITTED) {
            throw new IllegalStateException("fire of " + job.name() + " at " + scheduledAt + " was "
                    + result.outcome(), result.error());
        }
        return result.dispatched();
    }

    <T> T bean(Class<T> type) {
        return context.getBean(type);
    }

    /** Publishes {@code event} to the replica's listeners, on this thread, as the application would. */
    void publish(Object event) {
        context.publishEvent(event);
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
