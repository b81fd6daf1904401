package dev.onebeat.scheduler.web.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.csrf;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.request;

import dev.onebeat.scheduler.SchedulerIT;
import dev.onebeat.scheduler.SchedulerTestDatabase;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.request.MockHttpServletRequestBuilder;
import org.springframework.web.util.HtmlUtils;

/**
 * Namespaces through the real filter chain, the real handlers and the real database: every endpoint that reaches one
 * job or one task, asked by a token of each role in one namespace, about an object of its own namespace and of the
 * other one. A caller that holds the endpoint's role in no namespace is refused 403 by the URL rules, whatever it asks
 * about; otherwise a job or task of a namespace it has no role in is answered 404, as one that does not exist, one of
 * a namespace where its role is too low 403, and the rest reaches the handler. The lists show the caller's
 * namespaces only; the cluster's own endpoints need a role over the cluster.
 */
@SchedulerIT(properties = {SchedulerTestDatabase.NO_DEMO, SchedulerTestDatabase.QUARTZ_STOPPED,
        "onebeat.namespaces.payments.queues=payments,payments-*",
        "onebeat.namespaces.payments.max-jobs=4",
        "onebeat.namespaces.reports.max-fires-per-instant=2",
        "onebeat.security.tokens[0].name=cluster-admin",
        "onebeat.security.tokens[0].token-sha256=9d09d479fb4416818c405734ac59adc34263c53edd39602bcb16598dbc4efdee",
        "onebeat.security.tokens[0].role=admin",
        "onebeat.security.tokens[1].name=pay-viewer",
        "onebeat.security.tokens[1].token-sha256=23a2f778e369468bcc2d23a9d4ba96fdd02f616c6e551d7d7bd53e6dda254cde",
        "onebeat.security.tokens[1].namespaces.payments=viewer",
        "onebeat.security.tokens[2].name=pay-operator",
        "onebeat.security.tokens[2].token-sha256=db326741c0982a2f341ed6025c3f302b241e59a3e9633b78a30e86cd03a5d8fe",
        "onebeat.security.tokens[2].namespaces.payments=operator",
        "onebeat.security.tokens[3].name=pay-admin",
        "onebeat.security.tokens[3].token-sha256=748d94a338432e20df2cc15a3edb54e526720ab4521b82f552fcee1048114620",
        "onebeat.security.tokens[3].namespaces.payments=admin",
        "onebeat.security.tokens[4].name=rep-viewer",
        "onebeat.security.tokens[4].token-sha256=18875b0b185ec6f91d9adf9b4adc3a431c904ab6df1eb98d19a56b33f1e51dbd",
        "onebeat.security.tokens[4].namespaces.reports=viewer"})
@AutoConfigureMockMvc
class NamespaceMatrixIT {

    private static final String PAY_JOB = "ns-pay-job";
    private static final String REP_JOB = "ns-rep-job";
    /** The tokens and the role each has in payments (none in reports, but rep-viewer). */
    private static final Map<String, String> TOKENS = Map.of("cluster-admin", "ns-cluster-admin",
            "pay-viewer", "ns-pay-viewer", "pay-operator", "ns-pay-operator", "pay-admin", "ns-pay-admin",
            "rep-viewer", "ns-rep-viewer");
    private static final Map<String, Map<String, Role>> ROLES = Map.of(
            "pay-viewer", Map.of("payments", Role.VIEWER),
            "pay-operator", Map.of("payments", Role.OPERATOR),
            "pay-admin", Map.of("payments", Role.ADMIN),
            "rep-viewer", Map.of("reports", Role.VIEWER));

    @Autowired
    MockMvc mvc;
    @Autowired
    JdbcClient jdbc;

    /**
     * One endpoint about one job or task.
     *
     * @param path with {@code {job}} or {@code {task}} for the object asked about
     * @param needed the role it asks for in the object's namespace
     * @param body a JSON body, or null
     */
    private record Endpoint(String method, String path, Role needed, String body) {

        boolean task() {
            return path.contains("{task}");
        }

        boolean namespace() {
            return path.contains("{namespace}");
        }
    }

