package dev.onebeat.scheduler;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import org.springframework.security.crypto.bcrypt.BCryptPasswordEncoder;
import org.springframework.test.context.DynamicPropertyRegistry;

/**
 * Test credentials given to a scheduler through {@code onebeat.security.*}: one user per role, named
 * after it ({@code viewer}, {@code operator}, {@code admin}) with {@link #PASSWORD}, and one token per
 * role ({@code viewer-token}...).
 */
public final class SecurityTestUsers {

    public static final String PASSWORD = "correct horse battery staple";
    public static final List<String> ROLES = List.of("viewer", "operator", "admin");

    private SecurityTestUsers() {
    }

    /** Registers the users and tokens; call from a {@code @DynamicPropertySource}. */
    public static void register(DynamicPropertyRegistry registry) {
        // cost 4 keeps start-up fast; the hash format is the one production uses
        String hash = "{bcrypt}" + new BCryptPasswordEncoder(4).encode(PASSWORD);
        for (int i = 0; i < ROLES.size(); i++) {
            String role = ROLES.get(i);
            registry.add("onebeat.security.users[" + i + "].name", () -> role);
            registry.add("onebeat.security.users[" + i + "].password", () -> hash);
            registry.add("onebeat.security.users[" + i + "].role", () -> role);
            registry.add("onebeat.security.tokens[" + i + "].name", () -> role + "-token");
            registry.add("onebeat.security.tokens[" + i + "].token-sha256", () -> sha256Hex(token(role)));
            registry.add("onebeat.security.tokens[" + i + "].role", () -> role);
        }
    }

    /** The secret of the token with that role. */
    public static String token(String role) {
        return "test-token-" + role;
    }

    /** {@code Authorization} value for the user named after {@code role}. */
    public static String basic(String role) {
        return basic(role, PASSWORD);
    }

    public static String basic(String user, String password) {
        return "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    }

    /** {@code Authorization} value for the token with that role. */
    public static String bearer(String role) {
        return "Bearer " + token(role);
    }

    public static String sha256Hex(String value) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(value.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
