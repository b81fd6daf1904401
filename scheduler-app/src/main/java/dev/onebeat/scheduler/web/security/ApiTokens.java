package dev.onebeat.scheduler.web.security;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.GrantedAuthority;
import org.springframework.security.web.authentication.preauth.PreAuthenticatedAuthenticationToken;

/**
 * The API tokens of {@code onebeat.security.tokens[]}, kept as SHA-256 digests only. A presented
 * token is hashed and compared with every digest in constant time, so neither the configuration
 * nor the timing of a refusal gives a token away.
 */
final class ApiTokens {

    private static final Pattern SHA256_HEX = Pattern.compile("[0-9a-fA-F]{64}");

    private record Entry(String name, byte[] sha256, List<GrantedAuthority> grants, String property) {
    }

    private final List<Entry> entries;

    private ApiTokens(List<Entry> entries) {
        this.entries = List.copyOf(entries);
    }

    /**
     * The configured tokens; a bad digest, an unknown role or namespace or a repeated name or digest stops start-up.
     *
     * @param namespaces the namespaces of the cluster, which their roles may name
     */
    static ApiTokens configured(List<OnebeatSecurityProperties.Token> tokens, Set<String> namespaces) {
        List<Entry> entries = new ArrayList<>();
        Map<String, String> names = new HashMap<>();
        Map<String, String> digests = new HashMap<>();
        for (int i = 0; i < tokens.size(); i++) {
            String property = "onebeat.security.tokens[" + i + "]";
            OnebeatSecurityProperties.Token token = tokens.get(i);
            if (token.name() == null || token.name().isBlank()) {
                throw new SecurityConfigurationException(property + ".name: is missing");
            }
            String earlier = names.putIfAbsent(token.name(), property);
            if (earlier != null) {
                throw new SecurityConfigurationException(property + ".name: '" + token.name()
                        + "' is already defined by " + earlier);
            }
            // the value is not repeated: a token pasted here by mistake must not reach the logs
            if (token.tokenSha256() == null || !SHA256_HEX.matcher(token.tokenSha256()).matches()) {
                throw new SecurityConfigurationException(property + ".token-sha256: must be the 64 hex digits "
                        + "of the token's SHA-256 (printf %s \"$TOKEN\" | sha256sum), never the token itself");
            }
            earlier = digests.putIfAbsent(token.tokenSha256().toLowerCase(), property);
            if (earlier != null) {
                throw new SecurityConfigurationException(property + ".token-sha256: is the same token as " + earlier);
            }
            List<GrantedAuthority> grants = Grants.configured(token.role(), token.namespaces(), property, namespaces);
            entries.add(new Entry(token.name(), HexFormat.of().parseHex(token.tokenSha256()), grants, property));
        }
        return new ApiTokens(entries);
    }

    boolean isEmpty() {
        return entries.isEmpty();
    }

    /** @return the tokens' names and roles, never their digests */
    List<Accounts.Account> accounts() {
        return entries.stream().map(entry -> Accounts.Account.of(entry.name(), "token", Grants.of(entry.grants()),
                entry.property())).toList();
    }

    /** The token's name and role when {@code presented} is a configured token. */
    Optional<Authentication> authenticate(String presented) {
        byte[] digest = sha256(presented);
        Entry match = null;
        for (Entry entry : entries) {
            // no early exit: every digest is compared whatever matched
            if (MessageDigest.isEqual(entry.sha256(), digest)) {
                match = entry;
            }
        }
        if (match == null) {
            return Optional.empty();
        }
        return Optional.of(new PreAuthenticatedAuthenticationToken(match.name(), null, match.grants()));
    }

    private static byte[] sha256(String value) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(value.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }
}
