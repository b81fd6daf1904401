package dev.onebeat.scheduler.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import org.junit.jupiter.api.Test;

/**
 * House conventions that cut across scheduler-app's four layers ({@code web} -> {@code operate} -> {@code engine}
 * -> {@code boot}, see {@link LayersArchitectureTest}). The web layer is where a request is: the REST API, the
 * console and security speak HTTP, and everything below them is called with plain values, so an operation or the
 * engine serves a controller, a schedule and a test alike.
 */
class ConventionsArchitectureTest {

    @Test
    void onlyTheWebLayerSpeaksHttp() {
        noClasses().that().resideOutsideOfPackage("dev.onebeat.scheduler.web..")
                .should().dependOnClassesThat().resideInAnyPackage("org.springframework.web..",
                        "org.springframework.http..", "org.springframework.ui..", "jakarta.servlet..")
                .as("only the web layer uses Spring MVC, servlets and HTTP requests and answers")
                .because("operations, the engine and boot are called from the API, the console, schedules and tests "
                        + "alike; bound to a request they could be called from none but the first")
                .check(SchedulerClasses.MAIN);
    }
}
