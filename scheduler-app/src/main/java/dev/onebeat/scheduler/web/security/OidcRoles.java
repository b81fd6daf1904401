package dev.onebeat.scheduler.web.security;

import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.springframework.security.core.GrantedAuthority;
import org.springframework.security.core.authority.SimpleGrantedAuthority;
import org.springframework.security.core.authority.mapping.GrantedAuthoritiesMapper;
import org.springframework.security.oauth2.core.user.OAuth2UserAuthority;

/**
 * Gives an OIDC (or OAuth2) login the onebeat roles listed in one claim of its ID token or user
 * info ({@code onebeat.security.oidc.roles-claim}): a list, or a space- or comma-separated string,
 * of viewer, operator, admin. Other values are ignored, so a login without a role can sign in but
 * is refused every page.
 */
final class OidcRoles implements GrantedAuthoritiesMapper {

    private final String claim;

    OidcRoles(String claim) {
        this.claim = claim;
    }

    @Override
    public Collection<? extends GrantedAuthority> mapAuthorities(Collection<? extends GrantedAuthority> authorities) {
        Set<GrantedAuthority> mapped = new LinkedHashSet<>(authorities);
        for (GrantedAuthority authority : authorities) {
            if (authority instanceof OAuth2UserAuthority user) {
                for (String value : values(user.getAttributes().get(claim))) {
                    Role.named(value).ifPresent(role -> mapped.add(new SimpleGrantedAuthority(role.authority())));
                }
            }
        }
        return mapped;
    }

    private static List<String> values(Object claimValue) {
        if (claimValue instanceof Collection<?> list) {
            return list.stream().map(String::valueOf).toList();
        }
        return Optional.ofNullable(claimValue).map(value -> List.of(value.toString().split("[\\s,]+"))).orElse(List.of());
    }
}
