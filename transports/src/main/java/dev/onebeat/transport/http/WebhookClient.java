package dev.onebeat.transport.http;

import dev.onebeat.transport.BrokerSettings;
import dev.onebeat.transport.Delivery;
import dev.onebeat.transport.OutboundTask;
import dev.onebeat.transport.TaskJson;
import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The relay's HTTP client for one webhook broker, shared by the queues routed to it: POSTs each task
 * of a batch, at most {@value #MAX_IN_FLIGHT} at a time, and reads each status. 2xx → published;
 * 408, 429, 5xx, a connection failure or a timeout → retried; any other status → refused, with the
 * status alone (the start of the response body is logged). Each request's timeout bounds its whole
 * exchange, the response body included (see {@link #deadline}). Once a request of a batch could not
 * connect or timed out, the batch's requests not yet sent are retried without being sent.
 */
final class WebhookClient implements AutoCloseable {

    /** Requests of one batch in flight at once. */
    static final int MAX_IN_FLIGHT = 8;
    /** Characters of a refusing response's body logged. */
    static final int ERROR_BODY_CHARS = 500;

    /** Header with the readable idempotency key. */
    public static final String KEY_HEADER = "Idempotency-Key";
    /** Header with the job name. */
    public static final String JOB_HEADER = "Onebeat-Job";
    /** Header with the fire's logical scheduled time, ISO-8601 UTC. */
    public static final String SCHEDULED_AT_HEADER = "Onebeat-Scheduled-At";
    /** Header with the task name. */
    public static final String TASK_HEADER = "Onebeat-Task";

    private static final Logger log = LoggerFactory.getLogger(WebhookClient.class);

    private final HttpClient client;
    private final ExecutorService executor;
    private final ScheduledThreadPoolExecutor deadlines;
    private final Map<String, String> headers;

    private WebhookClient(HttpClient client, ExecutorService executor, ScheduledThreadPoolExecutor deadlines,
                          Map<String, String> headers) {
        this.client = client;
        this.executor = executor;
        this.deadlines = deadlines;
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
        ScheduledThreadPoolExecutor deadlines = new ScheduledThreadPoolExecutor(1, task -> {
            Thread thread = new Thread(task, "onebeat-http-" + name + "-deadlines");
            thread.setDaemon(true);
            return thread;
        });
        // nearly every request ends before its deadline: drop its timer at once
        deadlines.setRemoveOnCancelPolicy(true);
        return new WebhookClient(client, executor, deadlines, headers);
    }

    /**
     * @param target the URL to POST to
     * @param timeout how long each request may take, from its sending to the last byte of the response
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
                outcomes.add(exchange(task, request)
                        .handle((answer, failure) -> {
                            if (failure != null) {
                                unreachable.compareAndSet(null, "an earlier request failed: " + describe(failure));
                            }
                            return outcome(task, request, answer, failure);
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

    /**
     * @param timeout the route's timeout, each request's deadline
     * @param tasks the size of a batch
     * @return how long {@link #publish} of such a batch takes at most: one deadline per
     *     {@value #MAX_IN_FLIGHT} requests, as a request starts only when one before it has ended
     */
    public static Duration deadline(Duration timeout, int tasks) {
        int waves = Math.max(1, (tasks + MAX_IN_FLIGHT - 1) / MAX_IN_FLIGHT);
        return timeout.multipliedBy(waves);
    }

    /**
     * Sends one request with a deadline on the whole exchange: the request's timeout, or
     * {@link HttpSettings#DEFAULT_TIMEOUT}. The JDK client's own timeout ends once the response headers have
     * come, so a server that sends them and then stalls mid-body would hold the request, the batch and the
     * claims forever; at the deadline the exchange is cancelled, which closes its connection.
     */
    private CompletableFuture<Answer> exchange(OutboundTask task, HttpRequest request) {
        Duration deadline = request.timeout().orElse(HttpSettings.DEFAULT_TIMEOUT);
        // counted from before the send: sending may itself take a while (a first connection, class loading)
        long due = System.nanoTime() + deadline.toNanos();
        BodyHead head = new BodyHead();
        CompletableFuture<HttpResponse<Void>> sent = client.sendAsync(request,
                info -> HttpResponse.BodySubscribers.ofByteArrayConsumer(head));
        AtomicBoolean late = new AtomicBoolean();
        ScheduledFuture<?> timer = deadlines.schedule(() -> {
            late.set(true);
            sent.cancel(true);
        }, Math.max(0, due - System.nanoTime()), TimeUnit.NANOSECONDS);
        return sent.handle((response, failure) -> {
            timer.cancel(false);
            if (failure != null && late.get()) {
                log.debug("webhook request cancelled at its deadline key={} url={}", task.key().value(), request.uri());
                throw new CompletionException(new HttpTimeoutException("no complete response within "
                        + deadline.toMillis() + " ms (status, headers and body)"));
            }
            if (failure != null) {
                throw failure instanceof CompletionException completion ? completion : new CompletionException(failure);
            }
            return new Answer(response.statusCode(), head.text());
        });
    }

    /** A response's status and the start of its body. */
    private record Answer(int status, String bodyHead) {
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
        task.payload().trace().fields().forEach(request::header);
        return request.POST(HttpRequest.BodyPublishers.ofByteArray(TaskJson.body(task))).build();
    }

    /**
     * How a response or a failure to get one ends for the task. A refusing answer's body is the remote
     * server's, not onebeat's: {@code last_error} gets the status alone, which any viewer may read, and the
     * start of the body goes to the log, which only operators read.
     */
    private static Delivery outcome(OutboundTask task, HttpRequest request, Answer answer, Throwable failure) {
        if (failure != null) {
            return Delivery.retry(describe(failure));
        }
        int status = answer.status();
        if (status >= 200 && status < 300) {
            return Delivery.published();
        }
        String error = "HTTP " + status;
        if (!answer.bodyHead().isBlank()) {
            log.warn("webhook answered {} key={} url={} body={}", status, task.key().value(), withoutQuery(request.uri()),
                    answer.bodyHead());
        }
        return status == 408 || status == 429 || status >= 500 ? Delivery.retry(error) : Delivery.refused(error);
    }

    /** The address without its query, where a ping URL may carry a token. */
    private static String withoutQuery(URI uri) {
        return uri.getScheme() + "://" + uri.getRawAuthority().replaceAll("^[^@]*@", "") + uri.getRawPath();
    }

    private static String describe(Throwable failure) {
        Throwable cause = failure instanceof CompletionException && failure.getCause() != null
                ? failure.getCause() : failure;
        return cause.getMessage() == null ? cause.getClass().getSimpleName()
                : cause.getClass().getSimpleName() + ": " + cause.getMessage();
    }

    @Override
    public void close() {
        deadlines.shutdownNow();
        executor.shutdownNow();
    }

    /**
     * Keeps the first {@value #ERROR_BODY_CHARS} characters' worth of a response body and drops the rest as it
     * comes, so a huge answer costs no memory.
     */
    private static final class BodyHead implements Consumer<Optional<byte[]>> {

        private static final int LIMIT = ERROR_BODY_CHARS * 4;

        private final ByteArrayOutputStream kept = new ByteArrayOutputStream();

        @Override
        public synchronized void accept(Optional<byte[]> chunk) {
            chunk.ifPresent(bytes -> kept.write(bytes, 0, Math.min(bytes.length, LIMIT - kept.size())));
        }

        synchronized String text() {
            String text = kept.toString(StandardCharsets.UTF_8);
            return text.substring(0, Math.min(text.length(), ERROR_BODY_CHARS));
        }
    }
}
