package dev.onebeat.scheduler;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

/** Starts a onebeat scheduler replica. */
@SpringBootApplication
@ConfigurationPropertiesScan
public class OnebeatApplication {

    public static void main(String[] args) {
        SpringApplication.run(OnebeatApplication.class, args);
    }
}
