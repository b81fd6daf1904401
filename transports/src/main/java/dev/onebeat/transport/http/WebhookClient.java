package dev.onebeat.transport.http;

import dev.onebeat.transport.BrokerSettings;
import dev.onebeat.transport.Delivery;
import dev.onebeat.transport.OutboundTask;
import dev.onebeat.transport.TaskJson;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

/**
 * The relay's HTTP client for one webhook broker, shared by the queues routed to it: POSTs each task
 * of a batch, at most {@value #MAX_IN_FLIGHT} at a time, and reads each status. 2xx → published;
 * 408, 429, 5xx, a connection failure or a timeout → retried; any other status → refused, with the
 * status and the start of the response body. Once a request of a batch could not connect or timed
 * out, the batch's requests not yet sent are retried without being sent.
 */
public final class WebhookClient implements AutoCloseable {

    /** Requests of one batch in flight at once. */
    static final int MAX_IN_FLIGHT = 8;
    /** Characters of a refusing response's body kept in {@code last_error}. */
    static final int ERROR_BODY_CHARS = 500;

    /** Header with the readable idempotency key. */
    public static final String KEY_HEADER = "Idempotency-Key";
    /** Header with the job name. */
    public static final String JOB_HEADER = "Onebeat-Job";
    /** Header with the fire's logical scheduled time, ISO-8601 UTC. */
    public static final String SCHEDULED_AT_HEADER = "Onebeat-Scheduled-At";
    /** Header with the task name. */
    public static final String TASK_HEADER = "Onebeat-Task";

    private final HttpClient client;
    private final ExecutorService executor;
    private final Map<String, String> headers;

    private WebhookClient(HttpClient client, ExecutorService executor, Map<String, String> headers) {
        this.client = client;
        this.executor = executor;
        this.headers = headers;
    }

    /**
     * @param broker an {@code http} broker, already validated
     * @return a client; it connects on the first request
     */
    public static WebhookClient open(BrokerSettings broker) {
        return open(broker.name(), HttpSettings.headers(broker));
    }

    /**
     * @param name names its threads
     * @param headers sent with every request of {@link #publish(URI, Duration, List)}
     * @return a client; it connects on the first request
     */
    public static WebhookClient open(String name, Map<String, String> headers) {
        AtomicInteger threads = new AtomicInteger();
        ExecutorService executor = Executors.newCachedThreadPool(task -> {
            Thread thread = new Thread(task, "onebeat-http-" + name + "-" + threads.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
        HttpClient client = HttpClient.newBuilder()
                .executor(executor)
                .connectTimeout(Duration.ofSeconds(5))
                .followRedirects(HttpClient.Redirect.NEVER)
                .build();
        return new WebhookClient(client, executor, headers);
    }

    /**
     * @param target the URL to POST to
     * @param timeout how long each request waits for its response
     * @param tasks the batch
     * @return one outcome per task, in order
     * @throws InterruptedException if interrupted while waiting for a free slot; requests already sent
     *     run on, their outcomes unread, and the claims expire
     */
    public List<Delivery> publish(URI target, Duration timeout, List<OutboundTask> tasks) throws InterruptedException {
        return publish(tasks, task -> request(target, timeout, task));
    }

    /**
     * Sends each task of a batch as the request {@code requests} makes of it, with the same outcomes and limits as
     * {@link #publish(URI, Duration, List)}.
     *
     * @param requests the request of a task; an {@link IllegalArgumentException} from it refuses that task
     * @throws InterruptedException as {@link #publish(URI, Duration, List)}
     */
    public List<Delivery> publish(List<OutboundTask> tasks, Function<OutboundTask, HttpRequest> requests)
            throws InterruptedException {
        Semaphore slots = new Semaphore(MAX_IN_FLIGHT);
        AtomicReference<String> unreachable = new AtomicReference<>();
        List<CompletableFuture<Delivery>> outcomes = new ArrayList<>(tasks.size());
        for (OutboundTask task : tasks) {
            HttpRequest request;
            try {
                request = requests.apply(task);
            } catch (IllegalArgumentException e) {
                outcomes.add(CompletableFuture.completedFuture(Delivery.refused("not sent: " + e.getMessage())));
                continue;
            }
            slots.acquire();
            // a server that could not be reached or timed out gets no more of this batch: a dead or hung
            // endpoint costs one round of timeouts, not one per eight tasks
            String notSent = unreachable.get();
            if (notSent != null) {
                slots.release();
                outcomes.add(CompletableFuture.completedFuture(Delivery.retry("not sent, " + notSent)));
                continue;
            }
            try {
                outcomes.add(client.sendAsync(request, HttpResponse.BodyHandlers.ofString())
                        .handle((response, failure) -> {
                            if (failure != null) {
                                unreachable.compareAndSet(null, "an earlier request failed: " + describe(failure));
                            }
                            return outcome(response, failure);
                        })
                        .whenComplete((delivery, error) -> slots.release()));
            } catch (RuntimeException e) {
                slots.release();
                throw e;
            }
        }
        List<Delivery> deliveries = new ArrayList<>(tasks.size());
        for (CompletableFuture<Delivery> outcome : outcomes) {
            deliveries.add(outcome.join());
        }
        return deliveries;
    }

    private HttpRequest request(URI target, Duration timeout, OutboundTask task) {
        HttpRequest.Builder request = HttpRequest.newBuilder(target)
                .timeout(timeout)
                .header("Content-Type", "application/json")
                .header(KEY_HEADER, task.key().value())
                .header(JOB_HEADER, task.jobName())
                .header(SCHEDULED_AT_HEADER, task.scheduledAt().toString())
                .header(TASK_HEADER, task.task());
        headers.forEach(request::header);
        return request.POST(HttpRequest.BodyPublishers.ofByteArray(TaskJson.body(task))).build();
    }

    /** How a response or a failure to get one ends for the task. */
    private static Delivery outcome(HttpResponse<String> response, Throwable failure) {
        if (failure != null) {
            return Delivery.retry(describe(failure));
        }
        int status = response.statusCode();
        if (status >= 200 && status < 300) {
            return Delivery.published();
        }
        String body = response.body() == null ? "" : response.body();
        String error = "HTTP " + status + (body.isBlank() ? ""
                : ": " + body.substring(0, Math.min(body.length(), ERROR_BODY_CHARS)));
        return status == 408 || status == 429 || status >= 500 ? Delivery.retry(error) : Delivery.refused(error);
    }

    private static String describe(Throwable failure) {
        Throwable cause = failure instanceof CompletionException && failure.getCause() != null
                ? failure.getCause() : failure;
        return cause.getMessage() == null ? cause.getClass().getSimpleName()
                : cause.getClass().getSimpleName() + ": " + cause.getMessage();
    }

    @Override
    public void close() {
        executor.shutdownNow();
    }
}
