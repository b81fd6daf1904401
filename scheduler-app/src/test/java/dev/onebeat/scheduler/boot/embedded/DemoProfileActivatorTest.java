package dev.onebeat.scheduler.boot.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.mock.env.MockEnvironment;

class DemoProfileActivatorTest {

    private final DemoProfileActivator activator = new DemoProfileActivator();

    @Test
    void embeddedDatabaseMakesDemoTheDefaultProfile() {
        MockEnvironment environment = new MockEnvironment();

        activator.postProcessEnvironment(environment, null);

        assertThat(environment.getProperty("spring.profiles.active")).isEqualTo("demo");
    }

    @Test
    void configuredDatasourceLeavesTheDemoOff() {
        MockEnvironment environment = new MockEnvironment().withProperty("spring.datasource.url", "jdbc:postgresql://db/x");

        activator.postProcessEnvironment(environment, null);

        assertThat(environment.getProperty("spring.profiles.active")).isNull();
    }

    @Test
    void demoCanBeSwitchedOff() {
        MockEnvironment environment = new MockEnvironment().withProperty("onebeat.demo.enabled", "false");

        activator.postProcessEnvironment(environment, null);

        assertThat(environment.getProperty("spring.profiles.active")).isNull();
    }

    @Test
    void profileChosenElsewhereWins() {
        MockEnvironment environment = new MockEnvironment().withProperty("spring.profiles.active", "prod");

        activator.postProcessEnvironment(environment, null);

        assertThat(environment.getProperty("spring.profiles.active")).isEqualTo("prod");
    }
}
