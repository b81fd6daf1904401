package dev.onebeat.scheduler.web.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.onebeat.scheduler.SecurityTestUsers;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.authority.AuthorityUtils;
import org.springframework.security.crypto.bcrypt.BCryptPasswordEncoder;

/** Users and tokens from configuration: what is accepted, and how a refusal names the property. */
class CredentialsConfigurationTest {

    private static final String HASH = "{bcrypt}" + new BCryptPasswordEncoder(4).encode("secret");

    @Test
    void bcryptUserGetsItsRole() {
        assertThat(UserAccounts.configured(List.of(new OnebeatSecurityProperties.User("alice", HASH, "Operator"))))
                .singleElement().satisfies(user -> assertThat(AuthorityUtils.authorityListToSet(user.getAuthorities()))
                        .containsExactly("ROLE_OPERATOR"));
    }

    @Test
    void unknownRoleIsRefusedNamingPropertyAndValue() {
        assertThatThrownBy(() -> UserAccounts.configured(List.of(new OnebeatSecurityProperties.User("a", HASH, "root"))))
                .hasMessage("onebeat.security.users[0].role: 'root' is not a role; use viewer, operator or admin");
    }

    @Test
    void repeatedUserNameIsRefusedNamingBothEntries() {
        assertThatThrownBy(() -> UserAccounts.configured(List.of(new OnebeatSecurityProperties.User("a", HASH, "admin"),
                new OnebeatSecurityProperties.User("a", HASH, "viewer"))))
                .hasMessage("onebeat.security.users[1].name: 'a' is already defined by onebeat.security.users[0]");
    }

    @Test
    void tokenAuthenticatesAsItsNameWithItsRole() {
        ApiTokens tokens = ApiTokens.configured(List.of(
                new OnebeatSecurityProperties.Token("prometheus", SecurityTestUsers.sha256Hex("s3cret"), "admin")));

        Authentication authentication = tokens.authenticate("s3cret").orElseThrow();

        assertThat(authentication.getName()).isEqualTo("prometheus");
        assertThat(AuthorityUtils.authorityListToSet(authentication.getAuthorities())).containsExactly("ROLE_ADMIN");
        assertThat(tokens.authenticate("s3cret ")).isEmpty();
    }

    @Test
    void tokenGivenInsteadOfItsHashIsRefusedWithoutRepeatingIt() {
        assertThatThrownBy(() -> ApiTokens.configured(List.of(
                new OnebeatSecurityProperties.Token("ci", "the-token-itself", "operator"))))
                .hasMessageStartingWith("onebeat.security.tokens[0].token-sha256: must be the 64 hex digits")
                .hasMessageNotContaining("the-token-itself");
    }
}
