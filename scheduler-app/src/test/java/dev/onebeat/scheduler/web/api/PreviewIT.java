package dev.onebeat.scheduler.web.api;

import static dev.onebeat.scheduler.ApiClient.detail;
import static dev.onebeat.scheduler.ApiClient.json;
import static org.assertj.core.api.Assertions.assertThat;

import dev.onebeat.scheduler.ApiClient;
import dev.onebeat.scheduler.SchedulerTestDatabase;
import dev.onebeat.scheduler.WebIT;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

/**
 * {@code GET /api/schedules/preview} around the daylight-saving changes of 2027: Europe/Paris springs
 * forward on 28 March (02:00 +01:00 becomes 03:00 +02:00, at 01:00Z) and falls back on 31 October
 * (03:00 +02:00 becomes 02:00 +01:00, at 01:00Z); America/New_York falls back on 7 November (02:00
 * -04:00 becomes 01:00 -05:00, at 06:00Z). Quartz's own calendar lost the spring-forward fire and
 * only ever fired the second of two times; onebeat fires each as the job's policy says.
 */
@WebIT(properties = {
        SchedulerTestDatabase.NO_DEMO, SchedulerTestDatabase.QUARTZ_STOPPED})
class PreviewIT {

    private static final String HALF_PAST_TWO_IN_PARIS = "cron=30 2 * * *&zone=Europe/Paris";
    private static final String SPRING = "&from=2027-03-27T00:00:00Z";
    private static final String AUTUMN = "&from=2027-10-30T00:00:00Z";

    @Autowired
    ApiClient server;

    private ApiClient api;

    @BeforeEach
    void client() {
        api = server.as("viewer");
    }

    @Nested
    class SpringForward {

        @Test
        void halfPastTwoIsShiftedToHalfPastThreeSummerTimeByDefault() throws Exception {
            JsonNode preview = preview(HALF_PAST_TWO_IN_PARIS + "&count=3" + SPRING);
            JsonNode fires = preview.get("fires");

            assertThat(fires.findValuesAsString("local")).containsExactly(
                    "2027-03-27T02:30:00+01:00", "2027-03-28T03:30:00+02:00", "2027-03-29T02:30:00+02:00");
            assertThat(fires.findValuesAsString("utc")).containsExactly(
                    "2027-03-27T01:30:00Z", "2027-03-28T01:30:00Z", "2027-03-29T00:30:00Z");
            assertThat(fires.findValuesAsString("kind")).containsExactly("REGULAR", "GAP_SHIFTED", "REGULAR");
            JsonNode shifted = fires.get(1);
            assertThat(shifted.get("wallClock").asString()).isEqualTo("2027-03-28T02:30:00");
            assertThat(shifted.get("offset").asString()).isEqualTo("+02:00");
            assertThat(shifted.get("fires").asBoolean()).isTrue();
            assertThat(shifted.get("rule").asString()).isEqualTo("gap=shift");
            assertThat(shifted.get("note").asString())
                    .isEqualTo("02:30 does not exist (clocks jump forward): shifted to 03:30+02:00 (gap=shift)");
            assertThat(fires.get(0).get("rule").isNull()).isTrue();
            assertThat(fires.get(0).get("note").isNull()).isTrue();
            assertThat(preview.get("gap").asString()).isEqualTo("shift");
            assertThat(preview.get("overlap").asString()).isEqualTo("first");
            assertThat(preview.get("schedule").asString()).isEqualTo("cron 0 30 2 * * ? Europe/Paris");
        }

        @Test
        void halfPastTwoIsListedAsSkippedUnderGapSkipAndTheCountIsOfFires() throws Exception {
            JsonNode preview = preview(HALF_PAST_TWO_IN_PARIS + "&gap=skip&count=3" + SPRING);
            JsonNode fires = preview.get("fires");

            assertThat(fires.findValuesAsString("utc")).containsExactly("2027-03-27T01:30:00Z",
                    "2027-03-28T01:30:00Z", "2027-03-29T00:30:00Z", "2027-03-30T00:30:00Z");
            assertThat(fires.findValuesAsString("kind"))
                    .containsExactly("REGULAR", "GAP_SKIPPED", "REGULAR", "REGULAR");
            JsonNode skipped = fires.get(1);
            assertThat(skipped.get("fires").asBoolean()).isFalse();
            assertThat(skipped.get("rule").asString()).isEqualTo("gap=skip");
            assertThat(skipped.get("note").asString())
                    .isEqualTo("02:30 does not exist (clocks jump forward): skipped (gap=skip)");
            assertThat(preview.get("schedule").asString())
                    .isEqualTo("cron 0 30 2 * * ? Europe/Paris gap=skip overlap=first");
        }

