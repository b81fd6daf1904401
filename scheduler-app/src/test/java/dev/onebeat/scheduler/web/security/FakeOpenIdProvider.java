package dev.onebeat.scheduler.web.security;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jose.util.JSONObjectUtils;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.web.util.UriComponentsBuilder;

/**
 * An OpenID provider reduced to what an authorization-code login needs, on a free loopback port:
 * {@code /token} (checks the code, the client's Basic credentials, the {@code redirect_uri} and,
 * when the request carried a PKCE challenge, the verifier; a code is good once), {@code /jwks}
 * (the public half of {@link #signingKey()}) and {@code /userinfo} (for the access token issued
 * with the code: the subject and the ID token's {@code preferred_username} and {@code name}, as a
 * provider answers for the {@code profile} scope, but never the roles). The authorization step is
 * the test's: {@link #approve} reads the request the client redirected the browser to and returns
 * where the provider would send the browser back.
 */
final class FakeOpenIdProvider implements AutoCloseable {

    static final String CLIENT_ID = "onebeat";
    static final String CLIENT_SECRET = "not-so-secret";

    /** Standard claims of the {@code profile} scope that user info repeats; never the roles. */
    private static final Set<String> PROFILE = Set.of("preferred_username", "name");

    private record Grant(String redirectUri, String codeChallenge, String accessToken, String idToken,
                         Map<String, Object> userInfo) {
    }

    private final HttpServer server;
    private final RSAKey signingKey;
    private final Map<String, Grant> codes = new ConcurrentHashMap<>();
    private final Map<String, Map<String, Object>> userInfos = new ConcurrentHashMap<>();

    private FakeOpenIdProvider(HttpServer server, RSAKey signingKey) {
        this.server = server;
        this.signingKey = signingKey;
    }

    static FakeOpenIdProvider start() {
        try {
            HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
            FakeOpenIdProvider provider = new FakeOpenIdProvider(server, newKey());
            server.createContext("/token", provider::token);
            server.createContext("/jwks", exchange -> provider.answer(exchange, 200,
                    new JWKSet(provider.signingKey.toPublicJWK()).toString()));
            server.createContext("/userinfo", provider::userInfo);
            server.start();
            return provider;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A key with the same key id as the provider's, so only the signature tells them apart. */
    static RSAKey newKey() {
        try {
            return new RSAKeyGenerator(2048).keyID("fake-provider-key").generate();
        } catch (JOSEException e) {
            throw new IllegalStateException(e);
        }
    }

    String uri(String path) {
        return "http://" + server.getAddress().getHostString() + ":" + server.getAddress().getPort() + path;
    }

    RSAKey signingKey() {
        return signingKey;
    }

    /**
     * Signs the user in: issues a code whose ID token carries {@code iss}, {@code aud}, {@code sub},
     * {@code iat}, {@code exp}, the request's {@code nonce}, then {@code claims} (which may replace
     * any of them), signed with {@code key}.
     *
     * @param authorizationRequest where the client sent the browser
     * @return the client's redirect URI with the code and the request's state
     */
    URI approve(URI authorizationRequest, String subject, Map<String, Object> claims, RSAKey key) {
        Map<String, String> request = UriComponentsBuilder.fromUri(authorizationRequest).build().getQueryParams()
                .toSingleValueMap().entrySet().stream().collect(LinkedHashMap::new,
                        (map, entry) -> map.put(entry.getKey(), decode(entry.getValue())), Map::putAll);
        if (!"code".equals(request.get("response_type")) || !CLIENT_ID.equals(request.get("client_id"))) {
            throw new IllegalArgumentException("not an authorization-code request of " + CLIENT_ID + ": " + request);
        }
        Instant now = Instant.now();
        JWTClaimsSet.Builder token = new JWTClaimsSet.Builder().issuer(uri("")).audience(CLIENT_ID).subject(subject)
                .issueTime(Date.from(now)).expirationTime(Date.from(now.plusSeconds(300)))
                .claim("nonce", request.get("nonce"));
        claims.forEach(token::claim);
        Map<String, Object> userInfo = new LinkedHashMap<>(Map.of("sub", subject));
        claims.forEach((name, value) -> {
            if (PROFILE.contains(name)) {
                userInfo.put(name, value);
            }
        });
        String code = UUID.randomUUID().toString();
        codes.put(code, new Grant(request.get("redirect_uri"), request.get("code_challenge"),
                UUID.randomUUID().toString(), sign(token.build(), key), userInfo));
        return UriComponentsBuilder.fromUriString(request.get("redirect_uri")).queryParam("code", code)
                .queryParam("state", URLEncoder.encode(request.get("state"), StandardCharsets.UTF_8)).build(true).toUri();
    }

    private void token(HttpExchange exchange) throws IOException {
        Map<String, String> form = form(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
        Grant grant = codes.remove(form.getOrDefault("code", ""));
        String basic = "Basic " + Base64.getEncoder().encodeToString((CLIENT_ID + ":" + CLIENT_SECRET)
                .getBytes(StandardCharsets.UTF_8));
        if (!basic.equals(exchange.getRequestHeaders().getFirst("Authorization"))) {
            answer(exchange, 401, "{\"error\":\"invalid_client\"}");
        } else if (grant == null || !"authorization_code".equals(form.get("grant_type"))
                || !grant.redirectUri().equals(form.get("redirect_uri"))
                || (grant.codeChallenge() != null && !grant.codeChallenge().equals(s256(form.get("code_verifier"))))) {
            answer(exchange, 400, "{\"error\":\"invalid_grant\"}");
        } else {
            userInfos.put(grant.accessToken(), grant.userInfo());
            answer(exchange, 200, JSONObjectUtils.toJSONString(Map.of("access_token", grant.accessToken(),
                    "token_type", "Bearer", "expires_in", 300, "id_token", grant.idToken())));
        }
    }

    private void userInfo(HttpExchange exchange) throws IOException {
        String authorization = String.valueOf(exchange.getRequestHeaders().getFirst("Authorization"));
        Map<String, Object> claims = authorization.startsWith("Bearer ")
                ? userInfos.get(authorization.substring(7)) : null;
        if (claims == null) {
            answer(exchange, 401, "{\"error\":\"invalid_token\"}");
        } else {
            answer(exchange, 200, JSONObjectUtils.toJSONString(claims));
        }
    }

    private void answer(HttpExchange exchange, int status, String json) throws IOException {
        byte[] body = json.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.getResponseHeaders().set("Cache-Control", "no-store");
        exchange.sendResponseHeaders(status, body.length);
        try (var out = exchange.getResponseBody()) {
            out.write(body);
        }
    }

    private static String sign(JWTClaimsSet claims, RSAKey key) {
        SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.RS256).keyID(key.getKeyID()).build(), claims);
        try {
            jwt.sign(new RSASSASigner(key));
        } catch (JOSEException e) {
            throw new IllegalStateException(e);
        }
        return jwt.serialize();
    }

    private static Map<String, String> form(String body) {
        Map<String, String> form = new LinkedHashMap<>();
        for (String pair : body.split("&")) {
            int equals = pair.indexOf('=');
            if (equals > 0) {
                form.put(decode(pair.substring(0, equals)), decode(pair.substring(equals + 1)));
            }
        }
        return form;
    }

    private static String decode(String value) {
        return value == null ? null : URLDecoder.decode(value, StandardCharsets.UTF_8);
    }

    private static String s256(String verifier) {
        if (verifier == null) {
            return null;
        }
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(verifier.getBytes(StandardCharsets.US_ASCII));
            return Base64.getUrlEncoder().withoutPadding().encodeToString(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
