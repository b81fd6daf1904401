package dev.onebeat.scheduler.web.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.csrf;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.request;

import dev.onebeat.scheduler.SchedulerIT;
import dev.onebeat.scheduler.SchedulerTestDatabase;
import dev.onebeat.scheduler.SecurityTestUsers;
import dev.onebeat.scheduler.WithTestUsers;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.mock.web.MockHttpSession;
import org.springframework.security.core.userdetails.UserDetailsService;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.MvcResult;
import org.springframework.test.web.servlet.request.MockHttpServletRequestBuilder;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The URL → role contract on the real application (real database), through the real filter chain.
 * For an endpoint this branch does not have yet, "allowed" means the request got past authorization
 * (a 404 or 405 from Spring MVC), "denied" a 403: fill in real endpoints as they arrive. A 401 or 403
 * to an API or actuator request is a problem detail; the console keeps its login redirect and error page.
 */
@SchedulerIT(properties = {SchedulerTestDatabase.NO_DEMO, SchedulerTestDatabase.QUARTZ_STOPPED})
@AutoConfigureMockMvc
@WithTestUsers
class SecurityMatrixIT {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Autowired
    MockMvc mvc;

    @Autowired
    UserDetailsService users;

    @ParameterizedTest(name = "{0} {1} as {2}: {3}")
    @CsvSource(delimiter = '|', textBlock = """
            GET    | /api/jobs                  | anonymous | unauthenticated
            GET    | /api/jobs                  | viewer    | allowed
            GET    | /api/jobs/heartbeat/fires  | viewer    | allowed
            GET    | /api/cluster               | viewer    | allowed
            GET    | /api/schedules/preview     | viewer    | allowed
            GET    | /api/tasks                 | viewer    | allowed
            GET    | /api/users                 | viewer    | denied
            GET    | /api/users                 | operator  | denied
            GET    | /api/users                 | admin     | allowed
            GET    | /ui/users                  | operator  | denied
            GET    | /ui/users                  | admin     | allowed
            GET    | /api/users/                | viewer    | denied
            GET    | /ui/users/                 | operator  | denied
            HEAD   | /ui/users                  | operator  | denied
            HEAD   | /api/jobs                  | viewer    | allowed
            HEAD   | /ui/jobs                   | viewer    | allowed
            POST   | /ui/jobs/heartbeat/schedule| operator  | denied
            POST   | /ui/jobs/heartbeat/schedule| admin     | allowed
            POST   | /api/jobs/heartbeat/pause  | anonymous | unauthenticated
            POST   | /api/jobs/heartbeat/pause  | viewer    | denied
            POST   | /api/jobs/heartbeat/pause  | operator  | allowed
            POST   | /api/jobs/heartbeat/pause  | admin     | allowed
            POST   | /api/jobs/heartbeat/resume | viewer    | denied
            POST   | /api/jobs/heartbeat/resume | operator  | allowed
            POST   | /api/jobs/heartbeat/trigger| viewer    | denied
            POST   | /api/jobs/heartbeat/trigger| operator  | allowed
            POST   | /api/jobs/heartbeat/instants/2027-01-01T00:00:00Z/run | viewer   | denied
            POST   | /api/jobs/heartbeat/instants/2027-01-01T00:00:00Z/run | operator | allowed
            POST   | /api/jobs/heartbeat/backfill | viewer  | denied
            POST   | /api/jobs/heartbeat/backfill | operator | allowed
            POST   | /api/jobs/heartbeat/backfills/1/cancel | viewer   | denied
            POST   | /api/jobs/heartbeat/backfills/1/cancel | operator | allowed
            GET    | /api/jobs/heartbeat/backfills | viewer  | allowed
            POST   | /api/tasks/42/retry        | viewer    | denied
            POST   | /api/tasks/42/retry        | operator  | allowed
            POST   | /api/tasks/42/discard      | viewer    | denied
            POST   | /api/tasks/42/discard      | operator  | allowed
            POST   | /api/jobs                  | anonymous | unauthenticated
            POST   | /api/jobs                  | viewer    | denied
            POST   | /api/jobs                  | operator  | denied
            POST   | /api/jobs                  | admin     | allowed
            PUT    | /api/jobs/heartbeat        | operator  | denied
            PUT    | /api/jobs/heartbeat        | admin     | allowed
            DELETE | /api/jobs/heartbeat        | operator  | denied
            DELETE | /api/jobs/heartbeat        | admin     | allowed
            DELETE | /api/jobs/heartbeat/schedule | anonymous | unauthenticated
            DELETE | /api/jobs/heartbeat/schedule | viewer    | denied
            DELETE | /api/jobs/heartbeat/schedule | operator  | denied
            DELETE | /api/jobs/heartbeat/schedule | admin     | allowed
            GET    | /actuator/health           | anonymous | allowed
            GET    | /actuator/health/db        | anonymous | allowed
            HEAD   | /actuator/health           | anonymous | allowed
            GET    | /actuator/info             | anonymous | allowed
            GET    | /actuator/prometheus       | anonymous | unauthenticated
            GET    | /actuator/prometheus       | operator  | denied
            GET    | /actuator/prometheus       | admin     | allowed
            GET    | /actuator/metrics          | viewer    | denied
            GET    | /actuator/metrics          | admin     | allowed
            GET    | /ui/jobs                   | anonymous | login
            GET    | /ui/jobs                   | viewer    | allowed
            POST   | /ui/jobs/heartbeat/pause   | viewer    | denied
            POST   | /ui/jobs/heartbeat/pause   | operator  | allowed
            POST   | /ui/jobs/heartbeat/resume  | operator  | allowed
            POST   | /ui/jobs/heartbeat/trigger | operator  | allowed
            POST   | /ui/jobs/heartbeat/instants/2027-01-01T00:00:00Z/run | viewer   | denied
            POST   | /ui/jobs/heartbeat/instants/2027-01-01T00:00:00Z/run | operator | allowed
            POST   | /ui/jobs/heartbeat/backfill | viewer   | denied
            POST   | /ui/jobs/heartbeat/backfill | operator | allowed
            POST   | /ui/jobs/heartbeat/backfills/1/cancel | operator | allowed
            POST   | /ui/tasks/42/retry         | operator  | allowed
            POST   | /ui/tasks/42/discard       | viewer    | denied
            POST   | /ui/tasks/42/discard       | operator  | allowed
            POST   | /ui/jobs                   | operator  | denied
            POST   | /ui/jobs                   | admin     | allowed
            POST   | /ui/jobs/heartbeat/delete  | operator  | denied
            POST   | /ui/jobs/heartbeat/delete  | admin     | allowed
            GET    | /login                     | anonymous | allowed
            GET    | /css/onebeat.css           | anonymous | allowed
            """)
    void urlRoleContract(String method, String path, String who, String expected) throws Exception {
        // every request carries a CSRF token here: this table is about roles, the CSRF tests are below
        MockHttpServletRequestBuilder request = request(HttpMethod.valueOf(method), path).with(csrf());
        if (!who.equals("anonymous")) {
            request.header(HttpHeaders.AUTHORIZATION, SecurityTestUsers.basic(who));
        }

        MockHttpServletResponse response = mvc.perform(request).andReturn().getResponse();

        switch (expected) {
            case "allowed" -> {
                assertThat(response.getStatus()).isNotIn(401, 403);
                assertThat(String.valueOf(response.getRedirectedUrl())).doesNotEndWith("/login");
            }
            case "denied" -> {
                assertThat(response.getStatus()).isEqualTo(403);
                assertIsProblemIfMachinePath(response, path, 403);
            }
            case "unauthenticated" -> {
                assertThat(response.getStatus()).isEqualTo(401);
                assertThat(response.getHeader(HttpHeaders.WWW_AUTHENTICATE)).isEqualTo("Basic realm=\"onebeat\"");
                assertIsProblemIfMachinePath(response, path, 401);
            }
            case "login" -> {
                assertThat(response.getStatus()).isEqualTo(302);
                assertThat(response.getRedirectedUrl()).endsWith("/login");
            }
            default -> throw new IllegalArgumentException("unknown expectation " + expected);
        }
    }

