package dev.onebeat.scheduler.web.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;

import dev.onebeat.scheduler.SchedulerIT;
import dev.onebeat.scheduler.SchedulerTestDatabase;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.test.web.servlet.MockMvc;

/**
 * With a client registration configured, the UI offers OIDC login. The provider's endpoints are
 * fixed URIs on a closed local port, so nothing is fetched at start-up and no IdP is needed.
 */
@SchedulerIT(properties = {SchedulerTestDatabase.NO_DEMO, SchedulerTestDatabase.QUARTZ_STOPPED,
        "spring.security.oauth2.client.registration.corp.client-id=onebeat",
        "spring.security.oauth2.client.registration.corp.client-secret=secret",
        "spring.security.oauth2.client.registration.corp.authorization-grant-type=authorization_code",
        "spring.security.oauth2.client.registration.corp.scope=openid,profile",
        "spring.security.oauth2.client.registration.corp.redirect-uri={baseUrl}/login/oauth2/code/{registrationId}",
        "spring.security.oauth2.client.provider.corp.authorization-uri=http://localhost:9/authorize",
        "spring.security.oauth2.client.provider.corp.token-uri=http://localhost:9/token",
        "spring.security.oauth2.client.provider.corp.jwk-set-uri=http://localhost:9/jwks",
        "spring.security.oauth2.client.provider.corp.user-info-uri=http://localhost:9/userinfo",
        "spring.security.oauth2.client.provider.corp.user-name-attribute=sub"})
@AutoConfigureMockMvc
class OidcLoginIT {

    @Autowired
    MockMvc mvc;


    @Test
    void loginPageOffersTheRegistration() throws Exception {
        MockHttpServletResponse response = mvc.perform(get("/login")).andReturn().getResponse();

        assertThat(response.getStatus()).isEqualTo(200);
        assertThat(response.getContentAsString()).contains("/oauth2/authorization/corp");
    }

    @Test
    void authorizationStartsAtTheProvider() throws Exception {
        MockHttpServletResponse response = mvc.perform(get("/oauth2/authorization/corp")).andReturn().getResponse();

        assertThat(response.getStatus()).isEqualTo(302);
        assertThat(response.getRedirectedUrl()).startsWith("http://localhost:9/authorize?")
                .contains("client_id=onebeat").contains("scope=openid%20profile");
    }

    @Test
    void anonymousUiPageStillRedirectsToLogin() throws Exception {
        assertThat(mvc.perform(get("/ui/jobs")).andReturn().getResponse().getRedirectedUrl()).endsWith("/login");
    }
}
