package dev.onebeat.worker.effect;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A local HTTP receiver that records every request and answers scripted statuses (200 once the
 * script is used up).
 */
final class HttpStub implements AutoCloseable {

    record Request(String idempotencyKey, String contentType, String body) {
    }

    private final HttpServer server;
    private final Queue<Integer> script = new ConcurrentLinkedQueue<>();
    private final Queue<Request> requests = new ConcurrentLinkedQueue<>();
    private final Map<String, AtomicInteger> perKey = new ConcurrentHashMap<>();
    private volatile long answerDelayMillis;

    HttpStub() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", this::handle);
        server.setExecutor(Executors.newFixedThreadPool(8));
        server.start();
    }

    String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/effects";
    }

    /** The next requests, in order, are answered with these statuses. */
    HttpStub answer(Integer... statuses) {
        script.addAll(List.of(statuses));
        return this;
    }

    HttpStub delayAnswers(long millis) {
        answerDelayMillis = millis;
        return this;
    }

    List<Request> requests() {
        return new ArrayList<>(requests);
    }

    Map<String, Integer> requestsPerKey() {
        Map<String, Integer> counts = new ConcurrentHashMap<>();
        perKey.forEach((key, count) -> counts.put(key, count.get()));
        return counts;
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange; InputStream body = exchange.getRequestBody()) {
            String key = exchange.getRequestHeaders().getFirst(HttpEffectDelivery.IDEMPOTENCY_KEY_HEADER);
            requests.add(new Request(key, exchange.getRequestHeaders().getFirst("Content-Type"),
                    new String(body.readAllBytes(), StandardCharsets.UTF_8)));
            perKey.computeIfAbsent(String.valueOf(key), k -> new AtomicInteger()).incrementAndGet();
            if (answerDelayMillis > 0) {
                Thread.sleep(answerDelayMillis);
            }
            Integer status = script.poll();
            byte[] answer = ("{\"status\":" + (status == null ? 200 : status) + "}").getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(status == null ? 200 : status, answer.length);
            exchange.getResponseBody().write(answer);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        server.stop(0);
        ((java.util.concurrent.ExecutorService) server.getExecutor()).shutdownNow();
    }
}
