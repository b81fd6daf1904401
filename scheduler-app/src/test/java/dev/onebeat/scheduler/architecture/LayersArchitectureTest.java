package dev.onebeat.scheduler.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import org.junit.jupiter.api.Test;

/**
 * scheduler-app in four layers, each allowed to use the layers below it and never one above:
 * <ol>
 *   <li>{@code web}: the REST API, the console and security; nothing uses it;</li>
 *   <li>{@code operate}: what operators do and watch (admin, backfills, monitor, alerts, retention);</li>
 *   <li>{@code engine}: the scheduling itself (schedules, registry, fire path, outbox, relay, Quartz, cluster);</li>
 *   <li>{@code boot}: what starts the process and connects it (database, migrations, embedded server, demo).</li>
 * </ol>
 * Only the root package ({@code OnebeatApplication}) stands outside the layers and may use any of them. A layer may
 * skip the one below it (web may call the engine); no two features anywhere in the app may depend on each other
 * both ways; and only {@code web} meets HTTP: below it everything is called with plain values.
 */
class LayersArchitectureTest {

    @Test
    void dependenciesPointDownTheLayers() {
        layeredArchitecture()
                .consideringOnlyDependenciesInLayers()
                .layer("web").definedBy("dev.onebeat.scheduler.web..")
                .layer("operate").definedBy("dev.onebeat.scheduler.operate..")
                .layer("engine").definedBy("dev.onebeat.scheduler.engine..")
                .layer("boot").definedBy("dev.onebeat.scheduler.boot..")
                .whereLayer("web").mayNotBeAccessedByAnyLayer()
                .whereLayer("operate").mayOnlyBeAccessedByLayers("web")
                .whereLayer("engine").mayOnlyBeAccessedByLayers("web", "operate")
                .whereLayer("boot").mayOnlyBeAccessedByLayers("web", "operate", "engine")
                .ensureAllClassesAreContainedInArchitectureIgnoring(SchedulerClasses.ROOT)
                .as("scheduler-app's layers: web -> operate -> engine -> boot, and every class in one of them")
                .because("a reader finds a class's room by its layer, and a layer can change without breaking the "
                        + "ones below it; an operator feature or the console reaches the engine only through its "
                        + "classes, so the engine never waits on them")
                .check(SchedulerClasses.MAIN);
    }

    @Test
    void featuresDoNotDependOnEachOtherBothWays() {
        slices().matching("dev.onebeat.scheduler.(*).(*)..")
                .namingSlices("$1.$2")
                .should().beFreeOfCycles()
                .as("no cycle between the features of scheduler-app (web.api, engine.fire, boot.database ...)")
                .because("two features that use each other are one feature in two folders: neither can be read, "
                        + "tested or changed alone; merge them, or move what both need below both")
                .check(SchedulerClasses.MAIN);
    }

    @Test
    void noLayerUsesTheApplicationClass() {
        noClasses()
                .that().resideOutsideOfPackage(SchedulerClasses.ROOT)
                .should().dependOnClassesThat().resideInAPackage(SchedulerClasses.ROOT)
                .as("no layer uses the root package (OnebeatApplication)")
                .because("the application class assembles the layers; a layer that reached back into it would "
                        + "depend on all of them")
                .check(SchedulerClasses.MAIN);
    }

    @Test
    void onlyTheWebLayerSpeaksHttp() {
        noClasses().that().resideOutsideOfPackage("dev.onebeat.scheduler.web..")
                .should().dependOnClassesThat().resideInAnyPackage("org.springframework.web..",
                        "org.springframework.http..", "org.springframework.ui..", "jakarta.servlet..")
                .as("only the web layer uses Spring MVC, servlets and HTTP requests and answers")
                .because("operations, the engine and boot are called from the API, the console, schedules and tests "
                        + "alike; bound to a request they could serve none but the first")
                .check(SchedulerClasses.MAIN);
    }
}
