package dev.onebeat.scheduler.engine.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.onebeat.scheduler.OnebeatApplication;
import dev.onebeat.testsupport.PostgresExtension;
import dev.onebeat.testsupport.TestDatabase;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

/** A bad job definition stops start-up with a message naming the job and the field. */
@ExtendWith({PostgresExtension.class, OutputCaptureExtension.class})
class StartupValidationIT {

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            invalid Unix cron   | cron=0 25 * * *;task=r        | onebeat.jobs[0] (job 'nightly').cron: cron '0 25 * * *': hour '25' is out of range 0-23
            invalid Quartz cron | cron=0 0 8 ? * MON#9;task=r   | onebeat.jobs[0] (job 'nightly').cron: '0 0 8 ? * MON#9' is not a valid Quartz cron expression
            malformed W day     | cron=0 0 8 1W/2 * ?;task=r    | onebeat.jobs[0] (job 'nightly').cron: '0 0 8 1W/2 * ?' is not a valid Quartz cron expression: day-of-month item '1W/2' is not nW, LW or L-nW
            unknown zone        | cron=0 2 * * *;zone=Mars/Olympus;task=r | onebeat.jobs[0] (job 'nightly').zone: 'Mars/Olympus' is not a known IANA time zone
            missing task        | cron=0 2 * * *                | onebeat.jobs[0] (job 'nightly').task: is missing
            cron and every      | cron=0 2 * * *;every=10s;task=r | onebeat.jobs[0] (job 'nightly'): set exactly one of cron and every
            bad interval        | every=1500ms;task=r           | onebeat.jobs[0] (job 'nightly').every: every must be a whole number of seconds
            bad misfire policy  | every=10s;misfire=sometimes;task=r | onebeat.jobs[0] (job 'nightly').misfire:
            unknown gap rule    | cron=30 2 * * *;gap=later;task=r | onebeat.jobs[0] (job 'nightly').gap: 'later' is not one of shift, skip
            unknown overlap rule | cron=30 2 * * *;overlap=second;task=r | onebeat.jobs[0] (job 'nightly').overlap: 'second' is not one of first, last, both
            gap on an interval  | every=10s;gap=skip;task=r     | onebeat.jobs[0] (job 'nightly').gap: 'skip' applies to cron schedules only; an every schedule counts elapsed seconds
            jitter not a duration | every=1m;jitter=soon;task=r | onebeat.jobs[0] (job 'nightly').jitter: 
            jitter of a period  | every=1m;jitter=1m;task=r      | onebeat.jobs[0] (job 'nightly').jitter: jitter PT1M must be shorter than the shortest time between two instants of the schedule (PT1M)
            spread past catch-up | cron=0 2 * * *;spread=2h;task=r | onebeat.jobs[0] (job 'nightly').spread: spread PT2H must be shorter than the catch-up window (PT1H)
            jitter plus spread  | cron=*/5 * * * *;jitter=3m;spread=2m;task=r | onebeat.jobs[0] (job 'nightly').jitter: jitter PT3M plus spread PT2M must be shorter than the shortest time between two instants of the schedule (PT5M)
            sub-millisecond spread | every=1m;spread=PT0.0001S;task=r | onebeat.jobs[0] (job 'nightly').spread: must be zero or at least 1 ms, was PT0.0001S
            """)
    void badDefinitionStopsStartupNamingJobAndField(String caseName, String fields, String expected,
                                                     TestDatabase database) {
        List<String> args = new ArrayList<>(baseArgs(database));
        args.add("--onebeat.jobs[0].name=nightly");
        for (String field : fields.split(";")) {
            args.add("--onebeat.jobs[0]." + field);
        }

        Throwable failure = catchThrowable(() -> start(args));

        assertThat(definitionError(failure)).hasMessageStartingWith(expected);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            bad yearly day      | calendars.fr.yearly[0]=13-01;jobs[0].every=1h;jobs[0].task=r | onebeat.calendars.fr.yearly[0]: '13-01' is not a day of the year (MM-DD)
            bad weekly window   | calendars.office.weekly[0]=MON-FRI 8-18;jobs[0].every=1h;jobs[0].task=r | onebeat.calendars.office.weekly[0]: 'MON-FRI 8-18' is not a weekly window
            unknown calendar    | calendars.fr.yearly[0]=05-01;jobs[0].every=1h;jobs[0].task=r;jobs[0].calendars.exclude[0]=fr;jobs[0].calendars.exclude[1]=de | onebeat.jobs[0] (job 'nightly').calendars.exclude[1]: no calendar is named 'de'; defined: fr
            bad active period   | jobs[0].every=1h;jobs[0].task=r;jobs[0].active-from=2027-02-01;jobs[0].active-until=2027-01-01 | onebeat.jobs[0] (job 'nightly').active-until: activeUntil must be after activeFrom
            active day unread   | jobs[0].every=1h;jobs[0].task=r;jobs[0].active-from=tomorrow | onebeat.jobs[0] (job 'nightly').active-from: 'tomorrow' is not an instant
            undeclared namespace | jobs[0].every=1h;jobs[0].task=r;jobs[0].namespace=billing | onebeat.jobs[0] (job 'nightly').namespace: no namespace is named 'billing'; declare it under onebeat.namespaces.billing (namespaces: default)
            queue owned twice   | namespaces.a.queues[0]=q;namespaces.b.queues[0]=q;jobs[0].every=1h;jobs[0].task=r | onebeat.namespaces.b.queues: queue 'q' is already owned by namespace 'a'
            queue of another    | namespaces.a.queues[0]=pay-*;jobs[0].every=1h;jobs[0].task=r;jobs[0].queue=pay-eu | onebeat.jobs[0] (job 'nightly').queue: queue 'pay-eu' belongs to namespace 'a'; a job of namespace 'default' may not send to it
            more jobs than max  | namespaces.a.max-jobs=1;jobs[0].every=1h;jobs[0].task=r;jobs[0].namespace=a;jobs[1].name=second;jobs[1].every=1h;jobs[1].task=r;jobs[1].namespace=a | onebeat.namespaces.a.max-jobs: code and configuration define 2 jobs of namespace 'a', more than its 1
            unknown hand edits  | namespaces.a.hand-edits=ignore;jobs[0].every=1h;jobs[0].task=r | onebeat.namespaces.a.hand-edits: 'ignore' is not one of show, refuse
            """)
    void badCalendarNamespaceOrWhatAJobSaysOfThemStopsStartupNamingTheField(String caseName, String fields, String expected,
                                                                        TestDatabase database) {
        List<String> args = new ArrayList<>(baseArgs(database));
        args.add("--onebeat.jobs[0].name=nightly");
        for (String field : fields.split(";")) {
            args.add("--onebeat." + field);
        }

        Throwable failure = catchThrowable(() -> start(args));

        assertThat(definitionError(failure)).hasMessageStartingWith(expected);
    }

    @Test
    void duplicateNameStopsStartupNamingBothDefinitions(TestDatabase database, CapturedOutput output) {
        List<String> args = new ArrayList<>(baseArgs(database));
        args.addAll(List.of("--onebeat.jobs[0].name=dup", "--onebeat.jobs[0].every=10s", "--onebeat.jobs[0].task=a",
                "--onebeat.jobs[1].name=dup", "--onebeat.jobs[1].every=20s", "--onebeat.jobs[1].task=b"));

        Throwable failure = catchThrowable(() -> start(args));

        assertThat(definitionError(failure)).hasMessage(
                "job 'dup' is defined twice: by onebeat.jobs[0] and by onebeat.jobs[1]; job names must be unique");
        assertThat(output).contains("APPLICATION FAILED TO START")
                .contains("A job definition is invalid: job 'dup' is defined twice");
    }

    private static List<String> baseArgs(TestDatabase database) {
        return List.of("--spring.datasource.url=" + database.jdbcUrl(),
                "--spring.datasource.username=" + database.username(),
                "--spring.datasource.password=" + database.password(),
                "--spring.main.web-application-type=none", "--spring.quartz.auto-startup=false",
                "--onebeat.demo.enabled=false", "--onebeat.retention.enabled=false");
    }

    private static Throwable definitionError(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof JobDefinitionException) {
                return cause;
            }
        }
        throw new AssertionError("start-up did not fail with a JobDefinitionException", failure);
    }

    private static void start(List<String> args) {
        new SpringApplicationBuilder(OnebeatApplication.class).run(args.toArray(String[]::new)).close();
    }
}
