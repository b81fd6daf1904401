package dev.onebeat.scheduler.web.security;

import java.util.List;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Who may use onebeat ({@code onebeat.security.*}). Every endpoint but {@code /actuator/health/**},
 * {@code /actuator/info}, {@code /login} and {@code /css/**} needs a user, a token or an OIDC login
 * with a role: {@code viewer} reads, {@code operator} also pauses, resumes and triggers jobs and
 * retries or discards tasks, {@code admin} also creates, updates and deletes jobs and reads the other
 * actuator endpoints (Prometheus).
 *
 * <pre>{@code
 * onebeat:
 *   security:
 *     users:                      # HTTP Basic on /api/** and /actuator/**, form login on /ui/**
 *       - name: alice
 *         password: "{bcrypt}$2a$10$..."   # htpasswd -nbBC 10 '' 'her-password' | cut -d: -f2
 *         role: admin             # viewer | operator | admin
 *     tokens:                     # Authorization: Bearer <token> on /api/** and /actuator/**
 *       - name: prometheus        # the acting user in the audit log
 *         token-sha256: 9f86d0...  # printf %s "$TOKEN" | sha256sum; never the token itself
 *         role: admin
 *     oidc:
 *       roles-claim: roles        # the ID token / user-info claim holding viewer|operator|admin
 * }</pre>
 *
 * <p>A password that is not a {@code {bcrypt}} hash, a role that is not one of the three, a token
 * hash that is not 64 hex digits, or a name given twice stops start-up with a message naming the
 * property. Prometheus scrapes with a token of role admin:
 * {@code authorization: {type: Bearer, credentials_file: /etc/prometheus/onebeat-token}} in its
 * scrape config for {@code /actuator/prometheus}.
 *
 * <p>With no user configured: on the embedded database (no {@code spring.datasource.url}) onebeat
 * generates an {@code admin} password at each start and logs it once; otherwise, with no user, no
 * token and no OIDC registration either, it starts but answers 401 to every protected endpoint and
 * says so in a WARN at start-up, so that a replica never runs with default credentials (health
 * stays public for the orchestrator). OIDC login on {@code /ui/**} is offered when a registration is
 * configured under {@code spring.security.oauth2.client.registration.*}.
 *
 * @param users people, with a bcrypt password hash and a role
 * @param tokens API tokens, given by the SHA-256 of their value and a role
 * @param oidc how roles are read from an OIDC login
 */
@ConfigurationProperties("onebeat.security")
public record OnebeatSecurityProperties(List<User> users, List<Token> tokens, @DefaultValue Oidc oidc) {

    public OnebeatSecurityProperties {
        users = users == null ? List.of() : List.copyOf(users);
        tokens = tokens == null ? List.of() : List.copyOf(tokens);
    }

    /**
     * One user ({@code onebeat.security.users[i]}).
     *
     * @param name the login name, also the acting user in the audit log
     * @param password {@code {bcrypt}$2a$...}; plain text is refused
     * @param role viewer, operator or admin over the whole cluster; unset for a user of some namespaces only
     * @param namespaces viewer, operator or admin in each of these namespaces ({@code onebeat.namespaces}), by
     *     namespace: the user sees and acts on their jobs, tasks, audit and alerts only
     */
    public record User(String name, String password, String role, Map<String, String> namespaces) {
    }

    /**
     * One API token ({@code onebeat.security.tokens[i]}), sent as {@code Authorization: Bearer <token>}.
     *
     * @param name what the token is for, the acting user in the audit log
     * @param tokenSha256 the lower- or upper-case hex SHA-256 of the token's UTF-8 bytes
     * @param role viewer, operator or admin over the whole cluster; unset for a token of some namespaces only
     * @param namespaces viewer, operator or admin in each of these namespaces, by namespace (a team's pipeline)
     */
    public record Token(String name, String tokenSha256, String role, Map<String, String> namespaces) {
    }

    /**
     * OIDC login options ({@code onebeat.security.oidc.*}); the registration itself is Spring Boot's
     * {@code spring.security.oauth2.client.registration.<id>} and {@code ...provider.<id>}.
     *
     * @param rolesClaim the claim (ID token or user info) listing the user's roles, as a list or a
     *        space- or comma-separated string: {@code viewer}, {@code operator} or {@code admin} over the cluster,
     *        {@code <namespace>:<role>} in one namespace; other values are ignored
     * @param groups the roles each group gives, by group name: each {@code <role>} over the cluster or
     *        {@code <namespace>:<role>}, such as {@code payments-team: [payments:operator]}
     * @param groupsClaim the claim listing the user's groups, read as {@code rolesClaim} is
     */
    public record Oidc(@DefaultValue("roles") String rolesClaim, @DefaultValue("groups") String groupsClaim,
                       @DefaultValue Map<String, List<String>> groups) {
    }
}
