package dev.onebeat.scheduler.security;

import jakarta.servlet.http.HttpServletRequest;
import java.util.LinkedHashMap;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.security.access.hierarchicalroles.RoleHierarchy;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.oauth2.client.registration.ClientRegistrationRepository;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.access.AccessDeniedHandler;
import org.springframework.security.web.access.AccessDeniedHandlerImpl;
import org.springframework.security.web.access.RequestMatcherDelegatingAccessDeniedHandler;
import org.springframework.security.web.authentication.LoginUrlAuthenticationEntryPoint;
import org.springframework.security.web.authentication.www.BasicAuthenticationFilter;
import org.springframework.security.web.savedrequest.HttpSessionRequestCache;
import org.springframework.security.web.servlet.util.matcher.PathPatternRequestMatcher;
import org.springframework.security.web.util.matcher.AnyRequestMatcher;
import org.springframework.security.web.util.matcher.OrRequestMatcher;
import org.springframework.security.web.util.matcher.RequestMatcher;
import tools.jackson.databind.json.JsonMapper;

/**
 * The one filter chain: {@link AccessRules} for authorization; HTTP Basic and bearer tokens, never
 * a session, for {@code /api/**} and {@code /actuator/**} (401 with {@code WWW-Authenticate} when
 * anonymous; 401 and 403 are problem details, like the API's own errors); form login, with a session and
 * CSRF tokens, for {@code /ui/**} (anonymous GETs are redirected to {@code /login}, a signed-in user
 * denied gets the HTML error page); OIDC login besides when a client registration is configured.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
class WebSecurityConfiguration {

    private static final PathPatternRequestMatcher.Builder PATHS = PathPatternRequestMatcher.withDefaults();
    private static final RequestMatcher MACHINE_PATHS = new OrRequestMatcher(PATHS.matcher("/api/**"),
            PATHS.matcher("/actuator/**"));
    private static final RequestMatcher UI = PATHS.matcher("/ui/**");

    /** Picked up by the authorization rules: admin includes operator includes viewer. */
    @Bean
    static RoleHierarchy roleHierarchy() {
        return Role.hierarchy();
    }

    @Bean
    SecurityFilterChain onebeatFilterChain(HttpSecurity http, ApiTokens tokens, OnebeatSecurityProperties properties,
                                           ObjectProvider<ClientRegistrationRepository> oidc, JsonMapper json) {
        ProblemResponses problems = new ProblemResponses(json);
        ProblemAuthenticationEntryPoint basic = new ProblemAuthenticationEntryPoint(problems);
        LinkedHashMap<RequestMatcher, AccessDeniedHandler> machineDenials = new LinkedHashMap<>();
        machineDenials.put(MACHINE_PATHS, new ProblemAccessDeniedHandler(problems));
        HttpSessionRequestCache uiPagesOnly = new HttpSessionRequestCache();
        // remembering where to return after login is for browsers on UI pages; elsewhere it would open a session
        uiPagesOnly.setRequestMatcher(PATHS.matcher(HttpMethod.GET, "/ui/**"));
        http.authorizeHttpRequests(AccessRules::apply)
                .addFilterBefore(new BearerTokenFilter(tokens, problems), BasicAuthenticationFilter.class)
                .httpBasic(httpBasic -> httpBasic.authenticationEntryPoint(basic))
                .formLogin(login -> login.loginPage("/login").defaultSuccessUrl("/ui"))
                .requestCache(cache -> cache.requestCache(uiPagesOnly))
                .exceptionHandling(errors -> errors
                        .defaultAuthenticationEntryPointFor(new LoginUrlAuthenticationEntryPoint("/login"), UI)
                        .defaultAuthenticationEntryPointFor(basic, AnyRequestMatcher.INSTANCE)
                        // a signed-in console user denied a page gets the HTML error page
                        .accessDeniedHandler(new RequestMatcherDelegatingAccessDeniedHandler(machineDenials,
                                new AccessDeniedHandlerImpl())))
                .csrf(csrf -> csrf.ignoringRequestMatchers(WebSecurityConfiguration::statelessMachineRequest));
        if (oidc.getIfAvailable() != null) {
            http.oauth2Login(login -> login.loginPage("/login").defaultSuccessUrl("/ui").userInfoEndpoint(userInfo -> userInfo
                    .userAuthoritiesMapper(new OidcRoles(properties.oidc().rolesClaim()))));
        }
        return http.build();
    }

    /**
     * CSRF is waived for an API or actuator request that a browser cannot have made on its own: one
     * carrying an {@code Authorization} header (Basic or Bearer: a cross-site page cannot set it
     * without a CORS preflight, which onebeat never grants), or one that belongs to no session (no
     * session cookie, or a stale one). CSRF abuses the session cookie a browser sends by itself;
     * without a session there is nothing to forge, and such a request is answered 401. A call
     * to {@code /api/**} that relies on the session cookie of a UI login still needs the token.
     */
    private static boolean statelessMachineRequest(HttpServletRequest request) {
        return MACHINE_PATHS.matches(request)
                && (request.getHeader(HttpHeaders.AUTHORIZATION) != null || request.getSession(false) == null);
    }
}