    private static final List<Endpoint> ENDPOINTS = List.of(
            new Endpoint("GET", "/api/jobs/{job}", Role.VIEWER, null),
            new Endpoint("GET", "/api/jobs/{job}/fires", Role.VIEWER, null),
            new Endpoint("GET", "/api/jobs/{job}/instants", Role.VIEWER, null),
            new Endpoint("GET", "/api/jobs/{job}/backfills", Role.VIEWER, null),
            new Endpoint("GET", "/api/jobs/{job}/backfills/1", Role.VIEWER, null),
            new Endpoint("POST", "/api/jobs/{job}/pause", Role.OPERATOR, null),
            new Endpoint("POST", "/api/jobs/{job}/resume", Role.OPERATOR, null),
            new Endpoint("POST", "/api/jobs/{job}/trigger", Role.OPERATOR, null),
            new Endpoint("POST", "/api/jobs/{job}/instants/2027-01-01T00:00:00Z/run", Role.OPERATOR, null),
            new Endpoint("POST", "/api/jobs/{job}/backfill", Role.OPERATOR, "{\"from\":\"x\"}"),
            new Endpoint("POST", "/api/jobs/{job}/backfills/1/cancel", Role.OPERATOR, null),
            new Endpoint("PUT", "/api/jobs/{job}", Role.ADMIN, "{\"every\":\"not a duration\"}"),
            new Endpoint("DELETE", "/api/jobs/{job}/schedule", Role.ADMIN, null),
            new Endpoint("DELETE", "/api/jobs/{job}", Role.ADMIN, null),
            new Endpoint("POST", "/api/tasks/{task}/retry", Role.OPERATOR, null),
            new Endpoint("POST", "/api/tasks/{task}/discard", Role.OPERATOR, null),
            new Endpoint("GET", "/ui/jobs/{job}", Role.VIEWER, null),
            new Endpoint("POST", "/ui/jobs/{job}/pause", Role.OPERATOR, null),
            new Endpoint("POST", "/ui/jobs/{job}/resume", Role.OPERATOR, null),
            new Endpoint("POST", "/ui/jobs/{job}/trigger", Role.OPERATOR, null),
            new Endpoint("POST", "/ui/jobs/{job}/instants/2027-01-01T00:00:00Z/run", Role.OPERATOR, null),
            new Endpoint("POST", "/ui/jobs/{job}/backfill", Role.OPERATOR, null),
            new Endpoint("POST", "/ui/jobs/{job}/backfills/1/cancel", Role.OPERATOR, null),
            new Endpoint("POST", "/ui/jobs/{job}/schedule", Role.ADMIN, null),
            new Endpoint("POST", "/ui/jobs/{job}/delete", Role.ADMIN, null),
            new Endpoint("POST", "/ui/tasks/{task}/retry", Role.OPERATOR, null),
            new Endpoint("POST", "/ui/tasks/{task}/discard", Role.OPERATOR, null),
            // an empty job file: a plan of nothing to create, an apply that changes nothing (no prune)
            new Endpoint("POST", "/api/namespaces/{namespace}/plan", Role.VIEWER, "onebeat: {jobs: []}"),
            new Endpoint("POST", "/api/namespaces/{namespace}/apply", Role.ADMIN, "onebeat: {jobs: []}"));

    static Stream<Arguments> matrix() {
        List<Arguments> cases = new ArrayList<>();
        for (Endpoint endpoint : ENDPOINTS) {
            for (String caller : List.of("cluster-admin", "pay-viewer", "pay-operator", "pay-admin", "rep-viewer")) {
                for (String namespace : List.of("payments", "reports")) {
                    cases.add(Arguments.of(endpoint.method(), endpoint.path(), caller, namespace, endpoint));
                }
            }
        }
        return cases.stream();
    }

    @BeforeEach
    void oneJobAndOneFailedTaskInEachNamespace() throws Exception {
        for (String[] job : new String[][] {{PAY_JOB, "payments", "payments"}, {REP_JOB, "reports", "reports"}}) {
            MockHttpServletResponse created = send("cluster-admin", "POST", "/api/jobs", "{\"name\":\"" + job[0]
                    + "\",\"every\":\"1h\",\"task\":\"t\",\"queue\":\"" + job[2] + "\",\"namespace\":\"" + job[1]
                    + "\"}");
            assertThat(created.getStatus()).as(created.getContentAsString()).isIn(201, 409);
            jdbc.sql("""
                            INSERT INTO onebeat_task (idempotency_key, job_name, scheduled_at, task, queue, payload, status)
                            VALUES (?, ?, now(), 't', ?, '{}'::jsonb, 'failed') ON CONFLICT DO NOTHING""")
                    .params("ns-matrix/" + job[0], job[0], job[2]).update();
            jdbc.sql("UPDATE onebeat_task SET status = 'failed' WHERE idempotency_key = ?")
                    .param("ns-matrix/" + job[0]).update();
        }
    }

