package dev.onebeat.transport.contract;

import dev.onebeat.transport.OutboundTask;
import dev.onebeat.transport.QueueRoute;

/**
 * A publish the broker refuses and will refuse again, set up by a pair's contract test.
 *
 * @param route the route to publish on
 * @param task the task it refuses
 * @param because a fragment the refusal's error must contain, saying why
 */
public record Refusal(QueueRoute route, OutboundTask task, String because) {
}