    @Test
    void basicAndBearerBothListJobs() throws Exception {
        assertThat(status(get("/api/jobs").header(HttpHeaders.AUTHORIZATION, SecurityTestUsers.basic("viewer"))))
                .isEqualTo(200);
        assertThat(status(get("/api/jobs").header(HttpHeaders.AUTHORIZATION, SecurityTestUsers.bearer("viewer"))))
                .isEqualTo(200);
    }

    /**
     * A login checks the password at the cost its hash was configured with and leaves it so: re-hashed at login (Spring
     * Security's password upgrade), a cost-4 hash became a cost-10 one and every later request paid for it.
     */
    @Test
    void aLoginKeepsTheConfiguredPasswordHashAndItsCost() throws Exception {
        String configured = users.loadUserByUsername("operator").getPassword();
        assertThat(configured).startsWith("{bcrypt}$2a$04$");

        for (int i = 0; i < 2; i++) {
            assertThat(status(get("/api/jobs").header(HttpHeaders.AUTHORIZATION, SecurityTestUsers.basic("operator"))))
                    .isEqualTo(200);
        }

        assertThat(users.loadUserByUsername("operator").getPassword()).isEqualTo(configured);
    }

    @Test
    void bearerTokenCarriesItsRole() throws Exception {
        assertThat(status(post("/api/jobs").header(HttpHeaders.AUTHORIZATION, SecurityTestUsers.bearer("operator"))))
                .isEqualTo(403);
    }