    @ParameterizedTest(name = "{0} {1} as {2} on the job of {3}")
    @MethodSource("matrix")
    void eachEndpointAnswersByTheCallersRoleInTheObjectsNamespace(String method, String path, String caller,
                                                                  String namespace, Endpoint endpoint)
            throws Exception {
        String job = namespace.equals("payments") ? PAY_JOB : REP_JOB;
        long task = jdbc.sql("SELECT id FROM onebeat_task WHERE idempotency_key = ?").param("ns-matrix/" + job)
                .query(Long.class).single();
        String target = path.replace("{job}", job).replace("{task}", Long.toString(task))
                .replace("{namespace}", namespace);

        MockHttpServletResponse response = send(caller, method, target, endpoint.body());

        // a console page escapes the quotes of its message
        String body = HtmlUtils.htmlUnescape(response.getContentAsString());
        String answer = response.getStatus() + " " + body;
        Role role = caller.equals("cluster-admin") ? Role.ADMIN
                : ROLES.get(caller).get(namespace);
        Role highest = caller.equals("cluster-admin") ? Role.ADMIN
                : ROLES.get(caller).values().stream().max(Role::compareTo).orElseThrow();
        String hidden = endpoint.task() ? "no task with id " + task : endpoint.namespace()
                ? "no namespace named '" + namespace + "'" : "no job named '" + job + "'";
        if (highest.compareTo(endpoint.needed()) < 0) {
            // the caller holds the endpoint's role nowhere: refused before any job or task is looked up
            assertThat(response.getStatus()).as(answer).isEqualTo(403);
        } else if (role == null) {
            assertThat(response.getStatus()).as(answer).isEqualTo(404);
            assertThat(body).as("as if it did not exist").contains(hidden);
        } else if (role.compareTo(endpoint.needed()) < 0) {
            assertThat(response.getStatus()).as(answer).isEqualTo(403);
            if (target.startsWith("/api/")) {
                assertThat(response.getContentAsString()).contains("in namespace '" + namespace + "'");
            }
        } else {
            assertThat(response.getStatus()).as(answer).isNotIn(401, 403);
            assertThat(response.getStatus() == 404 && body.contains(hidden)).as(answer)
                    .isFalse();
        }
    }

    /** The endpoints that reach no one job, task or namespace: a role anywhere is what they ask for. */
    @ParameterizedTest(name = "{0} {1} as {2}")
    @CsvSource(delimiter = '|', textBlock = """
            GET  | /api/jobs                | VIEWER
            GET  | /api/tasks               | VIEWER
            GET  | /api/audit               | VIEWER
            GET  | /api/namespaces          | VIEWER
            GET  | /api/calendars           | VIEWER
            GET  | /api/schedules/preview?every=1h | VIEWER
            GET  | /ui                      | VIEWER
            GET  | /ui/jobs                 | VIEWER
            GET  | /ui/tasks                | VIEWER
            GET  | /ui/audit                | VIEWER
            GET  | /ui/calendars            | VIEWER
            GET  | /ui/new-job              | VIEWER
            """)
    void anEndpointOfNoOneObjectNeedsItsRoleInSomeNamespace(String method, String path, Role needed)
            throws Exception {
        for (String caller : TOKENS.keySet()) {
            Role highest = caller.equals("cluster-admin") ? Role.ADMIN
                    : ROLES.get(caller).values().stream().max(Role::compareTo).orElseThrow();
            int status = send(caller, method, path, null).getStatus();
            if (highest.compareTo(needed) >= 0) {
                assertThat(status).as(caller).isEqualTo(200);
            } else {
                assertThat(status).as(caller).isEqualTo(403);
            }
        }
    }

