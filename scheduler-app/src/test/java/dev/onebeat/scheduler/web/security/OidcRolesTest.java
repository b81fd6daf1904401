package dev.onebeat.scheduler.web.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.security.core.GrantedAuthority;
import org.springframework.security.core.authority.AuthorityUtils;
import org.springframework.security.oauth2.core.oidc.OidcIdToken;
import org.springframework.security.oauth2.core.oidc.user.OidcUserAuthority;

class OidcRolesTest {

    private final OidcRoles roles = new OidcRoles("groups");

    @Test
    void rolesListedInTheClaimBecomeAuthorities() {
        assertThat(names(roles.mapAuthorities(login(Map.of("groups", List.of("operator", "staff"))))))
                .contains("OIDC_USER", "ROLE_OPERATOR").doesNotContain("ROLE_VIEWER", "ROLE_ADMIN");
    }

    @Test
    void aSpaceOrCommaSeparatedClaimIsReadToo() {
        assertThat(names(roles.mapAuthorities(login(Map.of("groups", "viewer, ADMIN")))))
                .contains("ROLE_VIEWER", "ROLE_ADMIN");
    }

    @Test
    void aLoginWithoutTheClaimGetsNoRole() {
        assertThat(names(roles.mapAuthorities(login(Map.of("roles", List.of("admin"))))))
                .noneMatch(name -> name.startsWith("ROLE_"));
    }

    private static List<GrantedAuthority> login(Map<String, Object> claims) {
        OidcIdToken.Builder token = OidcIdToken.withTokenValue("id-token").subject("alice")
                .issuedAt(Instant.EPOCH).expiresAt(Instant.EPOCH.plusSeconds(60));
        claims.forEach(token::claim);
        return List.of(new OidcUserAuthority(token.build()));
    }

    private static List<String> names(Collection<? extends GrantedAuthority> authorities) {
        return List.copyOf(AuthorityUtils.authorityListToSet(authorities));
    }
}
