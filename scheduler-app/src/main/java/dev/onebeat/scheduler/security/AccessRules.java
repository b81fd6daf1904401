package dev.onebeat.scheduler.security;

import jakarta.servlet.DispatcherType;
import org.springframework.http.HttpMethod;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.annotation.web.configurers.AuthorizeHttpRequestsConfigurer;

/**
 * URL → role, first match wins (roles are hierarchical, see {@link Role#hierarchy()}):
 *
 * <pre>
 * /actuator/health/**, /actuator/info, /login, /css/**, /     anonymous
 * /actuator/**                                                admin
 * GET /api/**                                                 viewer
 * POST /api/jobs/{name}/pause|resume|trigger                  operator
 * POST /api/tasks/{id}/retry|discard                          operator
 * any other /api/** (POST /api/jobs, PUT and DELETE /api/jobs/{name})  admin
 * GET /ui/**                                                  viewer
 * POST /ui/jobs/{name}/pause|resume|trigger, /ui/tasks/{id}/retry|discard  operator
 * any other /ui/**                                            admin
 * anything else                                               any signed-in user
 * </pre>
 *
 * Unlisted writes fall to admin, so an endpoint added later is closed until given a rule.
 */
final class AccessRules {

    private static final String[] OPERATOR_API = {"/api/jobs/*/pause", "/api/jobs/*/resume", "/api/jobs/*/trigger",
            "/api/tasks/*/retry", "/api/tasks/*/discard"};
    private static final String[] OPERATOR_UI = {"/ui/jobs/*/pause", "/ui/jobs/*/resume", "/ui/jobs/*/trigger",
            "/ui/tasks/*/retry", "/ui/tasks/*/discard"};

    private AccessRules() {
    }

    static void apply(AuthorizeHttpRequestsConfigurer<HttpSecurity>.AuthorizationManagerRequestMatcherRegistry rules) {
        // the error page rendered for a request already decided above
        rules.dispatcherTypeMatchers(DispatcherType.ERROR).permitAll()
                // any method: probes may use HEAD, and these endpoints are read-only
                .requestMatchers("/actuator/health", "/actuator/health/**", "/actuator/info").permitAll()
                .requestMatchers("/actuator/**").hasRole(Role.ADMIN.name())
                // "/" only redirects to /ui, which asks for a sign-in
                .requestMatchers("/", "/login", "/css/**").permitAll()
                .requestMatchers(HttpMethod.GET, "/api/**").hasRole(Role.VIEWER.name())
                .requestMatchers(HttpMethod.POST, OPERATOR_API).hasRole(Role.OPERATOR.name())
                .requestMatchers("/api/**").hasRole(Role.ADMIN.name())
                .requestMatchers(HttpMethod.GET, "/ui/**").hasRole(Role.VIEWER.name())
                .requestMatchers(HttpMethod.POST, OPERATOR_UI).hasRole(Role.OPERATOR.name())
                .requestMatchers("/ui/**").hasRole(Role.ADMIN.name())
                .anyRequest().authenticated();
    }
}