    @Test
    void listsShowTheCallersNamespacesOnly() throws Exception {
        assertThat(body("pay-operator", "/api/jobs")).contains(PAY_JOB).doesNotContain(REP_JOB);
        assertThat(body("rep-viewer", "/api/jobs")).contains(REP_JOB).doesNotContain(PAY_JOB);
        assertThat(body("cluster-admin", "/api/jobs")).contains(PAY_JOB, REP_JOB);
        assertThat(body("cluster-admin", "/api/jobs?namespace=reports")).contains(REP_JOB).doesNotContain(PAY_JOB);
        assertThat(body("pay-operator", "/api/jobs?namespace=reports")).as("a namespace it has no role in")
                .doesNotContain(REP_JOB);
        assertThat(body("pay-operator", "/api/tasks")).contains(PAY_JOB).doesNotContain(REP_JOB);
        assertThat(body("rep-viewer", "/api/tasks")).contains(REP_JOB).doesNotContain(PAY_JOB);
        assertThat(body("pay-operator", "/api/audit")).contains(PAY_JOB).doesNotContain(REP_JOB);
        assertThat(body("cluster-admin", "/api/audit")).contains(PAY_JOB, REP_JOB);
        assertThat(body("pay-operator", "/ui/jobs")).contains(PAY_JOB).doesNotContain(REP_JOB);
        assertThat(body("pay-operator", "/ui/tasks")).contains(PAY_JOB).doesNotContain(REP_JOB);
        assertThat(body("pay-operator", "/ui/audit")).contains(PAY_JOB).doesNotContain(REP_JOB);
        assertThat(body("rep-viewer", "/ui")).doesNotContain(PAY_JOB);
        assertThat(body("pay-operator", "/ui/jobs")).as("the cluster's page is not offered").doesNotContain("/ui/cluster");
        assertThat(body("cluster-admin", "/ui/jobs?namespace=reports")).as("the switcher narrows the list")
                .contains(REP_JOB, "<option value=\"payments\">payments</option>").doesNotContain(PAY_JOB);
        assertThat(body("cluster-admin", "/ui/tasks?namespace=payments")).contains(PAY_JOB).doesNotContain(REP_JOB);
        assertThat(body("cluster-admin", "/ui/audit?namespace=payments")).contains(PAY_JOB).doesNotContain(REP_JOB);
    }

    @Test
    void anEncodedLetterInThePathReachesTheSameCheck() throws Exception {
        MockHttpServletResponse apply = mvc.perform(request(HttpMethod.POST,
                        URI.create("/api/namespace%73/reports/apply?prune=true"))
                .header(HttpHeaders.AUTHORIZATION, "Bearer " + TOKENS.get("pay-admin"))
                .contentType(MediaType.APPLICATION_JSON).content("onebeat: {jobs: []}")).andReturn().getResponse();
        assertThat(apply.getStatus()).as(apply.getContentAsString()).isEqualTo(404);
        assertThat(apply.getContentAsString()).contains("no namespace named 'reports'");
        assertThat(body("cluster-admin", "/api/jobs/" + REP_JOB)).as("not pruned").contains(REP_JOB);
        MockHttpServletResponse job = mvc.perform(request(HttpMethod.GET, URI.create("/api/job%73/" + REP_JOB))
                .header(HttpHeaders.AUTHORIZATION, "Bearer " + TOKENS.get("pay-viewer"))).andReturn().getResponse();
        assertThat(job.getStatus()).as(job.getContentAsString()).isEqualTo(404);
    }

    @Test
    void aCalendarNamesOnlyTheCallersJobsAmongThoseUsingIt() throws Exception {
        try {
            assertThat(send("cluster-admin", "PUT", "/api/calendars/ns-cal", "{\"dates\":[\"2030-01-01\"]}")
                    .getStatus()).isIn(200, 201);
            for (String[] job : new String[][] {{"ns-cal-pay", "payments"}, {"ns-cal-rep", "reports"}}) {
                assertThat(send("cluster-admin", "POST", "/api/jobs", "{\"name\":\"" + job[0] + "\",\"every\":"
                        + "\"1h\",\"task\":\"t\",\"queue\":\"" + job[1] + "\",\"namespace\":\"" + job[1]
                        + "\",\"calendars\":{\"exclude\":[\"ns-cal\"]}}").getStatus()).isEqualTo(201);
            }
            assertThat(body("pay-viewer", "/api/calendars/ns-cal")).contains("ns-cal-pay").doesNotContain("ns-cal-rep");
            assertThat(body("pay-viewer", "/api/calendars")).doesNotContain("ns-cal-rep");
            assertThat(body("pay-viewer", "/ui/calendars")).doesNotContain("ns-cal-rep");
            assertThat(body("cluster-admin", "/api/calendars/ns-cal")).contains("ns-cal-pay", "ns-cal-rep");
        } finally {
            send("cluster-admin", "DELETE", "/api/jobs/ns-cal-pay", null);
            send("cluster-admin", "DELETE", "/api/jobs/ns-cal-rep", null);
            send("cluster-admin", "DELETE", "/api/calendars/ns-cal", null);
        }
    }

