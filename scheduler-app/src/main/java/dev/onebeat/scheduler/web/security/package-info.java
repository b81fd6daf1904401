/**
 * Who may call what: one Spring Security filter chain mapping URLs to the roles viewer &lt; operator
 * &lt; admin, with users and API tokens from configuration ({@link dev.onebeat.scheduler.web.security.OnebeatSecurityProperties}),
 * HTTP Basic and bearer tokens for the stateless API and actuator, form login (and optionally OIDC)
 * for the web UI.
 */
package dev.onebeat.scheduler.web.security;
