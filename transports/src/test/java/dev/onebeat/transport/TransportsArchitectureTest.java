package dev.onebeat.transport;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.ArchConfiguration;
import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import java.net.URISyntaxException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The transports module in layers: the SPI ({@code dev.onebeat.transport}: {@link Transport},
 * {@link TransportProvider}, the task and route values) at the bottom, beside {@code internal} (what providers
 * share, a promise to no other module), and the providers on top ({@code amqp}, {@code kafka}, {@code http},
 * {@code redis}, {@code pickle} and the worker protocols {@code celery}, {@code dramatiq}, {@code rq}, {@code arq},
 * built on them). Providers depend on the SPI, never the reverse, as in ShedLock's core and providers. The module
 * is plain Java: the scheduler wires it, so it has no Spring-facing package and uses no Spring.
 */
class TransportsArchitectureTest {

    /** The module's main classes, read once; a library's class is known by its name, all the rules ask of it. */
    private static final JavaClasses MAIN = ArchConfiguration.withThreadLocalScope(configuration -> {
        configuration.setResolveMissingDependenciesFromClassPath(false);
        return new ClassFileImporter().importPath(classFolder());
    });

    /** A provider's classes: the module's, outside the SPI package and {@code internal}. */
    private static final DescribedPredicate<JavaClass> PROVIDERS = resideInAPackage("dev.onebeat.transport..")
            .and(not(resideInAnyPackage("dev.onebeat.transport", "dev.onebeat.transport.internal..")))
            .as("a provider's classes");

    @Test
    void noSpringInTheTransports() {
        noClasses().should().dependOnClassesThat().resideInAPackage("org.springframework..")
                .as("no Spring in the transports module")
                .because("the transports are plain Java libraries the scheduler wires itself; Spring here would "
                        + "tie every broker client to one framework's version and start-up")
                .check(MAIN);
    }

    @Test
    void theSpiUsesNoProvider() {
        noClasses().that().resideInAPackage("dev.onebeat.transport")
                .should().dependOnClassesThat(PROVIDERS)
                .as("the transports' SPI (package dev.onebeat.transport) uses no provider")
                .because("providers are found by name at run time and depend on the SPI, never the reverse: a "
                        + "provider can be added or removed without the SPI, or its users, changing")
                .check(MAIN);
    }

    @Test
    void theInternalsUseNoProvider() {
        noClasses().that().resideInAPackage("dev.onebeat.transport.internal..")
                .should().dependOnClassesThat(PROVIDERS)
                .allowEmptyShould(true)
                .as("dev.onebeat.transport.internal uses no provider")
                .because("internal holds what several providers share; one that reached into a provider would tie "
                        + "every provider to it")
                .check(MAIN);
    }

    @Test
    void providersDoNotDependOnEachOtherBothWays() {
        slices().matching("dev.onebeat.transport.(*)..")
                .should().beFreeOfCycles()
                .as("no cycle between the transports' packages")
                .because("a worker protocol builds on a broker's client (celery on amqp and redis), never the "
                        + "reverse, so each broker client is read and tested alone")
                .check(MAIN);
    }

    @Test
    void noOnebeatModuleButTheJobApi() {
        noClasses().should().dependOnClassesThat(resideInAPackage("dev.onebeat..")
                        .and(not(resideInAnyPackage("dev.onebeat.transport..", "dev.onebeat.job..")))
                        .as("classes of another onebeat module"))
                .as("the transports use no onebeat module but job-api")
                .because("the scheduler and the worker kit use the transports; a transport that used them would "
                        + "be a cycle between modules")
                .check(MAIN);
    }

    private static Path classFolder() {
        try {
            return Path.of(Transport.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException("cannot locate the transports' classes", e);
        }
    }
}
