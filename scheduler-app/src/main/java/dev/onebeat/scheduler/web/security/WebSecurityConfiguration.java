package dev.onebeat.scheduler.web.security;

import dev.onebeat.scheduler.engine.registry.Namespaces;
import jakarta.servlet.http.HttpServletRequest;
import java.net.URI;
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
                                           ObjectProvider<ClientRegistrationRepository> oidc, JsonMapper json,
                                           Namespaces namespaces) {
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
                    .userAuthoritiesMapper(new OidcRoles(properties.oidc(), namespaces.names()))));
        }
        return http.build();
    }

    /**
     * CSRF is waived for an API or actuator request that a browser cannot have been made to send by
     * another site: one with a bearer token (a browser never adds one by itself, and a page elsewhere
     * cannot set the header without a CORS preflight, which onebeat never grants), or one from no other
     * site that carries Basic credentials or belongs to no session (no session cookie, or a stale one:
     * then there is no session to abuse, and it is answered 401 unless it signs in). Basic credentials
     * are special: a browser that has saved them adds them to a cross-site form post on its own, so a
     * request marked as coming from another site ({@code Sec-Fetch-Site}, sent by current browsers, or
     * else an {@code Origin} of another host) needs the token like a console form. Command-line and
     * server clients send neither header. A call to {@code /api/**} on the session cookie of a console
     * login always needs the token.
     */
    private static boolean statelessMachineRequest(HttpServletRequest request) {
        if (!MACHINE_PATHS.matches(request)) {
            return false;
        }
        String authorization = request.getHeader(HttpHeaders.AUTHORIZATION);
        if (authorization != null && authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return true;
        }
        return !fromAnotherSite(request) && (authorization != null || request.getSession(false) == null);
    }

    /** Whether the browser says the request was started by a page of another site. */
    static boolean fromAnotherSite(HttpServletRequest request) {
        String fetchSite = request.getHeader("Sec-Fetch-Site");
        if (fetchSite != null) {
            return !fetchSite.equals("same-origin") && !fetchSite.equals("none");
        }
        String origin = request.getHeader(HttpHeaders.ORIGIN);
        if (origin == null) {
            return false;
        }
        try {
            String host = URI.create(origin).getHost();
            return host == null || !host.equalsIgnoreCase(request.getServerName());
        } catch (IllegalArgumentException e) {
            // "null" (a sandboxed page) or garbage: not this server
            return true;
        }
    }
}
