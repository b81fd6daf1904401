package dev.onebeat.scheduler.architecture;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import org.junit.jupiter.api.Test;

/**
 * Where scheduler-app meets the transports module ({@code dev.onebeat.transport}). Its layers are {@code web} ->
 * {@code operate} -> {@code engine} -> {@code boot}; the transports sit beside them, used by three features only:
 * the outbox (which stores the tasks a transport will publish), the relay (which publishes them) and the alerts
 * (whose channels are one more transport). The rest of the app, the fire path first, knows no broker. Even those
 * three use the transports' SPI, the package {@code dev.onebeat.transport} itself; a provider's own classes are
 * reached through the SPI, and {@code dev.onebeat.transport.internal} is the transports module's alone.
 */
class TransportUseArchitectureTest {

    /** Classes of the transports module outside its SPI package: providers and what they share. */
    private static final DescribedPredicate<JavaClass> PROVIDER_CLASSES = resideInAPackage("dev.onebeat.transport..")
            .and(not(resideInAPackage("dev.onebeat.transport")))
            .as("a transport provider's classes (dev.onebeat.transport.*)");

    @Test
    void onlyTheOutboxTheRelayAndTheAlertsUseTransports() {
        noClasses().that().resideOutsideOfPackages("dev.onebeat.scheduler.engine.relay..",
                        "dev.onebeat.scheduler.engine.outbox..", "dev.onebeat.scheduler.operate.alert..")
                .should().dependOnClassesThat().resideInAPackage("dev.onebeat.transport..")
                .as("only engine.outbox, engine.relay and operate.alert use the transports")
                .because("a broker is reached in one place, after the fire's commit: code that called a transport "
                        + "from elsewhere would publish outside the outbox, without its retries, ordering or "
                        + "exactly-once record")
                .check(SchedulerClasses.MAIN);
    }

    @Test
    void theAppUsesNoProviderButThroughTheSpi() {
        noClasses().that().resideOutsideOfPackage("dev.onebeat.scheduler.operate.alert..")
                .should().dependOnClassesThat(PROVIDER_CLASSES)
                .as("scheduler-app uses the transports' SPI (package dev.onebeat.transport) and no provider's classes")
                .because("the relay finds a provider by name through TransportProviders and talks to it through "
                        + "Transport, so a broker can be added, changed or removed without touching the app")
                .check(SchedulerClasses.MAIN);
    }

    @Test
    void theAlertChannelUsesNoProviderButHttp() {
        noClasses().that().resideInAPackage("dev.onebeat.scheduler.operate.alert..")
                .should().dependOnClassesThat(PROVIDER_CLASSES.and(not(resideInAPackage("dev.onebeat.transport.http"))))
                .as("the alert channel uses the transports' SPI and, of the providers, only the HTTP client")
                .because("alerts are webhooks sent with the HTTP provider's client (its timeouts, retries and "
                        + "outbound policy) and need no broker")
                .check(SchedulerClasses.MAIN);
    }

    @Test
    void noClassUsesTheTransportsInternals() {
        noClasses().should().dependOnClassesThat().resideInAPackage("dev.onebeat.transport.internal..")
                .as("nothing outside the transports module uses dev.onebeat.transport.internal")
                .because("internal is what the providers share among themselves; the transports module may change "
                        + "it in any release, so only its SPI and providers are a promise to other modules")
                .check(SchedulerClasses.MAIN);
    }
}
