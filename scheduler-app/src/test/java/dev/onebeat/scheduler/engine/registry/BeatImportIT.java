package dev.onebeat.scheduler.engine.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.awaitility.Awaitility.await;

import dev.onebeat.job.DeliveryOptions;
import dev.onebeat.job.PeriodicJob;
import dev.onebeat.job.Schedule;
import dev.onebeat.job.TaskRequest;
import dev.onebeat.scheduler.OnebeatApplication;
import dev.onebeat.testsupport.PostgresExtension;
import dev.onebeat.testsupport.TestDatabase;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.quartz.Scheduler;
import org.quartz.SchedulerException;
import org.quartz.TriggerKey;
import org.quartz.impl.matchers.GroupMatcher;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code python3 -m onebeat.beat_import} over the importer's test Celery app (python/tests/importer,
 * one entry of every schedule and option kind): the YAML it writes starts onebeat unchanged, through
 * the scheduler's own validation, with every imported job registered on the schedule, task, queue,
 * arguments and delivery options the Celery entry had, and no refused entry.
 */
@ExtendWith(PostgresExtension.class)
class BeatImportIT {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Path PYTHON_DIR = Path.of("..", "python").toAbsolutePath().normalize();
    private static final Path TEST_APP_DIR = PYTHON_DIR.resolve("tests").resolve("importer");
    private static final ZoneId PARIS = ZoneId.of("Europe/Paris");

    @TempDir
    static Path dir;
    static Path yaml;
    static String stderr;

    @BeforeAll
    static void runImporter() throws Exception {
        yaml = dir.resolve("onebeat-jobs.yaml");
        Result result = python("-m", "onebeat.beat_import", "beat_import_app:app", "-o", yaml.toString());
        assertThat(result.exit()).as(result.stderr()).isZero();
        stderr = result.stderr();
    }

    @Test
    void importedYamlStartsOnebeatWithEveryJobOnItsCelerySchedule(TestDatabase database) throws Exception {
        try (ConfigurableApplicationContext context = start(database, yaml)) {
            JobRegistry registry = context.getBean(JobRegistry.class);
            Map<String, PeriodicJob> jobs = new LinkedHashMap<>();
            registry.all().stream().filter(RegisteredJob::declarative).forEach(job -> jobs.put(job.name(), job.job()));

            Map<String, String> crons = new LinkedHashMap<>();
            crons.put("every-quarter-hour", "*/15 * * * *");
            crons.put("weekday-mornings", "30 7 * * MON-FRI");
            crons.put("sunday-night", "0 23 * * SUN");
            crons.put("odd-days", "0,30 1-9/2 */2 * *");
            crons.put("quarterly", "0 6 1 */3 *");
            crons.put("weekend-wrap", "5 22,23 * * SUN,FRI,SAT");
            crons.put("first-monday", "0 0 9 ? * MON#1");
            crons.put("typed-arguments", "0 * * * *");
            crons.put("with-options", "0 2 * * *");
            crons.put("routed", "0 3 * * *");
            crons.put("needs-renaming", "1 * * * *");
            crons.put("needs-renaming-2", "2 * * * *");
            crons.put("x".repeat(141) + "-aa20c23e", "3 * * * *");
            // 76 emoji are 152 UTF-16 units, which Java counts: shortened to 70 and the hash
            crons.put("\uD83D\uDE00".repeat(70) + "-a8c77ed7", "6 * * * *");
            crons.put("unknown-key", "4 * * * *");
            Map<String, Duration> intervals = Map.of("every-30s-timedelta", Duration.ofSeconds(30),
                    "every-90s-number", Duration.ofSeconds(90), "every-hour-schedule", Duration.ofHours(1),
                    "expires-timedelta", Duration.ofMinutes(5), "expires-datetime", Duration.ofMinutes(5));

            Set<String> expected = new TreeSet<>(crons.keySet());
            expected.addAll(intervals.keySet());
            assertThat(new TreeSet<>(jobs.keySet())).isEqualTo(expected);
            assertThat(jobs).doesNotContainKeys("sunrise", "full-moon", "half-second", "fractional", "both-days",
                    "never");

            crons.forEach((name, cron) -> {
                Schedule.Cron schedule = (Schedule.Cron) jobs.get(name).schedule();
                assertThat(schedule.source()).as(name).isEqualTo(cron);
                assertThat(schedule.zone()).as(name).isEqualTo(PARIS);
            });
            // the quarter-hour cron read as Quartz: what onebeat fires
            assertThat(((Schedule.Cron) jobs.get("every-quarter-hour").schedule()).quartzExpression())
                    .isEqualTo("0 0,15,30,45 * * * ?");
            intervals.forEach((name, every) -> assertThat(((Schedule.Interval) jobs.get(name).schedule()).interval())
                    .as(name).isEqualTo(every));

            assertThat(task(jobs, "routed").queue()).isEqualTo("reports");
            assertThat(task(jobs, "every-quarter-hour").queue()).isEqualTo("celery");
            assertThat(task(jobs, "needs-renaming").task()).isEqualTo("ops.rename");

            TaskRequest options = task(jobs, "with-options");
            assertThat(options.task()).isEqualTo("reports.tasks.build");
            assertThat(options.queue()).isEqualTo("reports-high");
            assertThat(options.delivery()).isEqualTo(new DeliveryOptions(Duration.ofHours(1), 9, "billing",
                    "billing.close", Map.of("tenant_id", "acme", "Trace", "on")));
            assertThat(task(jobs, "expires-timedelta").delivery().expires()).isEqualTo(Duration.ofMillis(1500));
            assertThat(task(jobs, "expires-datetime").delivery()).isEqualTo(DeliveryOptions.NONE);

            // the arguments onebeat will send are exactly the Python values, as json.dumps writes them
            TaskRequest typed = task(jobs, "typed-arguments");
            Result python = python("-c", "import json, beat_import_app as a; e = a.app.conf.beat_schedule['typed-arguments'];"
                    + " print(json.dumps({'args': list(e['args']), 'kwargs': e['kwargs']}))");
            assertThat(python.exit()).as(python.stderr()).isZero();
            JsonNode want = JSON.readTree(python.stdout());
            assertThat(JSON.readTree(JSON.writeValueAsString(typed.args()))).isEqualTo(want.get("args"));
            assertThat(JSON.readTree(JSON.writeValueAsString(typed.kwargs()))).isEqualTo(want.get("kwargs"));

            // the schedules are in Quartz: each job's trigger exists
            Scheduler quartz = context.getBean(Scheduler.class);
            Set<String> wanted = jobs.values().stream().map(ScheduleKeys::key).collect(Collectors.toSet());
            await().atMost(20, TimeUnit.SECONDS).untilAsserted(() -> assertThat(triggerNames(quartz))
                    .containsAll(wanted));
        }
        assertThat(stderr).contains("REFUSED 'sunrise': solar schedule").contains("REFUSED 'full-moon'")
                .contains("REFUSED 'both-days'");
    }

