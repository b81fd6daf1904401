package dev.onebeat.worker;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.ArchConfiguration;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import java.net.URISyntaxException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The worker kit in two layers, as db-scheduler has its core and its Boot starter: the core ({@code queue},
 * {@code journal}, {@code effect}, {@code throttle}, {@code retention}, {@code metrics} and the root package) is
 * plain Java a worker uses from any application; {@code spring} on top is the thin Spring Boot auto-configuration
 * that builds the core from properties. Only {@code spring} uses Spring, and the core never uses {@code spring}.
 * Of onebeat's modules the kit uses job-api alone: a worker runs beside the scheduler, not inside it.
 */
class WorkerKitArchitectureTest {

    /** The module's main classes, read once; a library's class is known by its name, all the rules ask of it. */
    private static final JavaClasses MAIN = ArchConfiguration.withThreadLocalScope(configuration -> {
        configuration.setResolveMissingDependenciesFromClassPath(false);
        return new ClassFileImporter().importPath(classFolder());
    });

    @Test
    void onlyTheSpringPackageUsesSpring() {
        noClasses().that().resideOutsideOfPackage("dev.onebeat.worker.spring..")
                .should().dependOnClassesThat().resideInAPackage("org.springframework..")
                .as("no Spring in the worker kit outside dev.onebeat.worker.spring")
                .because("a worker in a plain Java, Quarkus or Micronaut application uses the core without Spring; "
                        + "the Boot auto-configuration is an optional layer over it")
                .check(MAIN);
    }

    @Test
    void theCoreNeverUsesTheSpringLayer() {
        noClasses().that().resideOutsideOfPackage("dev.onebeat.worker.spring..")
                .should().dependOnClassesThat().resideInAPackage("dev.onebeat.worker.spring..")
                .as("the worker kit's core never uses dev.onebeat.worker.spring")
                .because("the auto-configuration builds the core, not the reverse: a core class that reached into "
                        + "it would pull Spring in through the back door")
                .check(MAIN);
    }

    @Test
    void noOnebeatModuleButTheJobApi() {
        noClasses().should().dependOnClassesThat(resideInAPackage("dev.onebeat..")
                        .and(not(resideInAnyPackage("dev.onebeat.worker..", "dev.onebeat.job..")))
                        .as("classes of another onebeat module"))
                .as("the worker kit uses no onebeat module but job-api")
                .because("workers run in users' applications, beside the scheduler: the scheduler's or the "
                        + "transports' classes would bring their dependencies and their release pace with them")
                .check(MAIN);
    }

    @Test
    void featuresDoNotDependOnEachOtherBothWays() {
        slices().matching("dev.onebeat.worker.(*)..")
                .should().beFreeOfCycles()
                .as("no cycle between the worker kit's packages")
                .because("each feature (queue, journal, effect, throttle, retention) is read and tested alone")
                .check(MAIN);
    }

    private static Path classFolder() {
        try {
            return Path.of(Backoff.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException("cannot locate the worker kit's classes", e);
        }
    }
}
