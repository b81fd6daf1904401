package dev.onebeat.scheduler.web.security;

/**
 * A user or token definition that cannot be used; stops start-up. The message names the property
 * ({@code onebeat.security.users[0].password}) and, unless it is a secret, the value.
 */
public class SecurityConfigurationException extends RuntimeException {

    public SecurityConfigurationException(String message) {
        super(message);
    }
}
