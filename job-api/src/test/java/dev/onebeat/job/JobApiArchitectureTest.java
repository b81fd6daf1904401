package dev.onebeat.job;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.ArchConfiguration;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import java.net.URISyntaxException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * job-api is the bottom layer of onebeat's modules: the scheduler-app (web -> operate -> engine -> boot), the
 * transports and the worker kit all use it, and it uses none of them. Inside it is one package,
 * {@code dev.onebeat.job}: jobs, schedules, policies and the task request a job dispatches. It is what a user's job
 * is compiled against, so it is plain Java: the JDK and its own types, no framework and no Spring-facing package
 * (the scheduler adapts jobs to Spring, never the reverse).
 */
class JobApiArchitectureTest {

    /** The module's main classes, read once; a JDK class is known by its name, all the rules ask of it. */
    private static final JavaClasses MAIN = ArchConfiguration.withThreadLocalScope(configuration -> {
        configuration.setResolveMissingDependenciesFromClassPath(false);
        return new ClassFileImporter().importPath(classFolder());
    });

    @Test
    void noSpringInTheJobApi() {
        noClasses().should().dependOnClassesThat().resideInAPackage("org.springframework..")
                .as("no Spring in job-api")
                .because("a job is written against job-api alone and runs in any application; Spring here would "
                        + "make every job's build carry Spring, at the scheduler's version")
                .check(MAIN);
    }

    @Test
    void theJobApiNeedsOnlyTheJdk() {
        classes().should().onlyDependOnClassesThat().resideInAnyPackage("java..", "dev.onebeat.job..")
                .as("job-api uses only the JDK and its own types")
                .because("it is what users read and compile against: every library it used would be a version "
                        + "conflict in their build, and no other onebeat module may sit below it")
                .check(MAIN);
    }

    private static Path classFolder() {
        try {
            return Path.of(PeriodicJob.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException("cannot locate job-api's classes", e);
        }
    }
}