    @Test
    void theDashboardOfANamespaceUserLeavesOutTheFiresOfJobsNoLongerInTheCatalog() throws Exception {
        jdbc.sql("""
                        INSERT INTO onebeat_fire (job_name, scheduled_at, fired_at, node, trigger_kind, outcome)
                        VALUES ('ns-gone', now(), now(), 'test', 'scheduled', 'committed')""").update();

        assertThat(body("rep-viewer", "/ui")).doesNotContain("ns-gone");
        assertThat(body("cluster-admin", "/ui")).contains("ns-gone");
    }

    @Test
    void theClustersOwnEndpointsNeedARoleOverTheCluster() throws Exception {
        for (String[] call : new String[][] {{"GET", "/api/cluster"}, {"GET", "/api/locks"}, {"GET", "/api/users"},
                {"GET", "/ui/cluster"}, {"GET", "/ui/users"}, {"GET", "/actuator/prometheus"},
                {"PUT", "/api/calendars/ns-matrix"}, {"DELETE", "/api/calendars/ns-matrix"}}) {
            assertThat(send("pay-admin", call[0], call[1], call[0].equals("PUT") ? "{\"dates\":[\"2027-01-01\"]}" : null)
                    .getStatus()).as(call[0] + " " + call[1]).isEqualTo(403);
        }
        assertThat(send("cluster-admin", "GET", "/api/cluster", null).getStatus()).isEqualTo(200);
        assertThat(send("pay-viewer", "GET", "/api/calendars", null).getStatus()).as("calendars are read by all")
                .isEqualTo(200);
    }

    @Test
    void aJobIsWrittenOnlyIntoANamespaceTheCallerAdministers() throws Exception {
        MockHttpServletResponse elsewhere = send("pay-admin", "POST", "/api/jobs",
                "{\"name\":\"ns-sneaky\",\"every\":\"1h\",\"task\":\"t\",\"queue\":\"reports\",\"namespace\":\"reports\"}");
        assertThat(elsewhere.getStatus()).isEqualTo(403);
        assertThat(elsewhere.getContentAsString()).contains("role admin in namespace 'reports' needed");
        MockHttpServletResponse unnamed = send("pay-admin", "POST", "/api/jobs",
                "{\"name\":\"ns-sneaky\",\"every\":\"1h\",\"task\":\"t\"}");
        assertThat(unnamed.getStatus()).as("no namespace is default's").isEqualTo(403);
        MockHttpServletResponse moved = send("pay-admin", "PUT", "/api/jobs/" + PAY_JOB,
                "{\"every\":\"1h\",\"task\":\"t\",\"queue\":\"reports\",\"namespace\":\"reports\"}");
        assertThat(moved.getStatus()).as("moved out of its namespace").isEqualTo(403);
        MockHttpServletResponse kept = send("pay-admin", "PUT", "/api/jobs/" + PAY_JOB,
                "{\"every\":\"2h\",\"task\":\"t\",\"queue\":\"payments\"}");
        assertThat(kept.getStatus()).as(kept.getContentAsString()).isEqualTo(200);
        assertThat(jdbc.sql("SELECT namespace FROM onebeat_job WHERE name = ?").param(PAY_JOB).query(String.class)
                .single()).as("a body naming no namespace keeps the job's").isEqualTo("payments");
    }