    @Test
    void unknownBearerTokenIsUnauthorized() throws Exception {
        MockHttpServletResponse response = mvc.perform(get("/api/jobs")
                .header(HttpHeaders.AUTHORIZATION, "Bearer not-a-configured-token")).andReturn().getResponse();

        assertThat(response.getStatus()).isEqualTo(401);
        assertThat(response.getHeader(HttpHeaders.WWW_AUTHENTICATE)).isEqualTo("Bearer error=\"invalid_token\"");
    }

    @Test
    void wrongPasswordIsUnauthorized() throws Exception {
        assertThat(status(get("/api/jobs").header(HttpHeaders.AUTHORIZATION,
                SecurityTestUsers.basic("admin", "wrong")))).isEqualTo(401);
    }

    @Test
    void prometheusScrapesWithAnAdminToken() throws Exception {
        MockHttpServletResponse response = mvc.perform(get("/actuator/prometheus")
                .header(HttpHeaders.AUTHORIZATION, SecurityTestUsers.bearer("admin"))).andReturn().getResponse();

        assertThat(response.getStatus()).isEqualTo(200);
        assertThat(response.getContentAsString()).contains("jvm_memory_used_bytes");
    }

    @Test
    void prometheusRefusesAViewerToken() throws Exception {
        assertThat(status(get("/actuator/prometheus").header(HttpHeaders.AUTHORIZATION,
                SecurityTestUsers.bearer("viewer")))).isEqualTo(403);
    }

    @Test
    void apiCallsOpenNoSession() throws Exception {
        MvcResult basic = mvc.perform(get("/api/jobs").header(HttpHeaders.AUTHORIZATION,
                SecurityTestUsers.basic("viewer"))).andReturn();
        MvcResult bearer = mvc.perform(get("/api/jobs").header(HttpHeaders.AUTHORIZATION,
                SecurityTestUsers.bearer("viewer"))).andReturn();
        MvcResult anonymous = mvc.perform(get("/api/jobs")).andReturn();

        assertThat(basic.getRequest().getSession(false)).isNull();
        assertThat(bearer.getRequest().getSession(false)).isNull();
        assertThat(anonymous.getRequest().getSession(false)).isNull();
    }

    @Test
    void uiFormPostWithoutCsrfTokenIsForbidden() throws Exception {
        assertThat(status(post("/ui/jobs/heartbeat/pause").session(login("operator")))).isEqualTo(403);
    }

    @Test
    void uiFormPostWithCsrfTokenIsAllowed() throws Exception {
        assertThat(status(post("/ui/jobs/heartbeat/pause").session(login("operator")).with(csrf())))
                .isNotIn(401, 403);
    }

