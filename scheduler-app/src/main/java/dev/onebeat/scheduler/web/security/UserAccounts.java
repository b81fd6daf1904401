package dev.onebeat.scheduler.web.security;

import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.core.userdetails.UserDetails;
import org.springframework.security.crypto.password.PasswordEncoder;

/** The users of {@code onebeat.security.users[]}, validated, and the generated admin of the embedded default. */
final class UserAccounts {

    private static final Logger log = LoggerFactory.getLogger(UserAccounts.class);

    /** {@code {bcrypt}} then a modular-crypt bcrypt hash: version, two-digit cost, 22 salt + 31 hash characters. */
    private static final Pattern BCRYPT = Pattern.compile("\\{bcrypt}\\$2[aby]?\\$(\\d{2})\\$[./A-Za-z0-9]{53}");

    static final String GENERATED_ADMIN = "admin";
    /** The cost of the encoder's own hashes ({@code BCryptPasswordEncoder}'s default), such as its dummy one. */
    static final int ENCODER_COST = 10;

    private UserAccounts() {
    }

    /**
     * The configured users; a plain-text password, an unknown role or namespace or a repeated name stops start-up.
     *
     * @param namespaces the namespaces of the cluster, which their roles may name
     */
    static List<UserDetails> configured(List<OnebeatSecurityProperties.User> users, Set<String> namespaces) {
        List<UserDetails> accounts = new ArrayList<>();
        Map<String, String> seen = new HashMap<>();
        for (int i = 0; i < users.size(); i++) {
            String property = "onebeat.security.users[" + i + "]";
            OnebeatSecurityProperties.User user = users.get(i);
            if (user.name() == null || user.name().isBlank()) {
                throw new SecurityConfigurationException(property + ".name: is missing");
            }
            String earlier = seen.putIfAbsent(user.name(), property);
            if (earlier != null) {
                throw new SecurityConfigurationException(property + ".name: '" + user.name()
                        + "' is already defined by " + earlier);
            }
            // the value is never repeated: it may be a real password typed in plain text
            Matcher hash = user.password() == null ? null : BCRYPT.matcher(user.password());
            if (hash == null || !hash.matches()) {
                throw new SecurityConfigurationException(property + ".password: must be a bcrypt hash written "
                        + "{bcrypt}$2a$10$... (53 characters after the cost); plain-text passwords are refused");
            }
            int cost = Integer.parseInt(hash.group(1));
            if (cost < ENCODER_COST) {
                // an unknown name is checked against a dummy hash of the encoder's cost: a cheaper hash answers faster
                log.warn("{}.password: bcrypt cost {} is below {}: a login of this user answers faster than one of an "
                        + "unknown name, so the name can be told to exist, and the hash is cheaper to break; write it "
                        + "at cost {} or more", property, cost, ENCODER_COST, ENCODER_COST);
            }
            accounts.add(User.withUsername(user.name()).password(user.password())
                    .authorities(Grants.configured(user.role(), user.namespaces(), property, namespaces)).build());
        }
        return accounts;
    }

    /**
     * An {@code admin} with a random password, logged once here and kept only as its bcrypt hash: the
     * embedded default must be usable at the first {@code java -jar} without shipping a known password.
     */
    static UserDetails generatedAdmin(PasswordEncoder encoder) {
        byte[] random = new byte[18];
        new SecureRandom().nextBytes(random);
        String password = Base64.getUrlEncoder().withoutPadding().encodeToString(random);
        log.warn("generated admin password user={} password={} (embedded database and no onebeat.security.users: "
                        + "a new password is generated at each start; configure real users with "
                        + "onebeat.security.users[0].name, .password={bcrypt}<hash> and .role=admin)",
                GENERATED_ADMIN, password);
        return User.withUsername(GENERATED_ADMIN).password(encoder.encode(password)).roles(Role.ADMIN.name()).build();
    }
}
