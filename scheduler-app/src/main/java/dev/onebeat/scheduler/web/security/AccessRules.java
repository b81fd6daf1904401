package dev.onebeat.scheduler.web.security;

import jakarta.servlet.DispatcherType;
import jakarta.servlet.http.HttpServletRequest;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.springframework.http.HttpMethod;
import org.springframework.security.authorization.AuthorizationDecision;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.annotation.web.configurers.AuthorizeHttpRequestsConfigurer;
import org.springframework.security.web.servlet.util.matcher.PathPatternRequestMatcher;
import org.springframework.security.web.util.matcher.OrRequestMatcher;
import org.springframework.security.web.util.matcher.RequestMatcher;

/**
 * URL → role, first match wins (roles are hierarchical: admin includes operator includes viewer). A role over the
 * cluster passes every rule it reaches; a role in a namespace passes the rules marked {@code ns}, and then reaches that
 * namespace's objects only ({@link NamespaceGuard} checks each job and task, the lists show the user's namespaces):
 *
 * <pre>
 * /actuator/health/**, /actuator/info, /login, /css/**, /     anonymous
 * /actuator/**                                                admin over the cluster
 * GET (and HEAD) /api/users, /ui/users                        admin over the cluster
 * GET (and HEAD) /api/cluster, /api/locks, /ui/cluster         viewer over the cluster
 * GET (and HEAD) /api/**                                      viewer, ns
 * POST /api/jobs/{name}/pause|resume|trigger                  operator, ns
 * POST /api/jobs/{name}/instants/{instant}/run                operator, ns
 * POST /api/jobs/{name}/backfill, /backfills/{id}/cancel       operator, ns
 * POST /api/tasks/{id}/retry|discard                          operator, ns
 * POST /api/namespaces/{namespace}/plan                       viewer, ns
 * PUT, DELETE /api/calendars/**                               admin over the cluster
 * any other /api/** (POST /api/jobs, PUT and DELETE /api/jobs/{name},
 *                    DELETE /api/jobs/{name}/schedule,
 *                    POST /api/namespaces/{namespace}/apply)  admin, ns
 * GET (and HEAD) /ui/cluster                                  viewer over the cluster
 * GET (and HEAD) /ui/**                                       viewer, ns
 * POST /ui/jobs/{name}/pause|resume|trigger|instants/{instant}/run|backfill|backfills/{id}/cancel,
 *      /ui/tasks/{id}/retry|discard                            operator, ns
 * any other /ui/**                                            admin, ns
 * anything else                                               any signed-in user
 * </pre>
 *
 * Unlisted writes fall to admin, so an endpoint added later is closed until given a rule. The same
 * table answers {@link #required} for the 403 problem detail, so the two cannot disagree.
 */
final class AccessRules {

    private static final PathPatternRequestMatcher.Builder PATHS = PathPatternRequestMatcher.withDefaults();

    /**
     * @param role the role needed, or null when anyone may call
     * @param namespaced whether a role in a namespace passes (the objects reached are then checked one by one), or
     *     only a role over the cluster does
     */
    private record Rule(RequestMatcher matcher, Role role, boolean namespaced) {

        static Rule of(HttpMethod method, Role role, String... patterns) {
            List<RequestMatcher> matchers = Arrays.stream(patterns)
                    .<RequestMatcher>map(pattern -> method == null ? PATHS.matcher(pattern) : PATHS.matcher(method, pattern))
                    .toList();
            return new Rule(matchers.size() == 1 ? matchers.get(0) : new OrRequestMatcher(matchers), role, false);
        }

        /** GET, and HEAD, which asks for the same without the body */
        static Rule reads(Role role, String... patterns) {
            return new Rule(new OrRequestMatcher(of(HttpMethod.GET, role, patterns).matcher(),
                    of(HttpMethod.HEAD, role, patterns).matcher()), role, false);
        }

        /** @return this rule, passed by a role in a namespace too */
        Rule inNamespaces() {
            return new Rule(matcher, role, true);
        }

        boolean passes(Grants grants) {
            return namespaced ? grants.anywhere(role) : grants.overCluster(role);
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
            // the replicas and every job's lock belong to the whole cluster
            Rule.reads(Role.VIEWER, "/api/cluster/**", "/api/locks/**", "/ui/cluster/**"),
            Rule.reads(Role.VIEWER, "/api/**").inNamespaces(),
            Rule.of(HttpMethod.POST, Role.OPERATOR, "/api/jobs/*/pause", "/api/jobs/*/resume", "/api/jobs/*/trigger",
                    "/api/jobs/*/instants/*/run", "/api/jobs/*/backfill", "/api/jobs/*/backfills/*/cancel",
                    "/api/tasks/*/retry", "/api/tasks/*/discard").inNamespaces(),
            // a plan changes nothing: whoever sees the namespace may ask what a file would do to it
            Rule.of(HttpMethod.POST, Role.VIEWER, "/api/namespaces/*/plan").inNamespaces(),
            // calendars are shared by every namespace's jobs
            Rule.of(null, Role.ADMIN, "/api/calendars/**"),
            Rule.of(null, Role.ADMIN, "/api/**").inNamespaces(),
            Rule.reads(Role.VIEWER, "/ui/**").inNamespaces(),
            Rule.of(HttpMethod.POST, Role.OPERATOR, "/ui/jobs/*/pause", "/ui/jobs/*/resume", "/ui/jobs/*/trigger",
                    "/ui/jobs/*/instants/*/run", "/ui/jobs/*/backfill", "/ui/jobs/*/backfills/*/cancel",
                    "/ui/tasks/*/retry", "/ui/tasks/*/discard").inNamespaces(),
            Rule.of(null, Role.ADMIN, "/ui/**").inNamespaces());

    private AccessRules() {
    }

    static void apply(AuthorizeHttpRequestsConfigurer<HttpSecurity>.AuthorizationManagerRequestMatcherRegistry rules) {
        // the error page rendered for a request already decided above
        rules.dispatcherTypeMatchers(DispatcherType.ERROR).permitAll();
        for (Rule rule : RULES) {
            if (rule.role() == null) {
                rules.requestMatchers(rule.matcher()).permitAll();
            } else {
                rules.requestMatchers(rule.matcher()).access((authentication, context) ->
                        new AuthorizationDecision(rule.passes(Grants.of(authentication.get().getAuthorities()))));
            }
        }
        rules.anyRequest().authenticated();
    }

    /** @return whether the first rule matching the request is passed by a role in a namespace */
    static boolean namespaced(HttpServletRequest request) {
        return RULES.stream().filter(rule -> rule.matcher().matches(request)).findFirst().map(Rule::namespaced)
                .orElse(false);
    }

    /** @return the role the first matching rule asks for; empty if anyone, or any signed-in user, may call */
    static Optional<Role> required(HttpServletRequest request) {
        return RULES.stream().filter(rule -> rule.matcher().matches(request)).findFirst().map(Rule::role);
    }
}
