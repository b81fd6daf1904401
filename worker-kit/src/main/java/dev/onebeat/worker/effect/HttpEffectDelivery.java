package dev.onebeat.worker.effect;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Objects;

/**
 * POSTs the payload to the destination URL with the effect's key as {@code Idempotency-Key}, so a
 * receiver that honours the header applies a redelivered effect once.
 *
 * <p>A 2xx answer is a delivery. 5xx, 429, timeouts and I/O errors are thrown as
 * {@link IOException}, to be retried; any other status is a {@link PermanentDeliveryException}.
 */
public final class HttpEffectDelivery implements EffectDelivery {

    /** The header carrying {@link PendingEffect#idempotencyKey()}. */
    public static final String IDEMPOTENCY_KEY_HEADER = "Idempotency-Key";

    private static final int MAX_BODY_IN_ERROR = 500;

    private final HttpClient client;
    private final Duration timeout;
    private final String contentType;

    /** JSON payloads, a client of its own, {@code timeout} to connect and for the whole answer. */
    public HttpEffectDelivery(Duration timeout) {
        this(HttpClient.newBuilder().connectTimeout(timeout).build(), timeout, "application/json");
    }

    /**
     * @param timeout     for the answer to each request, after which the attempt is retried
     * @param contentType sent as {@code Content-Type}
     */
    public HttpEffectDelivery(HttpClient client, Duration timeout, String contentType) {
        this.client = Objects.requireNonNull(client, "client must not be null");
        this.timeout = Objects.requireNonNull(timeout, "timeout must not be null");
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("timeout must be positive, was " + timeout);
        }
        if (contentType == null || contentType.isBlank()) {
            throw new IllegalArgumentException("contentType must not be blank, was " + contentType);
        }
        this.contentType = contentType;
    }

    @Override
    public void deliver(PendingEffect effect) throws IOException, InterruptedException {
        HttpResponse<String> response = client.send(request(effect), HttpResponse.BodyHandlers.ofString());
        int status = response.statusCode();
        if (status >= 200 && status < 300) {
            return;
        }
        String error = "HTTP " + status + " from " + effect.destination() + ": " + abbreviated(response.body());
        if (status >= 500 || status == 429) {
            throw new IOException(error);
        }
        throw new PermanentDeliveryException(error);
    }

    private HttpRequest request(PendingEffect effect) {
        try {
            return HttpRequest.newBuilder(URI.create(effect.destination()))
                    .timeout(timeout)
                    .header("Content-Type", contentType)
                    .header(IDEMPOTENCY_KEY_HEADER, effect.idempotencyKey())
                    .POST(HttpRequest.BodyPublishers.ofString(effect.payload()))
                    .build();
        } catch (IllegalArgumentException e) {
            // an unusable URL or key stays unusable however often it is retried
            throw new PermanentDeliveryException("cannot build a request for " + effect.destination() + ": "
                    + e.getMessage(), e);
        }
    }

    private static String abbreviated(String body) {
        return body.length() <= MAX_BODY_IN_ERROR ? body : body.substring(0, MAX_BODY_IN_ERROR) + "...";
    }
}
