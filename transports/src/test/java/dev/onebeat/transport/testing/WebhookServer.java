package dev.onebeat.transport.testing;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A real HTTP server on an ephemeral loopback port that records every request and answers each path
 * as its {@link Responder} says (200 for a path without one).
 */
public final class WebhookServer implements AutoCloseable {

    /**
     * @param method the request method
     * @param path the request path
     * @param query the query string, or null
     * @param headers the first value of each header, by lower-case name
     * @param body the body, UTF-8
     */
    public record Request(String method, String path, String query, Map<String, String> headers, String body) {

        public String header(String name) {
            return headers.get(name.toLowerCase(Locale.ROOT));
        }

        public String key() {
            return header("Idempotency-Key");
        }
    }

    /** The answer to a request: a status and body, given after a delay. */
    public record Answer(int status, String body, Duration delay) {

        public static Answer of(int status) {
            return new Answer(status, "", Duration.ZERO);
        }
    }

    /** Decides the answer; {@code attempt} counts the requests of the same path and key, from 1. */
    @FunctionalInterface
    public interface Responder {
        Answer answer(Request request, int attempt);
    }

    private HttpServer server;
    private final int port;
    private final ExecutorService executor = Executors.newCachedThreadPool();
    private final Map<String, Responder> responders = new ConcurrentHashMap<>();
    private final Queue<Request> requests = new ConcurrentLinkedQueue<>();
    private final Map<String, AtomicInteger> attempts = new ConcurrentHashMap<>();
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicInteger maxInFlight = new AtomicInteger();

    public WebhookServer() throws IOException {
        server = serve(0);
        port = server.getAddress().getPort();
    }

    private HttpServer serve(int onPort) throws IOException {
        HttpServer started = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), onPort), 50);
        started.createContext("/", this::handle);
        started.setExecutor(executor);
        started.start();
        return started;
    }

    /** @return {@code http://127.0.0.1:<port>} */
    public String baseUrl() {
        return "http://127.0.0.1:" + port;
    }

    /** Stops listening: connections are refused until {@link #listenAgain()}; what was recorded stays. */
    public synchronized void stopListening() {
        server.stop(0);
    }

    /** Listens again on the same port. */
    public synchronized void listenAgain() throws IOException {
        server = serve(port);
    }

    public WebhookServer on(String path, Responder responder) {
        responders.put(path, responder);
        return this;
    }

    /** @return the requests to a path so far, in arrival order */
    public List<Request> requests(String path) {
        return requests.stream().filter(request -> request.path().equals(path)).toList();
    }

    /** @return how many requests to a path carried this idempotency key */
    public long count(String path, String key) {
        return requests(path).stream().filter(request -> key.equals(request.key())).count();
    }

    /** @return the most requests received and not yet answered at one time */
    public int maxInFlight() {
        return maxInFlight.get();
    }

    private void handle(HttpExchange exchange) throws IOException {
        int now = inFlight.incrementAndGet();
        maxInFlight.accumulateAndGet(now, Math::max);
        boolean answered = false;
        try (exchange) {
            Map<String, String> headers = new HashMap<>();
            exchange.getRequestHeaders().forEach((name, values) ->
                    headers.put(name.toLowerCase(Locale.ROOT), values.get(0)));
            String body;
            try (InputStream in = exchange.getRequestBody()) {
                body = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            }
            String path = exchange.getRequestURI().getPath();
            Request request = new Request(exchange.getRequestMethod(), path, exchange.getRequestURI().getRawQuery(),
                    Map.copyOf(headers), body);
            requests.add(request);
            int attempt = attempts.computeIfAbsent(path + " " + request.key(), k -> new AtomicInteger()).incrementAndGet();
            Answer answer = responders.getOrDefault(path, (r, a) -> Answer.of(200)).answer(request, attempt);
            if (!answer.delay().isZero()) {
                Thread.sleep(answer.delay().toMillis());
            }
            byte[] bytes = answer.body().getBytes(StandardCharsets.UTF_8);
            // no longer in flight once the client can have its answer and send the next request
            inFlight.decrementAndGet();
            answered = true;
            exchange.sendResponseHeaders(answer.status(), bytes.length == 0 ? -1 : bytes.length);
            if (bytes.length > 0) {
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(bytes);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IOException e) {
            // the client gave up (a timeout under test); nothing to answer
        } finally {
            if (!answered) {
                inFlight.decrementAndGet();
            }
        }
    }

    /** @return every request so far, in arrival order */
    public List<Request> requests() {
        return List.copyOf(requests);
    }

    @Override
    public synchronized void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}
