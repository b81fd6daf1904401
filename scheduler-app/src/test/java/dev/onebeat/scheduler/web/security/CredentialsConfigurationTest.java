package dev.onebeat.scheduler.web.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.onebeat.scheduler.SecurityTestUsers;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.authority.AuthorityUtils;
import org.springframework.security.core.userdetails.UserDetails;
import org.springframework.security.crypto.bcrypt.BCryptPasswordEncoder;

/** Users and tokens from configuration: what is accepted, and how a refusal names the property. */
class CredentialsConfigurationTest {

    private static final String HASH = "{bcrypt}" + new BCryptPasswordEncoder(4).encode("secret");
    private static final Set<String> NAMESPACES = Set.of("default", "payments", "reports");

    @Test
    void bcryptUserGetsItsRole() {
        assertThat(UserAccounts.configured(List.of(new OnebeatSecurityProperties.User("alice", HASH, "Operator", null)),
                NAMESPACES))
                .singleElement().satisfies(user -> assertThat(AuthorityUtils.authorityListToSet(user.getAuthorities()))
                        .containsExactly("ROLE_OPERATOR"));
    }

    @Test
    @ExtendWith(OutputCaptureExtension.class)
    void aHashCheaperThanTheEncodersIsAcceptedWithAWarningNamingTheProperty(CapturedOutput output) {
        UserAccounts.configured(List.of(new OnebeatSecurityProperties.User("alice", HASH, "viewer", null),
                new OnebeatSecurityProperties.User("bob", "{bcrypt}" + new BCryptPasswordEncoder(10).encode("s"),
                        "viewer", null)), NAMESPACES);

        assertThat(output.getAll()).contains("onebeat.security.users[0].password: bcrypt cost 4 is below 10")
                .doesNotContain("onebeat.security.users[1].password");
    }

    @Test
    void unknownRoleIsRefusedNamingPropertyAndValue() {
        assertThatThrownBy(() -> UserAccounts.configured(List.of(new OnebeatSecurityProperties.User("a", HASH, "root",
                null)), NAMESPACES))
                .hasMessage("onebeat.security.users[0].role: 'root' is not a role; use viewer, operator or admin");
    }

    @Test
    void repeatedUserNameIsRefusedNamingBothEntries() {
        assertThatThrownBy(() -> UserAccounts.configured(List.of(new OnebeatSecurityProperties.User("a", HASH, "admin", null),
                new OnebeatSecurityProperties.User("a", HASH, "viewer", null)), NAMESPACES))
                .hasMessage("onebeat.security.users[1].name: 'a' is already defined by onebeat.security.users[0]");
    }

    @Test
    void tokenAuthenticatesAsItsNameWithItsRole() {
        ApiTokens tokens = ApiTokens.configured(List.of(
                new OnebeatSecurityProperties.Token("prometheus", SecurityTestUsers.sha256Hex("s3cret"), "admin", null)), NAMESPACES);

        Authentication authentication = tokens.authenticate("s3cret").orElseThrow();

        assertThat(authentication.getName()).isEqualTo("prometheus");
        assertThat(AuthorityUtils.authorityListToSet(authentication.getAuthorities())).containsExactly("ROLE_ADMIN");
        assertThat(tokens.authenticate("s3cret ")).isEmpty();
    }

    @Test
    void tokenGivenInsteadOfItsHashIsRefusedWithoutRepeatingIt() {
        assertThatThrownBy(() -> ApiTokens.configured(List.of(
                new OnebeatSecurityProperties.Token("ci", "the-token-itself", "operator", null)), NAMESPACES))
                .hasMessageStartingWith("onebeat.security.tokens[0].token-sha256: must be the 64 hex digits")
                .hasMessageNotContaining("the-token-itself");
    }

    @Test
    void aUserOfSomeNamespacesHoldsARoleInEachAndNoneOverTheCluster() {
        UserDetails user = UserAccounts.configured(List.of(new OnebeatSecurityProperties.User("bob", HASH,
                null, Map.of("payments", "operator", "reports", "viewer"))), NAMESPACES).get(0);

        Grants grants = Grants.of(user.getAuthorities());
        assertThat(grants.cluster()).isNull();
        assertThat(grants.namespaces()).containsExactlyInAnyOrderEntriesOf(Map.of("payments", Role.OPERATOR,
                "reports", Role.VIEWER));
        assertThat(grants.in("payments", Role.OPERATOR)).isTrue();
        assertThat(grants.in("reports", Role.OPERATOR)).isFalse();
        assertThat(grants.in("default", Role.VIEWER)).isFalse();
        assertThat(grants.anywhere(Role.OPERATOR)).isTrue();
        assertThat(grants.anywhere(Role.ADMIN)).isFalse();
        assertThat(grants.scope(null)).containsExactlyInAnyOrder("payments", "reports");
        assertThat(grants.scope("payments")).containsExactly("payments");
        assertThat(grants.scope("default")).as("a namespace it has no role in").isEmpty();
    }

    @Test
    void aRoleOverTheClusterReachesEveryNamespace() {
        Grants grants = Grants.of(ApiTokens.configured(List.of(new OnebeatSecurityProperties.Token("ci",
                SecurityTestUsers.sha256Hex("t"), "viewer", Map.of("payments", "admin"))), NAMESPACES).authenticate("t")
                .orElseThrow().getAuthorities());

        assertThat(grants.in("reports", Role.VIEWER)).isTrue();
        assertThat(grants.in("reports", Role.OPERATOR)).isFalse();
        assertThat(grants.in("payments", Role.ADMIN)).as("and its namespace role adds to it").isTrue();
        assertThat(grants.scope(null)).as("every namespace").isNull();
    }

    @Test
    void anAccountWithNoRoleOrAnUndeclaredNamespaceIsRefusedNamingTheProperty() {
        assertThatThrownBy(() -> UserAccounts.configured(List.of(new OnebeatSecurityProperties.User("a",
                HASH, null, null)), NAMESPACES))
                .hasMessageStartingWith("onebeat.security.users[0].role: is missing; give a role over the cluster");
        assertThatThrownBy(() -> ApiTokens.configured(List.of(new OnebeatSecurityProperties.Token("ci",
                SecurityTestUsers.sha256Hex("t"), null, Map.of("billing", "admin"))), NAMESPACES))
                .hasMessage("onebeat.security.tokens[0].namespaces.billing: no namespace is named 'billing'; declare it "
                        + "under onebeat.namespaces.billing (namespaces: default, payments, reports)");
        assertThatThrownBy(() -> ApiTokens.configured(List.of(new OnebeatSecurityProperties.Token("ci",
                SecurityTestUsers.sha256Hex("t"), null, Map.of("payments", "owner"))), NAMESPACES))
                .hasMessage("onebeat.security.tokens[0].namespaces.payments: 'owner' is not a role; use viewer, "
                        + "operator or admin");
    }
}
