package dev.onebeat.scheduler.web.security;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Who may sign in, as configuration made them: the users (or the generated admin of the embedded
 * default) and the API tokens with their roles, and whether OIDC login is on. Secrets are not kept
 * here. Accounts are changed in configuration ({@code onebeat.security.*}) and a restart; the console
 * and {@code GET /api/users} only show them, to admins.
 *
 * @param accounts every user and token, users first, in configuration order
 * @param oidc whether an OIDC client registration is configured
 * @param oidcRolesClaim the claim OIDC roles are read from
 */
public record Accounts(List<Account> accounts, boolean oidc, String oidcRolesClaim) {

    /**
     * @param name the user or token name, the actor in the audit log
     * @param kind {@code user}, {@code token}, or {@code generated} for the embedded default's admin
     * @param role viewer, operator or admin over the whole cluster, or null for an account of some namespaces only
     * @param namespaces its role in each namespace granted one, by namespace
     * @param definedBy the property that defines it ({@code onebeat.security.users[0]}), or how it came to be
     */
    public record Account(String name, String kind, String role, Map<String, String> namespaces, String definedBy) {

        static Account of(String name, String kind, Grants grants, String definedBy) {
            Map<String, String> namespaces = new TreeMap<>();
            grants.namespaces().forEach((namespace, role) -> namespaces.put(namespace, role.toString()));
            return new Account(name, kind, grants.cluster() == null ? null : grants.cluster().toString(), namespaces,
                    definedBy);
        }
    }

    public Accounts {
        accounts = List.copyOf(accounts);
    }
}
