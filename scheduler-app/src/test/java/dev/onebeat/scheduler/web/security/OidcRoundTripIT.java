package dev.onebeat.scheduler.web.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;

import com.nimbusds.jose.jwk.RSAKey;
import dev.onebeat.scheduler.SchedulerIT;
import dev.onebeat.scheduler.SchedulerTestDatabase;
import java.net.URI;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.mock.web.MockHttpSession;
import org.springframework.security.oauth2.core.OAuth2AuthenticationException;
import org.springframework.security.web.WebAttributes;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.request.MockHttpServletRequestBuilder;

/**
 * The whole OIDC login against {@link FakeOpenIdProvider}: the console sends the browser to the
 * provider, the browser comes back with a code, the console redeems it at the token endpoint,
 * checks the ID token (signature from the JWKS, nonce, audience, expiry) and maps its {@code roles}
 * claim to a role with {@link OidcRoles}. The roles are in the ID token only, not in user info.
 * The user's name is the configured {@code user-name-attribute}, {@code preferred_username}, which
 * differs from the subject so the audit shows which one is used; Spring reads it from the user-info
 * answer when a {@code user-info-uri} is configured, so the provider must send it there too.
 */
@SchedulerIT(properties = {SchedulerTestDatabase.NO_DEMO, SchedulerTestDatabase.QUARTZ_STOPPED,
        "onebeat.jobs[0].name=oidc-pause-me", "onebeat.jobs[0].cron=0 6 1 1 *", "onebeat.jobs[0].task=ops.noop",
        "onebeat.jobs[1].name=oidc-payments-job", "onebeat.jobs[1].cron=0 6 1 1 *", "onebeat.jobs[1].task=ops.noop",
        "onebeat.jobs[1].namespace=payments", "onebeat.namespaces.payments.max-jobs=10",
        "onebeat.security.oidc.groups.payments-team[0]=payments:operator",
        "spring.security.oauth2.client.registration.corp.client-id=" + FakeOpenIdProvider.CLIENT_ID,
        "spring.security.oauth2.client.registration.corp.client-secret=" + FakeOpenIdProvider.CLIENT_SECRET,
        "spring.security.oauth2.client.registration.corp.authorization-grant-type=authorization_code",
        "spring.security.oauth2.client.registration.corp.scope=openid,profile",
        "spring.security.oauth2.client.registration.corp.redirect-uri={baseUrl}/login/oauth2/code/{registrationId}",
        "spring.security.oauth2.client.provider.corp.user-name-attribute=preferred_username"})
@AutoConfigureMockMvc
class OidcRoundTripIT {

    private static final FakeOpenIdProvider PROVIDER = FakeOpenIdProvider.start();
    private static final Pattern CSRF = Pattern.compile("name=\"_csrf\" value=\"([^\"]+)\"");

    @Autowired
    MockMvc mvc;

