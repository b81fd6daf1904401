package dev.onebeat.scheduler.boot.embedded;

import java.util.Map;
import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.context.config.ConfigDataEnvironmentPostProcessor;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

/**
 * Makes {@code demo} the default profile when onebeat runs on its embedded database, so a first
 * {@code java -jar} shows fires. It runs before the configuration files are read (so that
 * {@code application-demo.yaml} is loaded) and therefore sees only the environment, system
 * properties and command line: set {@code SPRING_DATASOURCE_URL}, a profile, or
 * {@code ONEBEAT_DEMO_ENABLED=false} there to keep the demo off.
 */
public class DemoProfileActivator implements EnvironmentPostProcessor, Ordered {

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
        boolean enabled = environment.getProperty("onebeat.demo.enabled", Boolean.class, true);
        if (enabled && NoDatasourceUrlCondition.embeddedWanted(environment)) {
            // lowest precedence: any profile chosen anywhere else wins
            environment.getPropertySources().addLast(new MapPropertySource("onebeatDemoProfile",
                    Map.of("spring.profiles.active", "demo")));
        }
    }

    @Override
    public int getOrder() {
        return ConfigDataEnvironmentPostProcessor.ORDER - 1;
    }
}
