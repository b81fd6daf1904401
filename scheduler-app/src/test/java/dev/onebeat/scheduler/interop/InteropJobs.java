package dev.onebeat.scheduler.interop;

import dev.onebeat.job.Jobs;
import dev.onebeat.job.PeriodicJob;
import dev.onebeat.job.Schedule;
import dev.onebeat.job.TaskRequest;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.test.context.DynamicPropertyRegistry;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The jobs an interop test's replica runs, both every second: a code job fanning out
 * {@value #ENTITIES} tasks per fire, one per tenant, whose arguments hold every JSON kind (non-ASCII
 * and astral text, escapes, nesting, int, long, float, bool, null), and a declarative job with
 * {@code args}/{@code kwargs} from properties. Knows the arguments each task must arrive with.
 */
final class InteropJobs {

    /** The code job's name; its tasks' entities are {@code tenant:1} to {@code tenant:}{@value #ENTITIES}. */
    static final String FAN_OUT_JOB = "interop-fan-out";
    /** The declarative job's name. */
    static final String DECLARATIVE_JOB = "interop-declarative";
    /** Tasks per fire of the code job. */
    static final int ENTITIES = 20;

    private static final JsonMapper JSON = JsonMapper.builder().build();
    // written as text, as environment variables and command-line properties are, and typed as written:
    // a number, a string that looks like a number (quoted), text, a boolean, a list
    private static final List<String> DECLARATIVE_ARGS_WRITTEN = List.of("2", "\"7\"", "Grüße ✓ 🚀", "true", "[1, 2.5]");
    private static final List<Object> DECLARATIVE_ARGS = List.of(2, "7", "Grüße ✓ 🚀", true, List.of(1, 2.5));
    private static final Map<String, String> DECLARATIVE_KWARGS_WRITTEN = Map.of("region", "eu-west", "note", "naïve",
            "count", "3");
    private static final Map<String, Object> DECLARATIVE_KWARGS = Map.of("region", "eu-west", "note", "naïve", "count", 3);

    private InteropJobs() {
    }

    /**
     * @param task the task name the worker knows
     * @param queue the queue both jobs dispatch to
     * @return the code job, for a {@code @Bean} of the test's configuration
     */
    static PeriodicJob fanOut(String task, String queue) {
        return Jobs.periodic(FAN_OUT_JOB, Schedule.every(Duration.ofSeconds(1))).execute(context -> {
            for (int tenant = 1; tenant <= ENTITIES; tenant++) {
                context.dispatch(TaskRequest.builder(task).queue(queue).entity("tenant", tenant)
                        .args(args(tenant)).kwargs(kwargs(tenant)).build());
            }
        });
    }

    /**
     * Adds the declarative job as {@code onebeat.jobs[0]}: the whole list, since a list bound from two
     * property sources keeps only the higher one's entries.
     */
    static void registerDeclarative(DynamicPropertyRegistry registry, String task, String queue) {
        registry.add("onebeat.jobs[0].name", () -> DECLARATIVE_JOB);
        registry.add("onebeat.jobs[0].every", () -> "1s");
        registry.add("onebeat.jobs[0].task", () -> task);
        registry.add("onebeat.jobs[0].queue", () -> queue);
        for (int i = 0; i < DECLARATIVE_ARGS_WRITTEN.size(); i++) {
            String value = DECLARATIVE_ARGS_WRITTEN.get(i);
            registry.add("onebeat.jobs[0].args[" + i + "]", () -> value);
        }
        DECLARATIVE_KWARGS_WRITTEN.forEach((name, value) -> registry.add("onebeat.jobs[0].kwargs." + name, () -> value));
    }

    /**
     * @param job the job that dispatched the task
     * @param entityId the task's entity id, {@code null} for the declarative job
     * @return the positional arguments the worker must receive, as JSON read back from text
     */
    static JsonNode expectedArgs(String job, String entityId) {
        return normalised(FAN_OUT_JOB.equals(job) ? args(Integer.parseInt(entityId)) : DECLARATIVE_ARGS);
    }

    /** @return the keyword arguments the worker must receive, see {@link #expectedArgs} */
    static JsonNode expectedKwargs(String job, String entityId) {
        return normalised(FAN_OUT_JOB.equals(job) ? kwargs(Integer.parseInt(entityId)) : DECLARATIVE_KWARGS);
    }

    private static List<Object> args(int tenant) {
        return Arrays.asList(tenant, "Zürich ✓ 東京 🚀", List.of(1, List.of(2, Map.of("k", "v", "empty", Map.of())), List.of()),
                2.5, true, null, -7, 1_099_511_627_776L, 0.1, 1.0e-7);
    }

    private static Map<String, Object> kwargs(int tenant) {
        Map<String, Object> nested = new LinkedHashMap<>();
        nested.put("list", Arrays.asList(1, "two", 3.25, false, null));
        nested.put("map", Map.of("inner", "🚀"));
        Map<String, Object> kwargs = new LinkedHashMap<>();
        kwargs.put("tenant", tenant);
        kwargs.put("label", "ünïcødé \"quoted\" \\ back\nslash\ttab");
        kwargs.put("nested", nested);
        kwargs.put("ratio", 0.125);
        kwargs.put("flag", false);
        kwargs.put("nothing", null);
        return kwargs;
    }

    // read back from text, as the worker's record is, so an int and a long of one value compare equal
    private static JsonNode normalised(Object value) {
        return JSON.readTree(JSON.writeValueAsString(value));
    }
}
