package dev.onebeat.worker.journal;

import java.util.Objects;

/**
 * The steps of one compound task, each applied at most once. A step's journal key is the task's key,
 * {@code #} and the step name ({@code order-42#charge}), so a retry of the task, with the same key,
 * skips the steps already done and resumes at the first one that is not.
 *
 * <p>Each step runs in its own transaction, through the {@link IdempotentConsumer}: step 1's commit
 * survives a failure in step 2, and its journal entry commits with its work. The task as a whole is
 * therefore not atomic; write each step so that the later ones can run after a pause, and keep the
 * order of the calls fixed. A step whose work must not be repeated outside the database (a payment
 * call) belongs in the side-effect outbox, written by the step.
 *
 * <p>Create one per delivery: {@code Steps.of(consumer, task.idempotencyKey())}.
 */
public final class Steps {

    private final IdempotentConsumer consumer;
    private final String taskKey;

    private Steps(IdempotentConsumer consumer, String taskKey) {
        this.consumer = consumer;
        this.taskKey = taskKey;
    }

    /**
     * @param consumer the consumer the step entries are journaled under
     * @param taskKey the task's idempotency key, the same on every delivery
     * @return the task's steps
     */
    public static Steps of(IdempotentConsumer consumer, String taskKey) {
        Objects.requireNonNull(consumer, "consumer must not be null");
        return new Steps(consumer, JournalKeys.key(taskKey));
    }

    /**
     * Runs the step unless an earlier delivery of the task committed it.
     *
     * @param step the step name, unique within the task, without {@code #}; also the metrics task tag
     * @param work the step's database work, committed with its journal entry
     * @return true if the step ran now, false if it was already done
     * @throws JournalException (or the work's unchecked exception) after rolling the step back;
     *     let it fail the delivery so the task is retried
     */
    public boolean run(String step, Work work) {
        Objects.requireNonNull(step, "step must not be null");
        if (step.isBlank() || step.indexOf('#') >= 0) {
            throw new IllegalArgumentException("step must be non-blank and without '#', was '" + step + "'");
        }
        return consumer.process(step, key(step), work);
    }

    String key(String step) {
        return taskKey + "#" + step;
    }
}