        @Test
        void hourlyCronInNewYorkCountsElapsedTimeAndIgnoresGapSkip() throws Exception {
            // 14 March 2027: 02:00 -05:00 becomes 03:00 -04:00 at 07:00Z; 02:00 lands on 03:00, which fires once
            JsonNode fires = preview("cron=0 * * * *&zone=America/New_York&gap=skip&count=3"
                    + "&from=2027-03-14T06:00:00Z").get("fires");

            assertThat(fires.findValuesAsString("utc"))
                    .containsExactly("2027-03-14T06:00:00Z", "2027-03-14T07:00:00Z", "2027-03-14T08:00:00Z");
            assertThat(fires.findValuesAsString("local")).containsExactly(
                    "2027-03-14T01:00:00-05:00", "2027-03-14T03:00:00-04:00", "2027-03-14T04:00:00-04:00");
            assertThat(fires.findValues("fires")).allMatch(JsonNode::asBoolean);
        }
    }

    @Nested
    class FallBack {

        @Test
        void halfPastTwoFiresOnceAtTheFirstHalfPastTwoByDefault() throws Exception {
            JsonNode fires = preview(HALF_PAST_TWO_IN_PARIS + "&count=3" + AUTUMN).get("fires");

            assertThat(fires.findValuesAsString("local")).containsExactly(
                    "2027-10-30T02:30:00+02:00", "2027-10-31T02:30:00+02:00", "2027-11-01T02:30:00+01:00");
            assertThat(fires.findValuesAsString("utc")).containsExactly(
                    "2027-10-30T00:30:00Z", "2027-10-31T00:30:00Z", "2027-11-01T01:30:00Z");
            assertThat(fires.get(1).get("kind").asString()).isEqualTo("OVERLAP_FIRST");
            assertThat(fires.get(1).get("rule").asString()).isEqualTo("overlap=first");
            assertThat(fires.get(1).get("note").asString())
                    .isEqualTo("02:30 happens twice (clocks go back): the first, at +02:00 (overlap=first)");
        }

        @Test
        void halfPastTwoFiresAtTheSecondHalfPastTwoUnderOverlapLast() throws Exception {
            JsonNode fires = preview(HALF_PAST_TWO_IN_PARIS + "&overlap=last&count=3" + AUTUMN).get("fires");

            assertThat(fires.findValuesAsString("utc")).containsExactly(
                    "2027-10-30T00:30:00Z", "2027-10-31T01:30:00Z", "2027-11-01T01:30:00Z");
            assertThat(fires.get(1).get("local").asString()).isEqualTo("2027-10-31T02:30:00+01:00");
            assertThat(fires.get(1).get("kind").asString()).isEqualTo("OVERLAP_SECOND");
            assertThat(fires.get(1).get("rule").asString()).isEqualTo("overlap=last");
        }

        @Test
        void halfPastTwoFiresTwiceUnderOverlapBoth() throws Exception {
            JsonNode fires = preview(HALF_PAST_TWO_IN_PARIS + "&overlap=both&count=4" + AUTUMN).get("fires");

            assertThat(fires.findValuesAsString("utc")).containsExactly("2027-10-30T00:30:00Z",
                    "2027-10-31T00:30:00Z", "2027-10-31T01:30:00Z", "2027-11-01T01:30:00Z");
            assertThat(fires.findValuesAsString("kind"))
                    .containsExactly("REGULAR", "OVERLAP_FIRST", "OVERLAP_SECOND", "REGULAR");
            assertThat(fires.get(1).get("rule").asString()).isEqualTo("overlap=both");
            assertThat(fires.get(2).get("rule").asString()).isEqualTo("overlap=both");
        }