    @Test
    void apiPostOnTheUiSessionCookieNeedsTheCsrfToken() throws Exception {
        MockHttpSession session = login("operator");

        assertThat(status(post("/api/jobs/heartbeat/pause").session(session))).isEqualTo(403);
        assertThat(status(post("/api/jobs/heartbeat/pause").session(session).with(csrf()))).isNotIn(401, 403);
    }

    @Test
    void apiPostWithBasicNeedsNoCsrfToken() throws Exception {
        assertThat(status(post("/api/jobs/heartbeat/pause").header(HttpHeaders.AUTHORIZATION,
                SecurityTestUsers.basic("operator")))).isNotIn(401, 403);
        assertThat(status(post("/api/jobs/heartbeat/pause").header(HttpHeaders.AUTHORIZATION,
                SecurityTestUsers.basic("operator")).header("Sec-Fetch-Site", "same-origin"))).isNotIn(401, 403);
        assertThat(status(post("/api/jobs/heartbeat/pause").header(HttpHeaders.AUTHORIZATION,
                SecurityTestUsers.basic("operator")).header(HttpHeaders.ORIGIN, "http://localhost:8080")))
                .isNotIn(401, 403);
    }

    /** A browser adds the Basic credentials it saved to a post another site's page makes: that needs the token. */
    @Test
    void crossSitePostWithSavedBasicCredentialsNeedsTheCsrfToken() throws Exception {
        assertThat(status(post("/api/jobs/heartbeat/pause").header(HttpHeaders.AUTHORIZATION,
                SecurityTestUsers.basic("operator")).header("Sec-Fetch-Site", "cross-site"))).isEqualTo(403);
        assertThat(status(post("/api/tasks/42/discard").header(HttpHeaders.AUTHORIZATION,
                SecurityTestUsers.basic("operator")).header(HttpHeaders.ORIGIN, "https://elsewhere.example")))
                .isEqualTo(403);
        assertThat(status(post("/api/jobs/heartbeat/pause").header(HttpHeaders.AUTHORIZATION,
                SecurityTestUsers.basic("operator")).header(HttpHeaders.ORIGIN, "null"))).isEqualTo(403);
        // a bearer token is never added by a browser on its own
        assertThat(status(post("/api/jobs/heartbeat/pause").header(HttpHeaders.AUTHORIZATION,
                SecurityTestUsers.bearer("operator")).header("Sec-Fetch-Site", "cross-site"))).isNotIn(401, 403);
        // with the token, the same cross-site request passes the CSRF check
        assertThat(status(post("/api/jobs/heartbeat/pause").header(HttpHeaders.AUTHORIZATION,
                SecurityTestUsers.basic("operator")).header("Sec-Fetch-Site", "cross-site").with(csrf())))
                .isNotIn(401, 403);
    }

    @Test
    void formLoginOpensASessionForTheUi() throws Exception {
        MockHttpSession session = login("viewer");

        assertThat(status(get("/ui/jobs").session(session))).isNotIn(302, 401, 403);
    }

    @Nested
    class ProblemDetails {

        @Test
        void anonymousApiCallIsToldHowToSignIn() throws Exception {
            JsonNode problem = problem(mvc.perform(get("/api/jobs")).andReturn().getResponse());

            assertThat(problem.get("type").asString()).isEqualTo("about:blank");
            assertThat(problem.get("title").asString()).isEqualTo("Unauthorized");
            assertThat(problem.get("status").asInt()).isEqualTo(401);
            assertThat(problem.get("detail").asString()).isEqualTo("sign in with HTTP Basic or a bearer token");
            assertThat(problem.get("instance").asString()).isEqualTo("/api/jobs");
        }

        @Test
        void wrongPasswordIsToldApartWithoutEchoingTheCredentials() throws Exception {
            MockHttpServletResponse response = mvc.perform(get("/api/jobs").header(HttpHeaders.AUTHORIZATION,
                    SecurityTestUsers.basic("admin", "s3cret-guess"))).andReturn().getResponse();

            assertThat(problem(response).get("detail").asString())
                    .isEqualTo("user name or password not accepted; sign in with HTTP Basic or a bearer token");
            assertThat(response.getContentAsString()).doesNotContain("s3cret-guess").doesNotContain("admin");
            assertThat(response.getHeader(HttpHeaders.WWW_AUTHENTICATE)).isEqualTo("Basic realm=\"onebeat\"");
        }

