package dev.onebeat.scheduler.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZonedDateTime;
import java.util.Date;
import org.junit.jupiter.api.Test;

/**
 * Rules inside the engine layer ({@code dev.onebeat.scheduler.engine}), below {@code operate} and {@code web} and
 * above {@code boot}. Its features form a chain: {@code schedule} (timetables) is read by {@code registry} (the
 * jobs), which the fire path ({@code fire}) reads; a fire writes its tasks through {@code outbox}, and the
 * {@code relay} publishes them to brokers through the transports, told of each commit by a {@code FireListener}
 * the fire path defines. {@code quartz} bridges Quartz's triggers to the fire path; {@code cluster} is the
 * shared view (nodes, clocks, the database server). A feature further down the chain never reaches one further up,
 * and the fire path, which holds a job's lock and its transaction, never waits on a broker.
 */
class EngineArchitectureTest {

    @Test
    void theFirePathNeverImportsATransport() {
        noClasses().that().resideInAPackage("dev.onebeat.scheduler.engine.fire..")
                .should().dependOnClassesThat().resideInAPackage("dev.onebeat.transport..")
                .as("the fire path never imports a transport")
                .because("a fire writes its tasks to the outbox in the fire's own transaction and the relay "
                        + "publishes them later: the fire path must not know a broker, its format or its failures, "
                        + "so no broker can slow, fail or double a fire")
                .check(SchedulerClasses.MAIN);
    }

    @Test
    void theFirePathAndTheOutboxNeverImportTheRelay() {
        noClasses().that().resideInAnyPackage("dev.onebeat.scheduler.engine.fire..",
                        "dev.onebeat.scheduler.engine.outbox..")
                .should().dependOnClassesThat().resideInAPackage("dev.onebeat.scheduler.engine.relay..")
                .as("the fire path and the outbox never import the relay")
                .because("the relay reads the outbox and hears of a committed fire through the FireListener the fire "
                        + "path defines; a fire that called the relay would hold its job's lock while brokers answer")
                .check(SchedulerClasses.MAIN);
    }

    @Test
    void theRegistryNeverImportsTheFirePath() {
        noClasses().that().resideInAPackage("dev.onebeat.scheduler.engine.registry..")
                .should().dependOnClassesThat().resideInAPackage("dev.onebeat.scheduler.engine.fire..")
                .as("the registry never imports the fire path")
                .because("the fire path reads the registry's jobs; the registry knowing the fire path makes the two "
                        + "one tangle, where a job's definition could not be checked, stored or tested without "
                        + "the machinery that fires it")
                .check(SchedulerClasses.MAIN);
    }

    @Test
    void timetablesNeedNothingElseOfTheScheduler() {
        noClasses().that().resideInAPackage("dev.onebeat.scheduler.engine.schedule..")
                .should().dependOnClassesThat().resideInAnyPackage(
                        "dev.onebeat.scheduler.engine.registry..", "dev.onebeat.scheduler.engine.fire..",
                        "dev.onebeat.scheduler.engine.outbox..", "dev.onebeat.scheduler.engine.relay..",
                        "dev.onebeat.scheduler.engine.quartz..", "dev.onebeat.scheduler.engine.cluster..")
                .as("the timetables (engine.schedule) use no other feature of the engine")
                .because("when a job fires is pure calculation from its schedule and a time zone; kept apart it "
                        + "is tested without a database, a registry or Quartz")
                .check(SchedulerClasses.MAIN);
    }

    @Test
    void timeComesFromTheInjectedClock() {
        noClasses()
                .that().resideOutsideOfPackage("dev.onebeat.scheduler.engine.quartz..")
                .should().callMethod(Instant.class, "now")
                .orShould().callMethod(LocalDateTime.class, "now")
                .orShould().callMethod(LocalDate.class, "now")
                .orShould().callMethod(OffsetDateTime.class, "now")
                .orShould().callMethod(ZonedDateTime.class, "now")
                .orShould().callMethod(System.class, "currentTimeMillis")
                .orShould().callConstructor(Date.class)
                .as("no class reads the system clock itself (Instant.now(), System.currentTimeMillis(), new Date() "
                        + "...) but the Quartz bridge")
                .because("time comes from the injected java.time.Clock, so a test can set it and every part of a "
                        + "replica sees the same time; engine.quartz is excepted because Quartz itself schedules "
                        + "by the JVM's millisecond clock and java.util.Date")
                .check(SchedulerClasses.MAIN);
    }
}
