package dev.onebeat.scheduler;

import dev.onebeat.scheduler.web.cli.JobFileCommand;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

/**
 * Starts a onebeat scheduler replica; or, with {@code plan} or {@code apply} first, runs the job-file client against
 * a running cluster ({@link JobFileCommand}) without starting one.
 */
@SpringBootApplication
@ConfigurationPropertiesScan
public class OnebeatApplication {

    public static void main(String[] args) {
        if (JobFileCommand.handles(args)) {
            System.exit(JobFileCommand.run(args, System.getenv(), System.out, System.err));
        }
        SpringApplication.run(OnebeatApplication.class, args);
    }
}
