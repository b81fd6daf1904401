package dev.onebeat.worker.effect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class HttpEffectDeliveryTest {

    private final HttpStub stub = new HttpStub();
    private final HttpEffectDelivery delivery = new HttpEffectDelivery(Duration.ofSeconds(5));

    HttpEffectDeliveryTest() throws IOException {
    }

    @AfterEach
    void stopStub() {
        stub.close();
    }

    @Test
    void postsThePayloadWithTheKeyAsIdempotencyKey() throws Exception {
        delivery.deliver(effect(stub.url()));

        assertThat(stub.requests()).containsExactly(new HttpStub.Request("order:1/mail", "application/json", "{\"a\":1}"));
    }

    @Test
    void sendsTheConfiguredContentType() throws Exception {
        new HttpEffectDelivery(HttpClient.newHttpClient(), Duration.ofSeconds(5), "text/plain").deliver(effect(stub.url()));

        assertThat(stub.requests()).extracting(HttpStub.Request::contentType).containsExactly("text/plain");
    }

    @Test
    void serverErrorsAndTooManyRequestsAreRetryable() {
        stub.answer(503, 429);

        assertThatThrownBy(() -> delivery.deliver(effect(stub.url())))
                .isExactlyInstanceOf(IOException.class).hasMessageStartingWith("HTTP 503 from " + stub.url());
        assertThatThrownBy(() -> delivery.deliver(effect(stub.url())))
                .isExactlyInstanceOf(IOException.class).hasMessageStartingWith("HTTP 429");
    }

    @Test
    void otherClientErrorsArePermanent() {
        stub.answer(404);

        assertThatThrownBy(() -> delivery.deliver(effect(stub.url())))
                .isInstanceOf(PermanentDeliveryException.class).hasMessageContaining("HTTP 404");
    }

    @Test
    void timeoutIsRetryable() {
        stub.delayAnswers(3_000);
        HttpEffectDelivery impatient = new HttpEffectDelivery(Duration.ofMillis(200));

        assertThatThrownBy(() -> impatient.deliver(effect(stub.url()))).isInstanceOf(HttpTimeoutException.class);
    }

    @Test
    void destinationThatIsNoUrlIsPermanent() {
        assertThatThrownBy(() -> delivery.deliver(effect("not a url")))
                .isInstanceOf(PermanentDeliveryException.class).hasMessageContaining("not a url");
    }

    private static PendingEffect effect(String destination) {
        return new PendingEffect(1, "order:1/mail", "webhook", destination, "{\"a\":1}", 1);
    }
}
