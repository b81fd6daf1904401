package dev.onebeat.scheduler.web.security;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.GrantedAuthority;
import org.springframework.security.core.authority.SimpleGrantedAuthority;
import org.springframework.security.core.context.SecurityContextHolder;

/**
 * What one signed-in user, token or OIDC login may do: a role over the whole cluster, a role in each of some
 * namespaces, or both. A role reaches its namespace's jobs, their tasks, backfills, audit entries and alerts; the
 * cluster's own pages (replicas, locks, users, metrics) and the calendars' changes need the role over the cluster.
 *
 * <p>Kept in the authentication as authorities: {@code ROLE_<ROLE>} for the cluster (Spring Security's own form, so
 * its role hierarchy applies) and {@code NAMESPACE:<namespace>:<ROLE>} for a namespace.
 *
 * @param cluster the role over every namespace and the cluster, or null for none
 * @param namespaces the role in each namespace granted one, by namespace
 */
public record Grants(Role cluster, Map<String, Role> namespaces) {

    private static final String NAMESPACE = "NAMESPACE:";

    public Grants {
        namespaces = Map.copyOf(namespaces);
    }

    /** @return the grants of the request's signed-in user; none for an anonymous request */
    public static Grants current() {
        Authentication authentication = SecurityContextHolder.getContext().getAuthentication();
        return authentication == null ? new Grants(null, Map.of()) : of(authentication.getAuthorities());
    }

    /** @return the grants held by these authorities; the highest role wins where several are granted */
    public static Grants of(Collection<? extends GrantedAuthority> authorities) {
        Role cluster = null;
        Map<String, Role> namespaces = new TreeMap<>();
        for (GrantedAuthority granted : authorities) {
            String authority = granted.getAuthority();
            if (authority == null) {
                continue;
            }
            if (authority.startsWith("ROLE_")) {
                Role role = Role.named(authority.substring("ROLE_".length())).orElse(null);
                cluster = higher(cluster, role);
            } else if (authority.startsWith(NAMESPACE)) {
                int colon = authority.lastIndexOf(':');
                String namespace = authority.substring(NAMESPACE.length(), colon);
                Role role = Role.named(authority.substring(colon + 1)).orElse(null);
                if (role != null) {
                    namespaces.merge(namespace, role, Grants::higher);
                }
            }
        }
        return new Grants(cluster, namespaces);
    }

    /** @return the authorities that hold a role over the cluster (may be null) and these namespace roles */
    static List<GrantedAuthority> authorities(Role cluster, Map<String, Role> namespaces) {
        List<GrantedAuthority> authorities = new ArrayList<>();
        if (cluster != null) {
            authorities.add(new SimpleGrantedAuthority(cluster.authority()));
        }
        namespaces.forEach((namespace, role) -> authorities.add(namespaceAuthority(namespace, role)));
        return authorities;
    }

    /**
     * Reads an account's grants from configuration.
     *
     * @param role its role over the cluster, or null when it has namespace roles only
     * @param namespaces its role in each namespace, by namespace
     * @param property the account's property path, for the message
     * @param declared the namespaces of the cluster
     * @throws SecurityConfigurationException naming the property when a role is unknown, a namespace undeclared, or
     *         neither role is given
     */
    static List<GrantedAuthority> configured(String role, Map<String, String> namespaces, String property,
                                             Set<String> declared) {
        Map<String, String> given = namespaces == null ? Map.of() : namespaces;
        if (role == null && given.isEmpty()) {
            throw new SecurityConfigurationException(property + ".role: is missing; give a role over the cluster "
                    + "(viewer, operator or admin), roles per namespace (" + property + ".namespaces.<namespace>), "
                    + "or both");
        }
        Role cluster = role == null ? null : Role.configured(role, property + ".role");
        Map<String, Role> roles = new TreeMap<>();
        given.forEach((namespace, value) -> {
            String path = property + ".namespaces." + namespace;
            if (!declared.contains(namespace)) {
                throw new SecurityConfigurationException(path + ": no namespace is named '" + namespace
                        + "'; declare it under onebeat.namespaces." + namespace + " (namespaces: "
                        + String.join(", ", new TreeSet<>(declared)) + ")");
            }
            roles.put(namespace, Role.configured(value, path));
        });
        return authorities(cluster, roles);
    }

    static GrantedAuthority namespaceAuthority(String namespace, Role role) {
        return new SimpleGrantedAuthority(NAMESPACE + namespace + ":" + role.name());
    }

    /** @return whether the role over the cluster is at least {@code needed} */
    public boolean overCluster(Role needed) {
        return cluster != null && cluster.compareTo(needed) >= 0;
    }

    /** @return whether {@code needed} is reached in {@code namespace}, by the cluster's role or the namespace's */
    public boolean in(String namespace, Role needed) {
        Role role = namespaces.get(namespace);
        return overCluster(needed) || role != null && role.compareTo(needed) >= 0;
    }

    /** @return whether {@code needed} is reached anywhere: over the cluster or in at least one namespace */
    public boolean anywhere(Role needed) {
        return overCluster(needed) || namespaces.values().stream().anyMatch(role -> role.compareTo(needed) >= 0);
    }

    /** @return the namespaces whose jobs these grants see; empty when they see every namespace */
    public Optional<Set<String>> visible() {
        return overCluster(Role.VIEWER) ? Optional.empty() : Optional.of(namespaces.keySet());
    }

    /**
     * The namespaces a list shows: those these grants see, narrowed to {@code requested} when one is asked for (the
     * console's switcher, the API's {@code namespace} parameter).
     *
     * @param requested a namespace, or null or blank for every one these grants see
     * @return the namespaces, or null for every namespace; empty when {@code requested} is not one these grants see
     */
    public Set<String> scope(String requested) {
        if (requested != null && !requested.isBlank()) {
            return in(requested.strip(), Role.VIEWER) ? Set.of(requested.strip()) : Set.of();
        }
        return visible().orElse(null);
    }

    private static Role higher(Role a, Role b) {
        return a == null ? b : b == null || a.compareTo(b) >= 0 ? a : b;
    }
}
