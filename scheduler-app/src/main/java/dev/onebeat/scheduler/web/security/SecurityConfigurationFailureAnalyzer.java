package dev.onebeat.scheduler.web.security;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/** Turns a bad user or token definition into a start-up report that leads with the property at fault. */
class SecurityConfigurationFailureAnalyzer extends AbstractFailureAnalyzer<SecurityConfigurationException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, SecurityConfigurationException cause) {
        return new FailureAnalysis("A user or API token definition is invalid: " + cause.getMessage(),
                "Fix the property named above under onebeat.security, then restart. A password is a bcrypt hash "
                        + "prefixed with {bcrypt} (htpasswd -nbBC 10 '' 'the-password' | cut -d: -f2 prints one); "
                        + "a token is given by the hex SHA-256 of its value (printf %s \"$TOKEN\" | sha256sum).",
                cause);
    }
}
