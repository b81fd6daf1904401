package dev.onebeat.scheduler.security;

import dev.onebeat.scheduler.embedded.NoDatasourceUrlCondition;
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
    ApiTokens apiTokens(OnebeatSecurityProperties properties) {
        return ApiTokens.configured(properties.tokens());
    }

    @Bean
    UserDetailsService userDetailsService(OnebeatSecurityProperties properties, ApiTokens tokens,
                                          PasswordEncoder encoder, Environment environment,
                                          ObjectProvider<ClientRegistrationRepository> oidc) {
        List<UserDetails> users = new ArrayList<>(UserAccounts.configured(properties.users()));
        if (users.isEmpty() && NoDatasourceUrlCondition.embeddedWanted(environment)) {
            users.add(UserAccounts.generatedAdmin(encoder));
        } else if (users.isEmpty() && tokens.isEmpty() && oidc.getIfAvailable() == null) {
            // start anyway: health stays up for the orchestrator, but nothing else is open by default
            log.warn("no users configured: every endpoint but /actuator/health and /actuator/info answers 401; "
                    + "configure onebeat.security.users[], onebeat.security.tokens[] or an OIDC registration "
                    + "(spring.security.oauth2.client.registration.*)");
        }
        return new InMemoryUserDetailsManager(users);
    }
}