    @Test
    void aNamespaceOwnsItsQueues() throws Exception {
        MockHttpServletResponse theirs = send("cluster-admin", "POST", "/api/jobs",
                "{\"name\":\"ns-queue-1\",\"every\":\"1h\",\"task\":\"t\",\"queue\":\"payments-eu\","
                        + "\"namespace\":\"reports\"}");
        assertThat(theirs.getStatus()).isEqualTo(400);
        assertThat(theirs.getContentAsString()).contains("queue: queue 'payments-eu' belongs to namespace 'payments'");
        MockHttpServletResponse notOwn = send("cluster-admin", "POST", "/api/jobs",
                "{\"name\":\"ns-queue-2\",\"every\":\"1h\",\"task\":\"t\",\"queue\":\"default\","
                        + "\"namespace\":\"payments\"}");
        assertThat(notOwn.getStatus()).isEqualTo(400);
        assertThat(notOwn.getContentAsString()).contains("namespace 'payments' sends to its own queues only");
        MockHttpServletResponse undeclared = send("cluster-admin", "POST", "/api/jobs",
                "{\"name\":\"ns-queue-3\",\"every\":\"1h\",\"task\":\"t\",\"namespace\":\"nobody\"}");
        assertThat(undeclared.getStatus()).isEqualTo(400);
        assertThat(undeclared.getContentAsString()).contains("namespace: no namespace is named 'nobody'");
    }

    @Test
    void aNamespacesLimitsRefuseTheJobPastThemWithAConflict() throws Exception {
        try {
            // payments holds its matrix job: three more reach max-jobs=4, a fourth is one too many
            for (int i = 1; i <= 3; i++) {
                assertThat(send("cluster-admin", "POST", "/api/jobs", "{\"name\":\"ns-limit-" + i + "\",\"every\":"
                        + "\"1h\",\"task\":\"t\",\"queue\":\"payments\",\"namespace\":\"payments\"}").getStatus())
                        .isEqualTo(201);
            }
            MockHttpServletResponse over = send("cluster-admin", "POST", "/api/jobs", "{\"name\":\"ns-limit-4\","
                    + "\"every\":\"1h\",\"task\":\"t\",\"queue\":\"payments\",\"namespace\":\"payments\"}");
            assertThat(over.getStatus()).isEqualTo(409);
            assertThat(over.getContentAsString()).contains("namespace 'payments' holds 4 jobs, its limit (max-jobs) "
                    + "is 4: job 'ns-limit-4' would be one more");
            // reports: its matrix job fires every hour on the hour; one more on the hour is its limit of two
            assertThat(send("cluster-admin", "POST", "/api/jobs", "{\"name\":\"ns-fires-1\",\"cron\":\"0 * * * *\","
                    + "\"task\":\"t\",\"queue\":\"reports\",\"namespace\":\"reports\"}").getStatus()).isEqualTo(201);
            MockHttpServletResponse crowded = send("cluster-admin", "POST", "/api/jobs", "{\"name\":\"ns-fires-2\","
                    + "\"cron\":\"0 */2 * * *\",\"task\":\"t\",\"queue\":\"reports\",\"namespace\":\"reports\"}");
            assertThat(crowded.getStatus()).isEqualTo(409);
            assertThat(crowded.getContentAsString()).contains("namespace 'reports' allows 2 of its jobs to fire at one "
                    + "instant (max-fires-per-instant); with job 'ns-fires-2', 3 would fire at");
            assertThat(send("cluster-admin", "POST", "/api/jobs", "{\"name\":\"ns-fires-3\",\"cron\":\"30 * * * *\","
                    + "\"task\":\"t\",\"queue\":\"reports\",\"namespace\":\"reports\"}").getStatus())
                    .as("at the half hour, alone").isEqualTo(201);
        } finally {
            for (String job : List.of("ns-limit-1", "ns-limit-2", "ns-limit-3", "ns-fires-1", "ns-fires-3")) {
                send("cluster-admin", "DELETE", "/api/jobs/" + job, null);
            }
        }
    }

    private String body(String caller, String path) throws Exception {
        MockHttpServletResponse response = send(caller, "GET", path, null);
        assertThat(response.getStatus()).as(path + ": " + response.getContentAsString()).isEqualTo(200);
        return response.getContentAsString();
    }

    private MockHttpServletResponse send(String caller, String method, String path, String body) throws Exception {
        MockHttpServletRequestBuilder request = request(HttpMethod.valueOf(method), path)
                .header(HttpHeaders.AUTHORIZATION, "Bearer " + TOKENS.get(caller));
        if (path.startsWith("/ui/")) {
            request.with(csrf());
        }
        if (body != null) {
            request.contentType(MediaType.APPLICATION_JSON).content(body);
        }
        return mvc.perform(request).andReturn().getResponse();
    }
}
