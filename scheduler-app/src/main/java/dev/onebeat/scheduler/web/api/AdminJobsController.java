package dev.onebeat.scheduler.web.api;

import dev.onebeat.scheduler.operate.admin.InstantRuns;
import dev.onebeat.scheduler.operate.admin.JobControl;
import dev.onebeat.scheduler.operate.admin.ManualTriggers;
import java.time.Instant;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

/** {@code POST /api/jobs/{name}/pause}, {@code /resume}, {@code /trigger} and {@code /instants/{instant}/run}. */
@RestController
@RequestMapping("/api/jobs/{name}")
class AdminJobsController {

    static final String IDEMPOTENCY_KEY = "Idempotency-Key";
    private static final int MAX_REQUEST_ID = 100;

    private final JobControl control;
    private final ManualTriggers triggers;
    private final InstantRuns instantRuns;

    AdminJobsController(JobControl control, ManualTriggers triggers, InstantRuns instantRuns) {
        this.control = control;
        this.triggers = triggers;
        this.instantRuns = instantRuns;
    }

    /** Re-runs one instant of the job's schedule that has not committed, with its keys. */
    @PostMapping("/instants/{instant}/run")
    @ResponseStatus(HttpStatus.ACCEPTED)
    InstantRuns.Accepted rerun(@PathVariable String name, @PathVariable Instant instant) {
        return instantRuns.rerun(name, instant);
    }

    /** @param requestId the request id, when not sent as the {@code Idempotency-Key} header */
    record TriggerBody(String requestId) {
    }

    /**
     * @param reason why, shown in the API and the console
     * @param until when the pause ends by itself (an ISO instant in the future)
     */
    record PauseBody(String reason, Instant until) {
    }

    /** The body is optional: without it, a pause with no reason that only a resume ends. */
    @PostMapping("/pause")
    JobControl.JobState pause(@PathVariable String name, @RequestBody(required = false) PauseBody body) {
        return body == null ? control.pause(name) : control.pause(name, body.reason(), body.until());
    }

    @PostMapping("/resume")
    JobControl.JobState resume(@PathVariable String name) {
        return control.resume(name);
    }

    @PostMapping("/trigger")
    @ResponseStatus(HttpStatus.ACCEPTED)
    ManualTriggers.Receipt trigger(@PathVariable String name,
                                   @RequestHeader(name = IDEMPOTENCY_KEY, required = false) String header,
                                   @RequestBody(required = false) TriggerBody body) {
        String requestId = header != null ? header : body == null ? null : body.requestId();
        if (requestId == null || requestId.isBlank()) {
            throw new ResponseStatusException(HttpStatus.BAD_REQUEST, IDEMPOTENCY_KEY + ": is missing; send a header "
                    + IDEMPOTENCY_KEY + " or a body {\"requestId\": ...} unique per intended fire");
        }
        if (requestId.length() > MAX_REQUEST_ID) {
            throw new ResponseStatusException(HttpStatus.BAD_REQUEST, IDEMPOTENCY_KEY + ": must be at most "
                    + MAX_REQUEST_ID + " characters, was " + requestId.length());
        }
        return triggers.trigger(name, requestId);
    }
}