        @Test
        void hourlyCronInNewYorkFiresBothOneOClocksWhateverTheOverlapRule() throws Exception {
            JsonNode fires = preview("cron=0 * * * *&zone=America/New_York&overlap=first&count=4"
                    + "&from=2027-11-07T04:00:00Z").get("fires");

            assertThat(fires.findValuesAsString("utc")).containsExactly(
                    "2027-11-07T04:00:00Z", "2027-11-07T05:00:00Z", "2027-11-07T06:00:00Z", "2027-11-07T07:00:00Z");
            assertThat(fires.findValuesAsString("local")).containsExactly("2027-11-07T00:00:00-04:00",
                    "2027-11-07T01:00:00-04:00", "2027-11-07T01:00:00-05:00", "2027-11-07T02:00:00-05:00");
            assertThat(fires.get(1).get("rule").asString()).isEqualTo("elapsed time");
            assertThat(fires.get(2).get("rule").asString()).isEqualTo("elapsed time");
        }
    }

    @Nested
    class Intervals {

        @Test
        void intervalPreviewIsAlignedToTheEpoch() throws Exception {
            JsonNode preview = preview("every=15m&count=2&from=2027-01-01T00:07:00Z");

            assertThat(preview.get("fires").findValuesAsString("utc"))
                    .containsExactly("2027-01-01T00:15:00Z", "2027-01-01T00:30:00Z");
            assertThat(preview.get("zone").asString()).isEqualTo("UTC");
            assertThat(preview.get("gap").isNull()).isTrue();
        }

        @Test
        void intervalWithAGapRuleIsBadRequestSayingIntervalsHaveNoDaylightSaving() throws Exception {
            HttpResponse<String> response = api.get("/api/schedules/preview?every=1h&gap=skip");

            assertThat(response.statusCode()).isEqualTo(400);
            assertThat(detail(response)).isEqualTo("gap: 'skip' applies to cron schedules only; an every schedule "
                    + "counts elapsed seconds and never meets a daylight-saving gap (remove gap, or use cron)");
        }
    }

    @Nested
    class BadParameters {

        @Test
        void badCronIsBadRequestNamingTheField() throws Exception {
            HttpResponse<String> response = api.get("/api/schedules/preview?cron=" + encode("61 * * * *"));

            assertThat(response.statusCode()).isEqualTo(400);
            assertThat(detail(response)).startsWith("cron: ");
        }

        @Test
        void unknownGapIsBadRequestNamingTheFieldAndTheRules() throws Exception {
            HttpResponse<String> response = api.get("/api/schedules/preview?cron=" + encode("30 2 * * *")
                    + "&gap=later");

            assertThat(response.statusCode()).isEqualTo(400);
            assertThat(detail(response)).isEqualTo("gap: 'later' is not one of shift, skip");
        }

        @Test
        void unknownOverlapIsBadRequestNamingTheFieldAndTheRules() throws Exception {
            HttpResponse<String> response = api.get("/api/schedules/preview?cron=" + encode("30 2 * * *")
                    + "&overlap=second");

            assertThat(response.statusCode()).isEqualTo(400);
            assertThat(detail(response)).isEqualTo("overlap: 'second' is not one of first, last, both");
        }

        @Test
        void fromBeyondYear9999IsBadRequestNamingTheParameter() throws Exception {
            HttpResponse<String> response = api.get("/api/schedules/preview?every=1h&from=%2B1000000-01-01T00:00:00Z");

            assertThat(response.statusCode()).isEqualTo(400);
            assertThat(detail(response)).startsWith("from: +1000000-01-01T00:00:00Z is out of range");
        }

        @Test
        void unknownZoneIsBadRequestNamingTheField() throws Exception {
            HttpResponse<String> response = api.get("/api/schedules/preview?cron=" + encode("0 8 * * *")
                    + "&zone=Mars/Olympus");

            assertThat(response.statusCode()).isEqualTo(400);
            assertThat(detail(response))
                    .isEqualTo("zone: 'Mars/Olympus' is not a known IANA time zone (e.g. Europe/Paris, UTC)");
        }

        @Test
        void neitherCronNorEveryIsBadRequest() throws Exception {
            HttpResponse<String> response = api.get("/api/schedules/preview");

            assertThat(response.statusCode()).isEqualTo(400);
            assertThat(detail(response))
                    .isEqualTo("cron, every: set exactly one of cron and every (cron='null', every='null')");
        }
    }

    private JsonNode preview(String query) throws Exception {
        HttpResponse<String> response = api.get("/api/schedules/preview?" + query.replace(" ", "%20"));
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        return json(response);
    }

    private static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }
}
