package dev.onebeat.scheduler.engine.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The namespaces of configuration: what is accepted, and how a refusal names the property. */
class NamespacesTest {

    @Test
    void defaultAlwaysExistsBesideTheDeclaredOnes() {
        Namespaces namespaces = namespaces(Map.of("payments", namespace(List.of("payments", "payments-*"), null)));

        assertThat(namespaces.names()).containsExactly("default", "payments");
        assertThat(namespaces.find("default")).hasValueSatisfying(found -> assertThat(found.handEdits())
                .isEqualTo(Namespaces.HandEdits.SHOW));
    }

    @Test
    void aQueuePatternStandsForAnyCharactersWhereItHasAStar() {
        Namespaces namespaces = namespaces(Map.of("payments", namespace(List.of("payments", "pay-*-eu"), null)));

        assertThat(namespaces.ownerOf("payments")).contains("payments");
        assertThat(namespaces.ownerOf("pay-cards-eu")).contains("payments");
        assertThat(namespaces.ownerOf("pay-cards-us")).isEmpty();
        assertThat(namespaces.ownerOf("payments.x")).as("a dot is no wildcard").isEmpty();
    }

    @Test
    void aJobSendsToItsNamespacesQueuesOnlyAndNeverToAnothersQueues() {
        Namespaces namespaces = namespaces(Map.of("payments", namespace(List.of("payments"), null),
                "reports", namespace(List.of(), null)));

        namespaces.checkQueue("queue", "payments", "payments");
        namespaces.checkQueue("queue", "reports", "default");
        assertThatThrownBy(() -> namespaces.checkQueue("queue", "reports", "payments"))
                .hasMessage("queue: queue 'payments' belongs to namespace 'payments'; a job of namespace 'reports' "
                        + "may not send to it");
        assertThatThrownBy(() -> namespaces.checkQueue("queue", "payments", "default"))
                .hasMessage("queue: namespace 'payments' sends to its own queues only (payments), not to 'default'");
    }

    @Test
    void aBadNameOrLimitIsRefusedNamingTheProperty() {
        assertThatThrownBy(() -> namespaces(Map.of("Team_A", namespace(List.of(), null))))
                .hasMessageStartingWith("onebeat.namespaces.Team_A: namespace must be 1 to 63 lower-case letters");
        assertThatThrownBy(() -> namespaces(Map.of("a", namespace(List.of(), 0))))
                .hasMessage("onebeat.namespaces.a.max-jobs: must be at least 1, was 0");
        assertThatThrownBy(() -> namespaces(Map.of("a", namespace(List.of(" q"), null))))
                .hasMessageStartingWith("onebeat.namespaces.a.queues[0]: must be a queue name or a pattern with *");
    }

    @Test
    void anUndeclaredNamespaceIsRefusedNamingTheOnesThereAre() {
        assertThatThrownBy(() -> namespaces(Map.of()).require("jobs[0].namespace", "billing"))
                .hasMessage("jobs[0].namespace: no namespace is named 'billing'; declare it under "
                        + "onebeat.namespaces.billing (namespaces: default)");
    }

    private static Namespaces namespaces(Map<String, NamespacesProperties.Namespace> declared) {
        return new Namespaces(new NamespacesProperties(declared));
    }

    private static NamespacesProperties.Namespace namespace(List<String> queues, Integer maxJobs) {
        return new NamespacesProperties.Namespace(queues, maxJobs, null, "show");
    }
}
