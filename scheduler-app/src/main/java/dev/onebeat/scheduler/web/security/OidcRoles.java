package dev.onebeat.scheduler.web.security;

import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.springframework.security.core.GrantedAuthority;
import org.springframework.security.core.authority.SimpleGrantedAuthority;
import org.springframework.security.core.authority.mapping.GrantedAuthoritiesMapper;
import org.springframework.security.oauth2.core.user.OAuth2UserAuthority;

/**
 * Gives an OIDC (or OAuth2) login the onebeat roles of its ID token or user info: the values of the roles claim
 * ({@code onebeat.security.oidc.roles-claim}), and the roles its groups give ({@code groups-claim} read against
 * {@code groups}). A value is a list, or a space- or comma-separated string, of {@code viewer}, {@code operator},
 * {@code admin} (over the cluster) or {@code <namespace>:<role>}. Other values, and namespaces the cluster does not
 * have, are ignored, so a login without a role can sign in but is refused every page.
 */
final class OidcRoles implements GrantedAuthoritiesMapper {

    private final OnebeatSecurityProperties.Oidc oidc;
    private final Set<String> namespaces;

    /** @param namespaces the namespaces of the cluster */
    OidcRoles(OnebeatSecurityProperties.Oidc oidc, Set<String> namespaces) {
        this.oidc = oidc;
        this.namespaces = namespaces;
    }

    @Override
    public Collection<? extends GrantedAuthority> mapAuthorities(Collection<? extends GrantedAuthority> authorities) {
        Set<GrantedAuthority> mapped = new LinkedHashSet<>(authorities);
        for (GrantedAuthority authority : authorities) {
            if (authority instanceof OAuth2UserAuthority user) {
                Map<String, Object> attributes = user.getAttributes();
                values(attributes.get(oidc.rolesClaim())).forEach(value -> grant(value).ifPresent(mapped::add));
                for (String group : values(attributes.get(oidc.groupsClaim()))) {
                    oidc.groups().getOrDefault(group, List.of()).forEach(value -> grant(value).ifPresent(mapped::add));
                }
            }
        }
        return mapped;
    }

    /** @return the authority {@code role} or {@code namespace:role} stands for, if it names a role (and a namespace) */
    private Optional<GrantedAuthority> grant(String value) {
        int colon = value.indexOf(':');
        if (colon < 0) {
            return Role.named(value).map(role -> new SimpleGrantedAuthority(role.authority()));
        }
        String namespace = value.substring(0, colon).strip();
        return namespaces.contains(namespace)
                ? Role.named(value.substring(colon + 1)).map(role -> Grants.namespaceAuthority(namespace, role))
                : Optional.empty();
    }

    private static List<String> values(Object claimValue) {
        if (claimValue instanceof Collection<?> list) {
            return list.stream().map(String::valueOf).toList();
        }
        return Optional.ofNullable(claimValue).map(value -> List.of(value.toString().split("[\\s,]+"))).orElse(List.of());
    }
}
