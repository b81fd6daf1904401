package dev.onebeat.scheduler.web.api;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Requests to a scheduler started on {@code localhost:port}, each with the same {@code Authorization}
 * value, or with none for an anonymous client. Responses are read whole as strings and never checked
 * here: status, headers and body are the test's to assert.
 */
final class ApiClient {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final HttpClient http = HttpClient.newHttpClient();
    private final String origin;
    private final String authorization;

    /** A client that sends no {@code Authorization} header. */
    ApiClient(int port) {
        this(port, null);
    }

    /** A client that sends {@code authorization}, e.g. {@code SecurityTestUsers.basic("admin")}, on every request. */
    ApiClient(int port, String authorization) {
        this.origin = "http://localhost:" + port;
        this.authorization = authorization;
    }

    HttpResponse<String> get(String path) throws IOException, InterruptedException {
        return send(request(path));
    }

    /** Sends {@code body}, when there is one, as {@code application/json}; otherwise an empty body. */
    HttpResponse<String> send(String method, String path, String body) throws IOException, InterruptedException {
        HttpRequest.Builder request = request(path).method(method, body == null
                ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (body != null) {
            request.header("Content-Type", "application/json");
        }
        return send(request);
    }

    /** A GET of {@code path} to change (method, headers) and pass to {@link #send(HttpRequest.Builder)}. */
    HttpRequest.Builder request(String path) {
        return HttpRequest.newBuilder(URI.create(origin + path));
    }

    HttpResponse<String> send(HttpRequest.Builder request) throws IOException, InterruptedException {
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    static JsonNode json(HttpResponse<String> response) {
        return JSON.readTree(response.body());
    }

    /** The {@code detail} of a problem-details body. */
    static String detail(HttpResponse<String> response) {
        return json(response).get("detail").asString();
    }
}
