package dev.onebeat.scheduler.web.security;

import java.util.Locale;
import java.util.Optional;
import org.springframework.security.access.hierarchicalroles.RoleHierarchy;
import org.springframework.security.access.hierarchicalroles.RoleHierarchyImpl;

/**
 * The three roles of onebeat, each including the ones before it: an operator can do what a viewer
 * can, an admin what an operator can. Written in lower case in configuration and OIDC claims.
 */
public enum Role {
    /** Reads jobs, fires, tasks and the cluster. */
    VIEWER,
    /** Also pauses, resumes and triggers jobs, retries and discards tasks. */
    OPERATOR,
    /** Also creates, updates and deletes jobs, and reads the actuator metrics. */
    ADMIN;

    /** The Spring Security authority of this role, {@code ROLE_ADMIN} for {@link #ADMIN}. */
    String authority() {
        return "ROLE_" + name();
    }

    /** The role written {@code value} (viewer, operator or admin, any case), if it is one. */
    static Optional<Role> named(String value) {
        for (Role role : values()) {
            if (role.name().equalsIgnoreCase(value == null ? "" : value.trim())) {
                return Optional.of(role);
            }
        }
        return Optional.empty();
    }

    /** The role configured as {@code value} under {@code property}; refuses anything else, naming both. */
    static Role configured(String value, String property) {
        return named(value).orElseThrow(() -> new SecurityConfigurationException(property + ": '" + value
                + "' is not a role; use viewer, operator or admin"));
    }

    /** admin &gt; operator &gt; viewer, for the authorization rules. */
    static RoleHierarchy hierarchy() {
        return RoleHierarchyImpl.withDefaultRolePrefix()
                .role(ADMIN.name()).implies(OPERATOR.name())
                .role(OPERATOR.name()).implies(VIEWER.name())
                .build();
    }

    @Override
    public String toString() {
        return name().toLowerCase(Locale.ROOT);
    }
}
