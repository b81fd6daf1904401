package dev.onebeat.scheduler.engine.registry;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onebeat.job.Jobs;
import dev.onebeat.job.Schedule;
import java.time.Duration;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** The names a registry remembers as changed, by generation, for a reader that knows only which one it saw last. */
class JobRegistryChangesTest {

    private final JobRegistry registry = JobRegistry.of(List.of(new RegisteredJob(job("coded").job(), "code")));

    @Test
    void changesSinceAGenerationAreTheNamesOfEveryOverlayAfterIt() {
        registry.overlay(List.of(job("a")));
        long whole = registry.generation();
        registry.overlay(List.of(job("b")), List.of());
        long afterB = registry.generation();
        registry.overlay(List.of(job("c"), job("coded")), List.of("a"));

        assertThat(registry.changedSince(whole)).containsExactlyInAnyOrder("b", "c", "coded", "a");
        assertThat(registry.changedSince(afterB)).containsExactlyInAnyOrder("c", "coded", "a");
        assertThat(registry.changedSince(registry.generation())).isEmpty();
        assertThat(registry.changedSince(whole - 1)).as("before the whole overlay: not known by name").isNull();
        assertThat(registry.find("a")).isEmpty();
        assertThat(registry.find("coded").orElseThrow().origin()).isEqualTo("runtime");
    }

    @Test
    void anOverlayThatChangesNothingMakesNoGeneration() {
        long before = registry.generation();
        registry.overlay(List.of(), List.of());
        assertThat(registry.generation()).isEqualTo(before);
    }

    @Test
    void pastItsBoundTheOldestChangesAreForgottenAndTheirGenerationsAreNotKnownByName() {
        registry.overlay(List.of());
        long whole = registry.generation();
        List<String> half = IntStream.range(0, JobRegistry.CHANGED_NAMES / 2 + 1).mapToObj(i -> "gone-" + i).toList();
        registry.overlay(List.of(), half);
        long first = registry.generation();
        registry.overlay(List.of(), half);
        long second = registry.generation();
        registry.overlay(List.of(job("last")), List.of());

        assertThat(registry.changedSince(whole)).as("the first overlay's names were let go").isNull();
        assertThat(registry.changedSince(first)).hasSize(half.size() + 1);
        assertThat(registry.changedSince(second)).containsExactly("last");
    }

    @Test
    void changedInPlaceTheRegistryHoldsWhatAWholeOverlayOfTheSameJobsWould() {
        JobRegistry two = JobRegistry.of(List.of(new RegisteredJob(job("coded").job(), "code"),
                new RegisteredJob(job("other").job(), "code")));
        two.overlay(List.of(job("a"), job("b"), job("coded")));
        two.overlay(List.of(job("c")), List.of("a", "coded"));
        two.overlay(List.of(job("other"), job("a")), List.of("c"));

        assertThat(two.all()).extracting(RegisteredJob::name).as("defined first, in their order; then the runtime jobs")
                .hasSize(4).startsWith("coded", "other").containsExactlyInAnyOrder("coded", "other", "a", "b");
        assertThat(two.all()).hasSize(4);
        assertThat(two.find("coded").orElseThrow().origin()).as("its override removed").isEqualTo("code");
        assertThat(two.find("other").orElseThrow().origin()).as("rescheduled").isEqualTo("runtime");
        assertThat(two.find("c")).isEmpty();

        two.overlay(List.of(job("x")));
        assertThat(two.all()).extracting(RegisteredJob::name).containsExactly("coded", "other", "x");
        assertThat(two.find("a")).as("a whole overlay replaces every change before it").isEmpty();
    }

    private static RegisteredJob job(String name) {
        return new RegisteredJob(Jobs.periodic(name, Schedule.every(Duration.ofMinutes(1))).execute(context -> { }),
                "runtime");
    }
}