    @Autowired
    JdbcClient jdbc;

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        String provider = "spring.security.oauth2.client.provider.corp.";
        registry.add(provider + "authorization-uri", () -> PROVIDER.uri("/authorize"));
        registry.add(provider + "token-uri", () -> PROVIDER.uri("/token"));
        registry.add(provider + "jwk-set-uri", () -> PROVIDER.uri("/jwks"));
        registry.add(provider + "user-info-uri", () -> PROVIDER.uri("/userinfo"));
    }

    @AfterAll
    static void stopProvider() {
        PROVIDER.close();
    }

    @Test
    void operatorSignsInAtTheProviderAndLandsOnTheConsole() throws Exception {
        MockHttpSession session = new MockHttpSession();
        MockHttpServletResponse callback = signIn(session, Map.of("roles", List.of("operator")));

        assertThat(callback.getStatus()).isEqualTo(302);
        assertThat(callback.getRedirectedUrl()).isEqualTo("/ui");
        MockHttpServletResponse jobs = page(get("/ui/jobs"), session);
        assertThat(jobs.getStatus()).isEqualTo(200);
        assertThat(jobs.getContentAsString()).contains("oidc-pause-me");
    }

    @Test
    void operatorPausesAJobAndTheAuditNamesTheUserByTheConfiguredAttribute() throws Exception {
        MockHttpSession session = new MockHttpSession();
        signIn(session, Map.of("roles", List.of("operator")));
        String jobPage = page(get("/ui/jobs/oidc-pause-me"), session).getContentAsString();
        Matcher csrf = CSRF.matcher(jobPage);
        assertThat(csrf.find()).as("a CSRF token in the job page's forms").isTrue();

        MockHttpServletResponse paused = page(post("/ui/jobs/oidc-pause-me/pause")
                .param("_csrf", csrf.group(1)), session);

        assertThat(paused.getStatus()).isEqualTo(302);
        assertThat(paused.getRedirectedUrl()).isEqualTo("/ui/jobs/oidc-pause-me");
        assertThat(jdbc.sql("SELECT action || ' by ' || actor FROM onebeat_audit WHERE target = 'oidc-pause-me'")
                .query(String.class).list()).containsExactly("job.pause by olivia");
    }

    @Test
    void operatorIsRefusedTheUsersPage() throws Exception {
        MockHttpSession session = new MockHttpSession();
        signIn(session, Map.of("roles", List.of("operator")));

        assertThat(page(get("/ui/jobs"), session).getStatus()).isEqualTo(200);
        assertThat(page(get("/ui/users"), session).getStatus()).isEqualTo(403);
    }

    @Test
    void adminReadsTheUsersPage() throws Exception {
        MockHttpSession session = new MockHttpSession();
        signIn(session, Map.of("roles", "viewer admin"));

        assertThat(page(get("/ui/users"), session).getStatus()).isEqualTo(200);
    }

    @Test
    void loginWithNoKnownRoleSignsInButIsRefusedTheConsole() throws Exception {
        MockHttpSession session = new MockHttpSession();
        // only the configured claim counts: "groups" naming a role gives nothing
        MockHttpServletResponse callback = signIn(session,
                Map.of("roles", List.of("superuser"), "groups", List.of("admin")));

        assertThat(callback.getRedirectedUrl()).isEqualTo("/ui");
        assertThat(page(get("/ui"), session).getStatus()).isEqualTo(403);
        assertThat(page(get("/ui/jobs"), session).getStatus()).isEqualTo(403);
    }

    @Test
    void aGroupGivesItsRoleInItsNamespaceOnly() throws Exception {
        MockHttpSession session = new MockHttpSession();
        signIn(session, Map.of("groups", List.of("payments-team", "unknown-team")));

        String jobs = page(get("/ui/jobs"), session).getContentAsString();
        assertThat(jobs).contains("oidc-payments-job").doesNotContain("oidc-pause-me");
        assertThat(page(get("/ui/jobs/oidc-pause-me"), session).getStatus()).as("another namespace's job")
                .isEqualTo(404);
        String jobPage = page(get("/ui/jobs/oidc-payments-job"), session).getContentAsString();
        Matcher csrf = CSRF.matcher(jobPage);
        assertThat(csrf.find()).isTrue();
        assertThat(page(post("/ui/jobs/oidc-payments-job/pause").param("_csrf", csrf.group(1)), session)
                .getRedirectedUrl()).isEqualTo("/ui/jobs/oidc-payments-job");
        assertThat(jdbc.sql("SELECT action || ' by ' || actor FROM onebeat_audit WHERE target = 'oidc-payments-job'")
                .query(String.class).list()).containsExactly("job.pause by olivia");
    }

    @Test
    void idTokenSignedWithAnotherKeyIsRefused() throws Exception {
        MockHttpSession session = new MockHttpSession();
        MockHttpServletResponse callback = signIn(session, Map.of("roles", List.of("admin")),
                FakeOpenIdProvider.newKey());

        assertRefused(callback, session, "invalid_id_token");
    }

    @Test
    void idTokenForAnotherNonceIsRefused() throws Exception {
        MockHttpSession session = new MockHttpSession();
        MockHttpServletResponse callback = signIn(session,
                Map.of("roles", List.of("admin"), "nonce", "nonce-of-another-login"));

        assertRefused(callback, session, "invalid_nonce");
    }

    @Test
    void refusedLoginIsExplainedAsTheProvidersNotAWrongPassword() throws Exception {
        MockHttpSession session = new MockHttpSession();
        signIn(session, Map.of("roles", List.of("admin")), FakeOpenIdProvider.newKey());

        assertThat(page(get("/login").param("error", ""), session).getContentAsString())
                .contains("id=\"oidc-error\"").contains("invalid_id_token").doesNotContain("Wrong user name or password");
    }

    private void assertRefused(MockHttpServletResponse callback, MockHttpSession session, String error)
            throws Exception {
        assertThat(callback.getStatus()).isEqualTo(302);
        assertThat(callback.getRedirectedUrl()).isEqualTo("/login?error");
        assertThat(session.getAttribute(WebAttributes.AUTHENTICATION_EXCEPTION))
                .isInstanceOfSatisfying(OAuth2AuthenticationException.class,
                        refusal -> assertThat(refusal.getError().getErrorCode()).isEqualTo(error));
        assertThat(page(get("/ui/jobs"), session).getRedirectedUrl()).endsWith("/login");
    }

    private MockHttpServletResponse signIn(MockHttpSession session, Map<String, Object> claims) throws Exception {
        return signIn(session, claims, PROVIDER.signingKey());
    }

    /**
     * Starts the login, lets the provider approve it with an ID token for {@code olivia} carrying
     * {@code claims} signed by {@code key}, and returns the console's answer to the browser coming back.
     */
    private MockHttpServletResponse signIn(MockHttpSession session, Map<String, Object> claims, RSAKey key)
            throws Exception {
        MockHttpServletResponse start = page(get("/oauth2/authorization/corp"), session);
        assertThat(start.getStatus()).isEqualTo(302);
        assertThat(start.getRedirectedUrl()).startsWith(PROVIDER.uri("/authorize?"));
        Map<String, Object> idToken = new HashMap<>(claims);
        idToken.putIfAbsent("preferred_username", "olivia");
        URI callback = PROVIDER.approve(URI.create(start.getRedirectedUrl()), "u-4711", idToken, key);
        return page(get(callback), session);
    }

    private MockHttpServletResponse page(MockHttpServletRequestBuilder request, MockHttpSession session)
            throws Exception {
        return mvc.perform(request.session(session)).andReturn().getResponse();
    }
}
