package dev.onebeat.testsupport;

import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The few edits of {@code jdbc:postgresql:} URLs this module needs, done on the text so that every
 * parameter the user wrote survives unchanged.
 */
final class JdbcUrls {

    private static final String PREFIX = "jdbc:postgresql:";
    private static final Pattern PASSWORD_VALUE = Pattern.compile("([?&]password=)[^&]*");

    private JdbcUrls() {
    }

    /**
     * Points a URL at another database on the same server, keeping hosts, ports and parameters:
     * {@code jdbc:postgresql://h:5432/postgres?ssl=true} becomes
     * {@code jdbc:postgresql://h:5432/other?ssl=true}.
     */
    static String withDatabase(String url, String database) {
        Parts parts = Parts.of(url);
        String server = parts.authority().isEmpty() ? "" : parts.authority() + "/";
        return PREFIX + server + database + parts.query();
    }

    /** The database a URL names, if it names one; the driver otherwise connects to the user's. */
    static Optional<String> database(String url) {
        String database = Parts.of(url).database();
        return database.isEmpty()
                ? Optional.empty()
                : Optional.of(URLDecoder.decode(database, StandardCharsets.UTF_8));
    }

    /** The decoded value of a URL parameter, as the driver would read it. */
    static Optional<String> parameter(String url, String key) {
        String query = Parts.of(url).query();
        if (query.isEmpty()) {
            return Optional.empty();
        }
        for (String pair : query.substring(1).split("&")) {
            int equals = pair.indexOf('=');
            String name = equals < 0 ? pair : pair.substring(0, equals);
            if (name.equals(key)) {
                String value = equals < 0 ? "" : pair.substring(equals + 1);
                return Optional.of(URLDecoder.decode(value, StandardCharsets.UTF_8));
            }
        }
        return Optional.empty();
    }

    /** Appends each parameter the URL does not already have, URL-encoded. */
    static String withMissingParameters(String url, Map<String, String> parameters) {
        StringBuilder result = new StringBuilder(url);
        boolean hasQuery = url.indexOf('?') >= 0;
        for (Map.Entry<String, String> parameter : parameters.entrySet()) {
            if (parameter(url, parameter.getKey()).isPresent()) {
                continue;
            }
            result.append(hasQuery ? '&' : '?')
                    .append(parameter.getKey()).append('=')
                    .append(URLEncoder.encode(parameter.getValue(), StandardCharsets.UTF_8));
            hasQuery = true;
        }
        return result.toString();
    }

    /** The URL with the value of any {@code password} parameter masked, for logs and messages. */
    static String redacted(String url) {
        return PASSWORD_VALUE.matcher(url).replaceAll("$1***");
    }

    /**
     * A URL cut after {@code jdbc:postgresql:} into the {@code //hosts} part (empty in the short
     * form {@code jdbc:postgresql:database}), the database (empty if absent) and the query with its
     * {@code ?} (empty if absent).
     */
    private record Parts(String authority, String database, String query) {

        static Parts of(String url) {
            if (!url.startsWith(PREFIX)) {
                throw new IllegalArgumentException("not a PostgreSQL JDBC URL: " + redacted(url));
            }
            int queryStart = url.indexOf('?');
            String rest = url.substring(PREFIX.length(), queryStart < 0 ? url.length() : queryStart);
            String query = queryStart < 0 ? "" : url.substring(queryStart);
            if (!rest.startsWith("//")) {
                return new Parts("", rest.startsWith("/") ? rest.substring(1) : rest, query);
            }
            int slash = rest.indexOf('/', 2);
            return slash < 0
                    ? new Parts(rest, "", query)
                    : new Parts(rest.substring(0, slash), rest.substring(slash + 1), query);
        }
    }
}
