package dev.onebeat.scheduler.web.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.springframework.security.core.GrantedAuthority;
import org.springframework.security.core.authority.AuthorityUtils;
import org.springframework.security.oauth2.core.oidc.OidcIdToken;
import org.springframework.security.oauth2.core.oidc.user.OidcUserAuthority;

class OidcRolesTest {

    private final OidcRoles roles = new OidcRoles(new OnebeatSecurityProperties.Oidc("groups", "teams",
            Map.of("payments-devs", List.of("payments:operator"), "sre", List.of("viewer", "reports:admin"))),
            Set.of("default", "payments", "reports"));

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

    @Test
    void aNamespacedValueGivesARoleInThatNamespaceOnly() {
        Grants grants = Grants.of(roles.mapAuthorities(login(Map.of("groups", List.of("payments:admin",
                "billing:admin", "reports:root")))));

        assertThat(grants.cluster()).isNull();
        assertThat(grants.namespaces()).as("an undeclared namespace or unknown role is ignored")
                .containsExactly(Map.entry("payments", Role.ADMIN));
    }

    @Test
    void groupsGiveTheRolesConfiguredForThem() {
        Grants grants = Grants.of(roles.mapAuthorities(login(Map.of("teams", List.of("payments-devs", "sre",
                "unknown-team")))));

        assertThat(grants.cluster()).isEqualTo(Role.VIEWER);
        assertThat(grants.namespaces()).containsExactlyInAnyOrderEntriesOf(Map.of("payments", Role.OPERATOR,
                "reports", Role.ADMIN));
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
