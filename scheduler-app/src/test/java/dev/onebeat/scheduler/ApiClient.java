package dev.onebeat.scheduler;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.function.IntSupplier;
import org.springframework.core.env.Environment;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Requests to the scheduler a {@link WebIT} started, each with the same {@code Authorization} value, or
 * with none for the anonymous client that the test autowires; {@link #as(String)} gives one signed in as
 * a {@link SecurityTestUsers} role. Responses are read whole as strings and never checked here: status,
 * headers and body are the test's to assert.
 */
public final class ApiClient {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private final IntSupplier port;
    private final String authorization;

    private ApiClient(IntSupplier port, String authorization) {
        this.port = port;
        this.authorization = authorization;
    }

    /** The anonymous client of the context's server, whose port is known once the server has started. */
    static ApiClient of(Environment environment) {
        return new ApiClient(() -> environment.getRequiredProperty("local.server.port", Integer.class), null);
    }

    /** A client signed in as the user named after {@code role} ({@code viewer}, {@code operator}, {@code admin}). */
    public ApiClient as(String role) {
        if (!SecurityTestUsers.ROLES.contains(role)) {
            throw new IllegalArgumentException("role: " + role + " is not one of " + SecurityTestUsers.ROLES);
        }
        return withAuthorization(SecurityTestUsers.basic(role));
    }

    /** A client that sends {@code authorization}, e.g. a bearer token, on every request. */
    public ApiClient withAuthorization(String authorization) {
        return new ApiClient(port, authorization);
    }

    /** The absolute URL of {@code path} on the server, for a browser or a client of the test's own. */
    public String url(String path) {
        return "http://localhost:" + port.getAsInt() + path;
    }

    public HttpResponse<String> get(String path) throws IOException, InterruptedException {
        return send(request(path));
    }

    /** Sends {@code body}, when there is one, as {@code application/json}; otherwise an empty body. */
    public HttpResponse<String> send(String method, String path, String body) throws IOException, InterruptedException {
        HttpRequest.Builder request = request(path).method(method, body == null
                ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (body != null) {
            request.header("Content-Type", "application/json");
        }
        return send(request);
    }

    /** A GET of {@code path} to change (method, headers) and pass to {@link #send(HttpRequest.Builder)}. */
    public HttpRequest.Builder request(String path) {
        return HttpRequest.newBuilder(URI.create(url(path)));
    }

    public HttpResponse<String> send(HttpRequest.Builder request) throws IOException, InterruptedException {
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    public static JsonNode json(HttpResponse<String> response) {
        return JSON.readTree(response.body());
    }

    /** The {@code detail} of a problem-details body. */
    public static String detail(HttpResponse<String> response) {
        return json(response).get("detail").asString();
    }
}