    @Test
    void aBrokenEntryInTheSameFileIsRefusedByTheSchedulersValidation(TestDatabase database) throws IOException {
        String text = Files.readString(yaml, StandardCharsets.UTF_8);
        String broken = text.replace("cron: '0 3 * * *'", "cron: '0 25 * * *'");
        assertThat(broken).isNotEqualTo(text);
        Path file = dir.resolve("broken.yaml");
        Files.writeString(file, broken, StandardCharsets.UTF_8);
        int index = indexOf(text, "routed");

        Throwable failure = catchThrowable(() -> start(database, file).close());

        assertThat(definitionError(failure)).hasMessageStartingWith("onebeat.jobs[" + index
                + "] (job 'routed').cron: cron '0 25 * * *': hour '25' is out of range 0-23");
    }

    /** @return the position of the job in the file's list, counting its {@code - name:} lines */
    private static int indexOf(String text, String name) {
        int index = 0;
        for (String line : text.split("\n")) {
            if (line.startsWith("    - name: ")) {
                if (line.equals("    - name: " + name)) {
                    return index;
                }
                index++;
            }
        }
        throw new AssertionError("no job " + name);
    }

    private static TaskRequest task(Map<String, PeriodicJob> jobs, String name) {
        PeriodicJob job = jobs.get(name);
        assertThat(job).as(name).isInstanceOf(DeclarativeJob.class);
        return ((DeclarativeJob) job).task();
    }

    private static Set<String> triggerNames(Scheduler quartz) throws SchedulerException {
        return quartz.getTriggerKeys(GroupMatcher.anyTriggerGroup()).stream().map(TriggerKey::getName)
                .collect(Collectors.toSet());
    }

    private static Throwable definitionError(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof JobDefinitionException) {
                return cause;
            }
        }
        throw new AssertionError("start-up did not fail with a JobDefinitionException", failure);
    }

    private static ConfigurableApplicationContext start(TestDatabase database, Path jobsFile) {
        List<String> args = new ArrayList<>(List.of("--spring.datasource.url=" + database.jdbcUrl(),
                "--spring.datasource.username=" + database.username(),
                "--spring.datasource.password=" + database.password(),
                "--spring.main.web-application-type=none", "--onebeat.demo.enabled=false",
                "--onebeat.retention.enabled=false", "--onebeat.relay.enabled=false",
                "--spring.config.additional-location=file:" + jobsFile));
        return new SpringApplicationBuilder(OnebeatApplication.class).run(args.toArray(String[]::new));
    }

    private record Result(int exit, String stdout, String stderr) {
    }

    private static Result python(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("/usr/bin/python3"));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).directory(PYTHON_DIR.toFile());
        builder.environment().put("PYTHONPATH", TEST_APP_DIR + java.io.File.pathSeparator + PYTHON_DIR);
        Path out = Files.createTempFile(dir, "python", ".out");
        Path err = Files.createTempFile(dir, "python", ".err");
        Process process = builder.redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        if (!process.waitFor(120, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("python did not finish in 120 s: " + command);
        }
        return new Result(process.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
                Files.readString(err, StandardCharsets.UTF_8));
    }
}