        @Test
        void unknownBearerTokenIsAProblemThatDoesNotEchoTheToken() throws Exception {
            MockHttpServletResponse response = mvc.perform(get("/api/jobs")
                    .header(HttpHeaders.AUTHORIZATION, "Bearer not-a-configured-token")).andReturn().getResponse();

            assertThat(problem(response).get("detail").asString())
                    .isEqualTo("unknown API token; sign in with HTTP Basic or a bearer token");
            assertThat(response.getContentAsString()).doesNotContain("not-a-configured-token");
        }

        @Test
        void deniedCallerIsToldTheRoleNeededAndTheirOwn() throws Exception {
            MockHttpServletResponse response = mvc.perform(post("/api/jobs/heartbeat/pause")
                    .header(HttpHeaders.AUTHORIZATION, SecurityTestUsers.bearer("viewer"))).andReturn().getResponse();

            JsonNode problem = problem(response);
            assertThat(problem.get("title").asString()).isEqualTo("Forbidden");
            assertThat(problem.get("status").asInt()).isEqualTo(403);
            assertThat(problem.get("detail").asString()).isEqualTo(
                    "role operator or higher needed for POST /api/jobs/heartbeat/pause; signed in with role viewer");
            assertThat(problem.get("instance").asString()).isEqualTo("/api/jobs/heartbeat/pause");
        }

        @Test
        void actuatorNeedsAdmin() throws Exception {
            MockHttpServletResponse response = mvc.perform(get("/actuator/prometheus")
                    .header(HttpHeaders.AUTHORIZATION, SecurityTestUsers.basic("operator"))).andReturn().getResponse();

            assertThat(problem(response).get("detail").asString())
                    .isEqualTo("role admin needed for GET /actuator/prometheus; signed in with role operator");
        }

        @Test
        void apiPostOnTheUiSessionWithoutCsrfTokenIsToldWhy() throws Exception {
            MockHttpServletResponse response = mvc.perform(post("/api/jobs/heartbeat/pause")
                    .session(login("operator"))).andReturn().getResponse();

            assertThat(response.getStatus()).isEqualTo(403);
            assertThat(problem(response).get("detail").asString()).startsWith("CSRF token missing or wrong");
        }

        @Test
        void signedInConsoleUserDeniedGetsTheErrorPageNotAProblem() throws Exception {
            MockHttpServletResponse response = mvc.perform(post("/ui/jobs/heartbeat/pause")
                    .session(login("viewer")).with(csrf())).andReturn().getResponse();

            assertThat(response.getStatus()).isEqualTo(403);
            assertThat(String.valueOf(response.getContentType())).doesNotContain("problem");
        }
    }

    private static void assertIsProblemIfMachinePath(MockHttpServletResponse response, String path, int status)
            throws Exception {
        if (path.startsWith("/api/") || path.startsWith("/actuator/")) {
            JsonNode problem = problem(response);
            assertThat(problem.get("status").asInt()).isEqualTo(status);
            assertThat(problem.get("detail").asString()).isNotBlank();
            assertThat(problem.get("instance").asString()).isEqualTo(path);
        }
    }

    private static JsonNode problem(MockHttpServletResponse response) throws Exception {
        assertThat(response.getContentType()).startsWith(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
        return JSON.readTree(response.getContentAsString());
    }

    private MockHttpSession login(String user) throws Exception {
        MvcResult result = mvc.perform(post("/login").param("username", user)
                .param("password", SecurityTestUsers.PASSWORD).with(csrf())).andReturn();
        assertThat(result.getResponse().getRedirectedUrl()).as("login redirect").doesNotContain("error");
        return (MockHttpSession) result.getRequest().getSession(false);
    }

    private int status(MockHttpServletRequestBuilder request) throws Exception {
        return mvc.perform(request).andReturn().getResponse().getStatus();
    }
}
