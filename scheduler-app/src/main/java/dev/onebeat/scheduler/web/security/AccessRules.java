package dev.onebeat.scheduler.web.security;

import jakarta.servlet.DispatcherType;
import jakarta.servlet.http.HttpServletRequest;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.springframework.http.HttpMethod;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.annotation.web.configurers.AuthorizeHttpRequestsConfigurer;
import org.springframework.security.web.servlet.util.matcher.PathPatternRequestMatcher;
import org.springframework.security.web.util.matcher.OrRequestMatcher;
import org.springframework.security.web.util.matcher.RequestMatcher;

/**
 * URL → role, first match wins (roles are hierarchical, see {@link Role#hierarchy()}):
 *
 * <pre>
 * /actuator/health/**, /actuator/info, /login, /css/**, /     anonymous
 * /actuator/**                                                admin
 * GET (and HEAD) /api/users, /ui/users                       admin
 * GET (and HEAD) /api/**                                      viewer
 * POST /api/jobs/{name}/pause|resume|trigger                  operator
 * POST /api/jobs/{name}/instants/{instant}/run                operator
 * POST /api/jobs/{name}/backfill, /backfills/{id}/cancel       operator
 * POST /api/tasks/{id}/retry|discard                          operator
 * any other /api/** (POST /api/jobs, PUT and DELETE /api/jobs/{name},
 *                    DELETE /api/jobs/{name}/schedule)        admin
 * GET (and HEAD) /ui/**                                       viewer
 * POST /ui/jobs/{name}/pause|resume|trigger|instants/{instant}/run|backfill|backfills/{id}/cancel,
 *      /ui/tasks/{id}/retry|discard                            operator
 * any other /ui/**                                            admin
 * anything else                                               any signed-in user
 * </pre>
 *
 * Unlisted writes fall to admin, so an endpoint added later is closed until given a rule. The same
 * table answers {@link #required} for the 403 problem detail, so the two cannot disagree.
 */
final class AccessRules {

    private static final PathPatternRequestMatcher.Builder PATHS = PathPatternRequestMatcher.withDefaults();

    /** @param role the role needed, or null when anyone may call */
    private record Rule(RequestMatcher matcher, Role role) {

        static Rule of(HttpMethod method, Role role, String... patterns) {
            List<RequestMatcher> matchers = Arrays.stream(patterns)
                    .<RequestMatcher>map(pattern -> method == null ? PATHS.matcher(pattern) : PATHS.matcher(method, pattern))
                    .toList();
            return new Rule(matchers.size() == 1 ? matchers.get(0) : new OrRequestMatcher(matchers), role);
        }

        /** GET, and HEAD, which asks for the same without the body */
        static Rule reads(Role role, String... patterns) {
            return new Rule(new OrRequestMatcher(of(HttpMethod.GET, role, patterns).matcher(),
                    of(HttpMethod.HEAD, role, patterns).matcher()), role);
        }
    }

    private static final List<Rule> RULES = List.of(
            // any method: probes may use HEAD, and these endpoints are read-only
            Rule.of(null, null, "/actuator/health", "/actuator/health/**", "/actuator/info"),
            Rule.of(null, Role.ADMIN, "/actuator/**"),
            // "/" only redirects to /ui, which asks for a sign-in
            Rule.of(null, null, "/", "/login", "/css/**"),
            // who may sign in, and with which role, is for admins to see
            Rule.reads(Role.ADMIN, "/api/users/**", "/ui/users/**"),
            Rule.reads(Role.VIEWER, "/api/**"),
            Rule.of(HttpMethod.POST, Role.OPERATOR, "/api/jobs/*/pause", "/api/jobs/*/resume", "/api/jobs/*/trigger",
                    "/api/jobs/*/instants/*/run", "/api/jobs/*/backfill", "/api/jobs/*/backfills/*/cancel",
                    "/api/tasks/*/retry", "/api/tasks/*/discard"),
            Rule.of(null, Role.ADMIN, "/api/**"),
            Rule.reads(Role.VIEWER, "/ui/**"),
            Rule.of(HttpMethod.POST, Role.OPERATOR, "/ui/jobs/*/pause", "/ui/jobs/*/resume", "/ui/jobs/*/trigger",
                    "/ui/jobs/*/instants/*/run", "/ui/jobs/*/backfill", "/ui/jobs/*/backfills/*/cancel",
                    "/ui/tasks/*/retry", "/ui/tasks/*/discard"),
            Rule.of(null, Role.ADMIN, "/ui/**"));

    private AccessRules() {
    }

    static void apply(AuthorizeHttpRequestsConfigurer<HttpSecurity>.AuthorizationManagerRequestMatcherRegistry rules) {
        // the error page rendered for a request already decided above
        rules.dispatcherTypeMatchers(DispatcherType.ERROR).permitAll();
        for (Rule rule : RULES) {
            if (rule.role() == null) {
                rules.requestMatchers(rule.matcher()).permitAll();
            } else {
                rules.requestMatchers(rule.matcher()).hasRole(rule.role().name());
            }
        }
        rules.anyRequest().authenticated();
    }

    /** @return the role the first matching rule asks for; empty if anyone, or any signed-in user, may call */
    static Optional<Role> required(HttpServletRequest request) {
        return RULES.stream().filter(rule -> rule.matcher().matches(request)).findFirst().map(Rule::role);
    }
}
