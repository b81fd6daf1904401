package dev.onebeat.scheduler.engine.registry;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onebeat.scheduler.engine.registry.JobsProperties.Alerts;
import dev.onebeat.scheduler.engine.registry.JobsProperties.Definition;
import dev.onebeat.scheduler.engine.registry.JobsProperties.Options;
import dev.onebeat.scheduler.engine.registry.JobsProperties.Retry;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/**
 * A definition is the JSON of {@code onebeat_runtime_job.definition} and of the admin API's job bodies: rows
 * stored by earlier versions must still load, and a definition must be written as they were, byte for byte.
 */
class DefinitionJsonTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    /** Every field set, as a runtime job created through the API before definitions had a builder was stored. */
    private static final String STORED_FULL = "{\"name\":\"nightly-export\",\"cron\":\"0 2 * * *\",\"every\":null,"
            + "\"zone\":\"Europe/Paris\",\"task\":\"exports.nightly\",\"queue\":\"exports\",\"args\":[1,\"two\"],"
            + "\"kwargs\":{\"k\":true},\"misfire\":\"fire-all-missed\",\"lockAtMostFor\":\"5m\",\"gap\":\"skip\","
            + "\"overlap\":\"both\",\"retry\":{\"attempts\":5,\"backoff\":\"30s\",\"maxBackoff\":\"10m\"},"
            + "\"catchUpWindow\":\"2h\",\"maxCatchUp\":4,\"overlapPolicy\":\"skip\",\"alerts\":{\"enabled\":true,"
            + "\"grace\":\"1m\",\"afterFailures\":2,\"resolveAfter\":3,\"healthchecksUrl\":\"https://hc.example/ping/abc\","
            + "\"sentryMonitor\":\"nightly\"},\"options\":{\"expires\":\"1h\",\"priority\":7,\"exchange\":\"exports-x\","
            + "\"routingKey\":\"exports.rk\",\"headers\":{\"x-team\":\"data\"}}}";

    /** Only a name, an interval and a task: every other field written as null. */
    private static final String STORED_SPARSE = "{\"name\":\"tick\",\"cron\":null,\"every\":\"10s\",\"zone\":null,"
            + "\"task\":\"t\",\"queue\":null,\"args\":null,\"kwargs\":null,\"misfire\":null,\"lockAtMostFor\":null,"
            + "\"gap\":null,\"overlap\":null,\"retry\":null,\"catchUpWindow\":null,\"maxCatchUp\":null,"
            + "\"overlapPolicy\":null,\"alerts\":null,\"options\":null}";

    private static final Definition FULL = Definition.builder("nightly-export")
            .cron("0 2 * * *").zone("Europe/Paris").gap("skip").overlap("both")
            .task("exports.nightly").queue("exports").args(List.of(1, "two")).kwargs(Map.of("k", true))
            .misfire("fire-all-missed").lockAtMostFor("5m").retry(new Retry(5, "30s", "10m"))
            .catchUpWindow("2h").maxCatchUp(4).overlapPolicy("skip")
            .alerts(new Alerts(true, "1m", 2, 3, "https://hc.example/ping/abc", "nightly"))
            .options(new Options("1h", 7, "exports-x", "exports.rk", Map.of("x-team", "data")))
            .build();

    private static final Definition SPARSE = Definition.builder("tick").every("10s").task("t").build();

    @Nested
    class StoredRows {

        @Test
        void aRowWithEveryFieldLoadsAsTheDefinitionItWasWrittenFrom() {
            assertThat(JSON.readValue(STORED_FULL, Definition.class)).isEqualTo(FULL);
        }

        @Test
        void aRowWithOnlyTheRequiredFieldsLoadsWithTheOthersUnset() {
            assertThat(JSON.readValue(STORED_SPARSE, Definition.class)).isEqualTo(SPARSE);
        }

        @Test
        void aRowWithoutTheFieldsAddedLaterLoadsWithThemUnset() {
            assertThat(JSON.readValue("{\"name\":\"tick\",\"every\":\"10s\",\"task\":\"t\"}", Definition.class))
                    .isEqualTo(SPARSE);
        }
    }

    @Nested
    class Written {

        @Test
        void aDefinitionIsWrittenAsEarlierVersionsWroteIt() {
            // the fields added later come last, unset when not given
            assertThat(JSON.writeValueAsString(FULL)).isEqualTo(withLaterFields(STORED_FULL, "null", "null"));
            assertThat(JSON.writeValueAsString(SPARSE)).isEqualTo(withLaterFields(STORED_SPARSE, "null", "null"));
        }

        @Test
        void aJitterAndASpreadAreWrittenAfterTheFieldsOfEarlierVersions() {
            Definition moved = FULL.toBuilder().jitter("30s").spread("1m").build();

            String written = JSON.writeValueAsString(moved);

            assertThat(written).isEqualTo(withLaterFields(STORED_FULL, "\"30s\"", "\"1m\""));
            assertThat(JSON.readValue(written, Definition.class)).isEqualTo(moved);
        }

        private static String withLaterFields(String stored, String jitter, String spread) {
            return stored.substring(0, stored.length() - 1) + ",\"jitter\":" + jitter + ",\"spread\":" + spread
                    + ",\"calendars\":null,\"activeFrom\":null,\"activeUntil\":null,\"namespace\":null}";
        }
    }

    @Nested
    class Builder {

        @Test
        void leavesEveryFieldItIsNotGivenUnset() {
            assertThat(Definition.builder("tick").build()).isEqualTo(new Definition("tick", null, null, null, null,
                    null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null,
                    null, null, null));
        }

        @Test
        void copiesEveryFieldOfADefinitionToChangeSome() {
            assertThat(FULL.toBuilder().build()).isEqualTo(FULL);
            assertThat(FULL.toBuilder().every("1h").cron(null).build())
                    .isEqualTo(new Definition("nightly-export", null, "1h", "Europe/Paris", "exports.nightly", "exports",
                            List.of(1, "two"), Map.of("k", true), "fire-all-missed", "5m", "skip", "both",
                            new Retry(5, "30s", "10m"), "2h", 4, "skip",
                            new Alerts(true, "1m", 2, 3, "https://hc.example/ping/abc", "nightly"),
                            new Options("1h", 7, "exports-x", "exports.rk", Map.of("x-team", "data")), null, null, null, null,
                            null, null));
        }

        @Test
        void setsTheWholeScheduleAtOnceUnsettingWhatItIsNotGiven() {
            assertThat(FULL.toBuilder().schedule(null, "1h", null, null, null).build())
                    .extracting(Definition::cron, Definition::every, Definition::zone, Definition::gap, Definition::overlap)
                    .containsExactly(null, "1h", null, null, null);
        }
    }
}
