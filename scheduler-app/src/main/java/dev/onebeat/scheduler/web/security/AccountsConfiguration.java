package dev.onebeat.scheduler.web.security;

import dev.onebeat.scheduler.boot.embedded.NoDatasourceUrlCondition;
import dev.onebeat.scheduler.engine.registry.Namespaces;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.security.core.userdetails.UserDetails;
import org.springframework.security.core.userdetails.UserDetailsService;
import org.springframework.security.crypto.bcrypt.BCryptPasswordEncoder;
import org.springframework.security.crypto.password.DelegatingPasswordEncoder;
import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.security.oauth2.client.registration.ClientRegistrationRepository;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;

/**
 * Users and API tokens from configuration. Defining the {@link UserDetailsService} here also keeps
 * Spring Boot from creating its default {@code user} with a generated password.
 */
@Configuration(proxyBeanMethods = false)
class AccountsConfiguration {

    private static final Logger log = LoggerFactory.getLogger(AccountsConfiguration.class);

    /** bcrypt only: the one format {@link UserAccounts} accepts. */
    @Bean
    PasswordEncoder passwordEncoder() {
        return new DelegatingPasswordEncoder("bcrypt", Map.of("bcrypt", new BCryptPasswordEncoder()));
    }

    @Bean
    ApiTokens apiTokens(OnebeatSecurityProperties properties, Namespaces namespaces) {
        return ApiTokens.configured(properties.tokens(), namespaces.names());
    }

    /**
     * The configured users, looked up only: not a {@code UserDetailsPasswordService}, so Spring Security does not
     * re-hash a password at login. It would re-hash one written at a lower bcrypt cost than the encoder's 10, in memory
     * only (the configuration keeps the hash it had), and every later request of that user would pay the higher cost:
     * a request is checked at the cost its hash was written with, as configured.
     */
    @Bean
    UserDetailsService userDetailsService(OnebeatSecurityProperties properties, ApiTokens tokens,
                                          PasswordEncoder encoder, Environment environment,
                                          ObjectProvider<ClientRegistrationRepository> oidc, Namespaces namespaces) {
        UserDetailsService users = new InMemoryUserDetailsManager(users(properties, tokens, encoder, environment, oidc,
                namespaces));
        return users::loadUserByUsername;
    }

    /** What the users page shows: the accounts the service above was given, without their secrets. */
    @Bean
    Accounts accounts(OnebeatSecurityProperties properties, ApiTokens tokens, Environment environment,
                      ObjectProvider<ClientRegistrationRepository> oidc, Namespaces namespaces) {
        List<Accounts.Account> accounts = new ArrayList<>();
        for (int i = 0; i < properties.users().size(); i++) {
            OnebeatSecurityProperties.User user = properties.users().get(i);
            String property = "onebeat.security.users[" + i + "]";
            accounts.add(Accounts.Account.of(user.name(), "user", Grants.of(Grants.configured(user.role(),
                    user.namespaces(), property, namespaces.names())), property));
        }
        if (adminGenerated(properties, environment)) {
            accounts.add(Accounts.Account.of(UserAccounts.GENERATED_ADMIN, "generated",
                    new Grants(Role.ADMIN, Map.of()), "generated at start-up (embedded default, no onebeat.security.users)"));
        }
        accounts.addAll(tokens.accounts());
        return new Accounts(accounts, oidc.getIfAvailable() != null, properties.oidc().rolesClaim());
    }

    private static List<UserDetails> users(OnebeatSecurityProperties properties, ApiTokens tokens,
                                           PasswordEncoder encoder, Environment environment,
                                           ObjectProvider<ClientRegistrationRepository> oidc, Namespaces namespaces) {
        List<UserDetails> users = new ArrayList<>(UserAccounts.configured(properties.users(), namespaces.names()));
        if (adminGenerated(properties, environment)) {
            users.add(UserAccounts.generatedAdmin(encoder));
        } else if (users.isEmpty() && tokens.isEmpty() && oidc.getIfAvailable() == null) {
            // start anyway: health stays up for the orchestrator, but nothing else is open by default
            log.warn("no users configured: every endpoint but /actuator/health and /actuator/info answers 401; "
                    + "configure onebeat.security.users[], onebeat.security.tokens[] or an OIDC registration "
                    + "(spring.security.oauth2.client.registration.*)");
        }
        return users;
    }

    /** The embedded default with no users configured gets an admin with a generated password. */
    private static boolean adminGenerated(OnebeatSecurityProperties properties, Environment environment) {
        return properties.users().isEmpty() && NoDatasourceUrlCondition.embeddedWanted(environment);
    }
}
