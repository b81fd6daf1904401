package dev.onebeat.scheduler.web.api;

import static dev.onebeat.scheduler.ApiClient.detail;
import static dev.onebeat.scheduler.ApiClient.json;
import static org.assertj.core.api.Assertions.assertThat;

import dev.onebeat.scheduler.ApiClient;
import dev.onebeat.scheduler.SchedulerTestDatabase;
import dev.onebeat.scheduler.WebIT;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

/** Request bodies that are not JSON, or whose fields have the wrong type or name: a 400 naming the field. */
@WebIT(properties = {
        SchedulerTestDatabase.NO_DEMO, SchedulerTestDatabase.QUARTZ_STOPPED,
        "onebeat.jobs[0].name=configured", "onebeat.jobs[0].cron=0 6 1 1 *", "onebeat.jobs[0].task=ops.configured"})
class MalformedBodyIT {

    @Autowired
    ApiClient server;

    private ApiClient api;

    @BeforeEach
    void client() {
        api = server.as("admin");
    }

    @Nested
    class WrongType {

        @Test
        void argsThatIsNotAListIsBadRequestQuotingTheValueAndCreatesNothing() throws Exception {
            HttpResponse<String> response = api.send("POST", "/api/jobs",
                    "{\"name\":\"x\",\"every\":\"10s\",\"task\":\"t\",\"args\":\"notalist\"}");

            assertThat(response.statusCode()).isEqualTo(400);
            assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(
                    type -> assertThat(type).startsWith("application/problem+json"));
            assertThat(detail(response)).isEqualTo("args: expected a list, got \"notalist\"");
            assertThat(api.get("/api/jobs/x").statusCode()).isEqualTo(404);
        }

        @Test
        void kwargsThatIsAListIsBadRequestNamingTheField() throws Exception {
            HttpResponse<String> response = api.send("POST", "/api/jobs",
                    "{\"name\":\"y\",\"every\":\"10s\",\"task\":\"t\",\"kwargs\":[1,2]}");

            assertThat(response.statusCode()).isEqualTo(400);
            assertThat(detail(response)).isEqualTo("kwargs: expected an object, got a list");
        }

        @Test
        void cronThatIsAnObjectIsBadRequestNamingTheField() throws Exception {
            HttpResponse<String> response = api.send("PUT", "/api/jobs/configured", "{\"cron\":{\"hour\":6}}");

            assertThat(response.statusCode()).isEqualTo(400);
            assertThat(detail(response)).isEqualTo("cron: expected a string, got an object");
        }

        @Test
        void lockAtMostForThatIsANumberIsBadRequestNamingTheField() throws Exception {
            HttpResponse<String> response = api.send("POST", "/api/jobs",
                    "{\"name\":\"z\",\"every\":\"10s\",\"task\":\"t\",\"lockAtMostFor\": 5 }");

            assertThat(response.statusCode()).isEqualTo(400);
            assertThat(detail(response)).isEqualTo("lockAtMostFor: expected a string, got 5");
        }

        @Test
        void overlapThatIsABooleanIsBadRequestNamingTheField() throws Exception {
            HttpResponse<String> response = api.send("POST", "/api/jobs",
                    "{\"name\":\"z\",\"cron\":\"30 2 * * *\",\"task\":\"t\",\"overlap\": true }");

            assertThat(response.statusCode()).isEqualTo(400);
            assertThat(detail(response)).isEqualTo("overlap: expected a string, got true");
        }

        @Test
        void bodyThatIsNotAnObjectIsBadRequest() throws Exception {
            HttpResponse<String> response = api.send("POST", "/api/jobs", "[\"x\"]");

            assertThat(response.statusCode()).isEqualTo(400);
            assertThat(detail(response)).isEqualTo("request body: expected a JSON object with the fields of a job, "
                    + "got array");
        }

        @Test
        void triggerRequestIdThatIsAnObjectIsBadRequestNamingTheField() throws Exception {
            HttpResponse<String> response = api.send("POST", "/api/jobs/configured/trigger",
                    "{\"requestId\":{\"a\":1}}");

            assertThat(response.statusCode()).isEqualTo(400);
            assertThat(detail(response)).isEqualTo("requestId: expected a string, got an object");
        }
    }

    @Nested
    class UnknownField {

        @Test
        void misspeltFieldIsBadRequestListingTheKnownOnesAndCreatesNothing() throws Exception {
            HttpResponse<String> response = api.send("POST", "/api/jobs",
                    "{\"name\":\"typo\",\"crn\":\"0 6 * * *\",\"task\":\"t\"}");

            assertThat(response.statusCode()).isEqualTo(400);
            assertThat(detail(response)).isEqualTo("crn: is not a field; known fields are "
                    + "[activeFrom, activeUntil, alerts, args, calendars, catchUpWindow, cron, every, gap, jitter, kwargs, "
                    + "lockAtMostFor, maxCatchUp, misfire, name, namespace, options, overlap, overlapPolicy, queue, retry, spread, task, "
                    + "zone]");
            assertThat(api.get("/api/jobs/typo").statusCode()).isEqualTo(404);
        }

        @Test
        void misspeltFieldInARescheduleLeavesTheScheduleAsItWas() throws Exception {
            HttpResponse<String> response = api.send("PUT", "/api/jobs/configured", "{\"evry\":\"10s\"}");

            assertThat(response.statusCode()).isEqualTo(400);
            assertThat(detail(response)).startsWith("evry: is not a field");
            assertThat(json(api.get("/api/jobs/configured")).get("schedule").asString())
                    .isEqualTo("0 6 1 1 *");
        }
    }

    @Nested
    class NotJson {

        @Test
        void brokenSyntaxIsBadRequestWithLineAndColumn() throws Exception {
            HttpResponse<String> response = api.send("POST", "/api/jobs", "{\n  \"name\": \"x\",\n  \"every\": \n}");

            assertThat(response.statusCode()).isEqualTo(400);
            assertThat(detail(response)).startsWith("request body is not valid JSON: ").contains("(line 4, column 1)");
        }

        @Test
        void truncatedBodyIsBadRequest() throws Exception {
            HttpResponse<String> response = api.send("POST", "/api/jobs", "{\"name\":\"x\"");

            assertThat(response.statusCode()).isEqualTo(400);
            assertThat(detail(response)).startsWith("request body is not valid JSON: ");
        }

        @Test
        void missingBodyIsBadRequest() throws Exception {
            HttpResponse<String> response = api.send("POST", "/api/jobs", "");

            assertThat(response.statusCode()).isEqualTo(400);
            assertThat(detail(response)).isEqualTo("request body is missing; send a JSON object");
        }
    }
}
