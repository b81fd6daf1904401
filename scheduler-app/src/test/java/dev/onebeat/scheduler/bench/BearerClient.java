package dev.onebeat.scheduler.bench;

import java.io.IOException;
import java.net.CookieManager;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * Sends GETs to one replica over one kept-alive HTTP/1.1 connection, as a viewer's API token
 * ({@code Authorization: Bearer}): authenticating costs a SHA-256 per request, where HTTP Basic
 * would cost a bcrypt check. Cookies are kept, so the console's pages reuse the session they open
 * for their CSRF tokens, as a browser's would.
 */
final class BearerClient {

    private final HttpClient http = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .cookieHandler(new CookieManager())
            .connectTimeout(Duration.ofSeconds(5))
            .build();
    private final String base;
    private final String authorization;

    BearerClient(int port, String token) {
        this.base = "http://127.0.0.1:" + port;
        this.authorization = "Bearer " + token;
    }

    /**
     * @param path and query, already encoded
     * @return the body
     * @throws IllegalStateException unless the answer is 200, which would void the time
     */
    String get(String path) throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(URI.create(base + path))
                .header("Authorization", authorization)
                .timeout(Duration.ofSeconds(30))
                .GET()
                .build();
        HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IllegalStateException("GET " + path + " answered " + response.statusCode() + ": "
                    + response.body().substring(0, Math.min(300, response.body().length())));
        }
        return response.body();
    }
}
